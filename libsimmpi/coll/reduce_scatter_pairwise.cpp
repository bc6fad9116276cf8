// SPDX-License-Identifier: Apache-2.0
// Pairwise-exchange reduce-scatter (Thakur, Rabenseifner, Gropp 2005 section 4.1; MPICH's
// commutative long-message reduce-scatter): in step i a rank sends rank + i that rank's block of
// its input and receives from rank - i its contribution to its own block, which it combines.
// p - 1 steps. Commutative operations only.
// Cost (blocks of b bytes): T = (p - 1) h(b).
#include <cstring>
#include <numeric>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void reduce_scatter_pairwise(CollContext& c, void* input, void* recvbuf,
                             const std::vector<int>& counts, const Reduction& red) {
  int n = c.size(), r = c.rank();
  auto* buf = static_cast<char*>(input);
  std::vector<int> displs(static_cast<std::size_t>(n), 0);
  std::partial_sum(counts.begin(), counts.end() - 1, displs.begin() + 1);
  auto u = [](int i) { return static_cast<std::size_t>(i); };
  int mine = counts[u(r)];
  std::vector<char> in(red.bytes(mine));
  if (mine) std::memcpy(recvbuf, buf + red.bytes(displs[u(r)]), red.bytes(mine));
  for (int i = 1; i < n; ++i) {
    int dst = (r + i) % n, src = (r - i + n) % n;
    c.sendrecv(dst, buf + red.bytes(displs[u(dst)]), red.bytes(counts[u(dst)]), src, in.data(),
               red.bytes(mine), kTagReduceScatter);
    red.apply(in.data(), recvbuf, mine);
  }
}

}  // namespace simmpi::mpi
