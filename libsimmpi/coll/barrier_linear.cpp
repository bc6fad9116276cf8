// SPDX-License-Identifier: Apache-2.0
// Linear barrier (Open MPI's basic linear): every rank signals rank 0, which waits for all of
// them and then releases each in turn.
// Cost: the p - 1 signals travel together (zero bytes never queue on a link) and rank 0 posts
// the releases o_s apart: T = (o_s + L + o_r) + (p - 1) o_s + L + o_r.
#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void barrier_linear(CollContext& c) {
  int n = c.size();
  if (c.rank() != 0) {
    c.send(0, kTagBarrier, nullptr, 0);
    c.recv(0, kTagBarrier, nullptr, 0);
    return;
  }
  std::vector<Request*> reqs;
  for (int i = 1; i < n; ++i) reqs.push_back(c.irecv(i, kTagBarrier, nullptr, 0));
  c.wait_all(reqs);
  for (int i = 1; i < n; ++i) reqs.push_back(c.isend(i, kTagBarrier, nullptr, 0));
  c.wait_all(reqs);
}

}  // namespace simmpi::mpi
