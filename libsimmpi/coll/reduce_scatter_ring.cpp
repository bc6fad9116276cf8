// SPDX-License-Identifier: Apache-2.0
// Ring reduce-scatter (Open MPI's "ring", ompi_coll_base_reduce_scatter_intra_ring): in p - 1
// steps each rank passes a partial block to its right neighbour, which adds its own contribution,
// so that after the last step each rank holds its own block reduced. The next receive is posted
// before the current one is waited for. Commutative operations only.
// Cost (blocks of b bytes): T = (p - 1) h(b).
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void reduce_scatter_ring(CollContext& c, void* input, void* recvbuf, const std::vector<int>& counts,
                         const Reduction& red) {
  int n = c.size(), r = c.rank(), right = (r + 1) % n, left = (r + n - 1) % n;
  auto* buf = static_cast<char*>(input);
  auto u = [](int i) { return static_cast<std::size_t>(i); };
  std::vector<int> displs(u(n), 0);
  std::partial_sum(counts.begin(), counts.end() - 1, displs.begin() + 1);
  auto block = [&](int b) { return buf + red.bytes(displs[u(b)]); };
  int biggest = *std::max_element(counts.begin(), counts.end());
  std::vector<char> in[2] = {std::vector<char>(red.bytes(biggest)),
                             std::vector<char>(red.bytes(biggest))};
  // Step k sends block r - k - 1 and receives block r - k - 2; the last received is block r.
  int k = 0;
  int incoming = (r + n - 2) % n;
  Request* pending =
      n > 1 ? c.irecv(left, kTagReduceScatter, in[k].data(), red.bytes(counts[u(incoming)]))
            : nullptr;
  if (n > 1)
    c.send(right, kTagReduceScatter, block((r + n - 1) % n), red.bytes(counts[u((r + n - 1) % n)]));
  for (int step = 1; step < n; ++step) {
    int next_block = (incoming + n - 1) % n;
    Request* next = step < n - 1 ? c.irecv(left, kTagReduceScatter, in[k ^ 1].data(),
                                           red.bytes(counts[u(next_block)]))
                                 : nullptr;
    c.wait(pending);
    red.apply(in[k].data(), block(incoming), counts[u(incoming)]);
    if (step < n - 1)
      c.send(right, kTagReduceScatter, block(incoming), red.bytes(counts[u(incoming)]));
    pending = next, incoming = next_block, k ^= 1;
  }
  if (counts[u(r)]) std::memcpy(recvbuf, block(r), red.bytes(counts[u(r)]));
}

}  // namespace simmpi::mpi
