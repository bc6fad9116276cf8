// SPDX-License-Identifier: Apache-2.0
// Linear reduction (Open MPI's basic linear): every rank sends its vector to the root, which
// receives them one at a time from rank p - 1 down to rank 0, each as the left operand of what
// it has so far, so the order is that of the ranks for any operation.
// Cost (root 0): eager, the vectors share the root's link and arrive together, (p - 1) w after
// they start; the root's receives, one at a time, then end o_r apart:
// T = o_s + L + (p - 1) (w + o_r). Rendezvous receives are posted one at
// a time, so each costs its own clear-to-send round trip: T = o_s + L + (p - 1) (2L + w + o_r).
#include <cstring>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void reduce_linear(CollContext& c, const void* sendbuf, void* recvbuf, int count,
                   const Reduction& red, int root) {
  int n = c.size();
  std::size_t bytes = red.bytes(count);
  if (c.rank() != root) {
    c.send(root, kTagReduce, sendbuf, bytes);
    return;
  }
  std::vector<char> acc(bytes), in(bytes);
  if (n - 1 == root) {
    if (bytes) std::memcpy(acc.data(), sendbuf, bytes);
  } else {
    c.recv(n - 1, kTagReduce, acc.data(), bytes);
  }
  for (int i = n - 2; i >= 0; --i) {
    if (i == root) {
      red.apply(sendbuf, acc.data(), count);
      continue;
    }
    c.recv(i, kTagReduce, in.data(), bytes);
    red.apply(in.data(), acc.data(), count);
  }
  if (bytes) std::memcpy(recvbuf, acc.data(), bytes);
}

}  // namespace simmpi::mpi
