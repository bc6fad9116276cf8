// SPDX-License-Identifier: Apache-2.0
// Linear broadcast (Open MPI's basic linear): the root posts a send to every other rank and
// waits for all of them.
// Cost: the root's sends are posted back to back and the last is received h + (p - 2) g after
// the first is posted (algorithms.hpp); eager T = o_s + (p - 2) g + L + w + o_r, rendezvous
// (all receives already posted) T = o_s + (p - 2) g + 3L + w + o_r.
#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void bcast_linear(CollContext& c, void* buf, std::size_t bytes, int root) {
  if (c.rank() != root) {
    c.recv(root, kTagBcast, buf, bytes);
    return;
  }
  std::vector<Request*> sends;
  for (int i = 0; i < c.size(); ++i)
    if (i != root) sends.push_back(c.isend(i, kTagBcast, buf, bytes));
  c.wait_all(sends);
}

}  // namespace simmpi::mpi
