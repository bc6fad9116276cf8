// SPDX-License-Identifier: Apache-2.0
// Dissemination barrier (Hensgen, Finkel, Manber 1988): lg rounds; in round k each rank
// signals rank + 2^k and waits for rank - 2^k. Works for any p. MPICH's barrier, and Open MPI's
// "bruck" barrier (the same exchange pattern).
// Cost: every rank does the same rounds at the same times, T = lg * (o_s + L + o_r).
#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void barrier_dissemination(CollContext& c) {
  int n = c.size(), r = c.rank();
  for (int k = 1; k < n; k <<= 1)
    c.sendrecv((r + k) % n, nullptr, 0, (r - k + n) % n, nullptr, 0, kTagBarrier);
}

}  // namespace simmpi::mpi
