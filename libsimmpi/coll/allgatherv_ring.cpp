// SPDX-License-Identifier: Apache-2.0
// Ring allgather (Thakur, Rabenseifner, Gropp 2005 section 3.3; MPICH's long-message allgather,
// Open MPI's "ring"): in step i each rank passes the block it received last (its own first) to
// its right neighbour and receives the next one from its left neighbour.
// Cost (equal blocks of b bytes): p - 1 steps, T = (p - 1) h(b).
#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void allgatherv_ring(CollContext& c, char* packed, const Sizes& counts, const Sizes& offsets) {
  int n = c.size(), r = c.rank();
  int right = (r + 1) % n, left = (r + n - 1) % n;
  for (int i = 0; i < n - 1; ++i) {
    auto out = static_cast<std::size_t>((r - i + n) % n),
         in = static_cast<std::size_t>((r - i - 1 + n) % n);
    c.sendrecv(right, packed + offsets[out], counts[out], left, packed + offsets[in], counts[in],
               kTagAllgather);
  }
}

}  // namespace simmpi::mpi
