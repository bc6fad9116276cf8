// SPDX-License-Identifier: Apache-2.0
// Tree barrier (Open MPI's coll_base_barrier "tree"): a binomial fan-in to rank 0, each rank
// waiting for its children nearest first, then the mirror fan-out, farthest child first.
// Cost: p = 2^k: the fan-in reaches rank 0 after k dependent messages and the fan-out's
// deepest path is k more, T = 2 lg (o_s + L + o_r).
#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void barrier_tree(CollContext& c) {
  int n = c.size(), r = c.rank();
  int depth = 1;
  while (depth < n) depth <<= 1;
  // A partner is one of the binomial tree's edges at distance `jump` when its bits below
  // `jump` are clear.
  auto partner = [&](int jump) {
    int p = r ^ jump;
    return (p & (jump - 1)) == 0 && p < n ? p : -1;
  };
  for (int jump = 1; jump < depth; jump <<= 1) {
    int p = partner(jump);
    if (p > r) c.recv(p, kTagBarrier, nullptr, 0);
    if (p >= 0 && p < r) c.send(p, kTagBarrier, nullptr, 0);
  }
  for (int jump = depth >> 1; jump > 0; jump >>= 1) {
    int p = partner(jump);
    if (p > r) c.send(p, kTagBarrier, nullptr, 0);
    if (p >= 0 && p < r) c.recv(p, kTagBarrier, nullptr, 0);
  }
}

}  // namespace simmpi::mpi
