// SPDX-License-Identifier: Apache-2.0
// Dissemination barrier (Hensgen, Finkel, Manber 1988): ceil(log2 p) rounds; in round k each
// rank signals rank + 2^k and waits for rank - 2^k. Works for any p.
#include "libsimmpi/coll/coll_context.hpp"

namespace simmpi::mpi {

void barrier_dissemination(CollContext& c) {
  int n = c.size(), r = c.rank();
  for (int k = 1; k < n; k <<= 1)
    c.sendrecv((r + k) % n, nullptr, 0, (r - k + n) % n, nullptr, 0, kTagBarrier);
}

}  // namespace simmpi::mpi
