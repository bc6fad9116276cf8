// SPDX-License-Identifier: Apache-2.0
// Synchronized linear gather (Open MPI's "linear_sync", ompi_coll_base_gather_intra_linear_sync):
// the root serves the ranks one at a time: it posts a receive for the first segment of rank
// i's data, sends i a zero-byte go-ahead, posts a receive for the rest and waits for the first
// segment before turning to rank i + 1. A rank sends nothing before its go-ahead, so the root is
// never flooded. Open MPI's fixed rules give no segment size, which makes the first segment the
// whole block and the rest an empty message.
// Cost (root 0, blocks of b bytes, eager, one segment): each rank costs a go-ahead and its
// data in turn, T = (p - 1) (2 o_s + 2L + w(b) + 2 o_r) + max(0, o_s - w(b)), the last term the
// empty rest, which trails the data by o_s unless the data's wire time hides it.
#include <algorithm>
#include <cstring>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void gather_linear_sync(CollContext& c, const void* sendbuf, std::size_t sendbytes, void* recvbuf,
                        const Sizes& counts, const Sizes& displs, int root,
                        std::size_t first_segment) {
  auto cut = [&](std::size_t bytes) {
    return first_segment ? std::min(first_segment, bytes) : bytes;
  };
  if (c.rank() != root) {
    auto* in = static_cast<const char*>(sendbuf);
    c.recv(root, kTagGather, nullptr, 0);
    std::size_t first = cut(sendbytes);
    c.send(root, kTagGather, in, first);
    c.send(root, kTagGather, in + first, sendbytes - first);
    return;
  }
  auto* out = static_cast<char*>(recvbuf);
  std::vector<Request*> rests;
  for (int i = 0; i < c.size(); ++i) {
    if (i == root) continue;
    auto u = static_cast<std::size_t>(i);
    std::size_t first = cut(counts[u]);
    Request* head = c.irecv(i, kTagGather, out + displs[u], first);
    c.send(i, kTagGather, nullptr, 0);
    rests.push_back(c.irecv(i, kTagGather, out + displs[u] + first, counts[u] - first));
    c.wait(head);
  }
  auto me = static_cast<std::size_t>(root);
  if (sendbuf && sendbytes) std::memmove(out + displs[me], sendbuf, sendbytes);
  c.wait_all(rests);
}

}  // namespace simmpi::mpi
