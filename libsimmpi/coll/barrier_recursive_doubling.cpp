// SPDX-License-Identifier: Apache-2.0
// Recursive-doubling barrier (Open MPI's coll_base_barrier "recursive_doubling"): ranks below
// the largest power of two q <= p exchange with rank ^ 1, ^ 2, ... ^ q/2; each rank r >= q first
// signals r - q and is released by it at the end.
// Cost: p = q: T = lg * (o_s + L + o_r). Otherwise two more dependent messages (the signal in
// and the release out) frame the exchanges, whose start times then differ by rank.
#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void barrier_recursive_doubling(CollContext& c) {
  int n = c.size(), r = c.rank();
  int q = 1;
  while (q * 2 <= n) q *= 2;
  if (r >= q) {  // signal the partner below, then wait for its release
    c.sendrecv(r - q, nullptr, 0, r - q, nullptr, 0, kTagBarrier);
    return;
  }
  if (r < n - q) c.recv(r + q, kTagBarrier, nullptr, 0);
  for (int mask = 1; mask < q; mask <<= 1)
    c.sendrecv(r ^ mask, nullptr, 0, r ^ mask, nullptr, 0, kTagBarrier);
  if (r < n - q) c.send(r + q, kTagBarrier, nullptr, 0);
}

}  // namespace simmpi::mpi
