// SPDX-License-Identifier: Apache-2.0
// Binomial-tree broadcast (MPICH's short-message algorithm): ranks are renumbered relative to
// the root; a rank receives from the rank that differs in its lowest set bit, then sends to the
// ranks that differ from it in each lower bit, farthest first. ceil(log2 p) rounds.
#include "libsimmpi/coll/coll_context.hpp"

namespace simmpi::mpi {

void bcast_binomial(CollContext& c, void* buf, std::size_t bytes, int root) {
  int n = c.size();
  int vr = (c.rank() - root + n) % n;  // rank relative to the root
  int mask = 1;
  while (mask < n) {
    if (vr & mask) {
      c.recv((vr - mask + root) % n, kTagBcast, buf, bytes);
      break;
    }
    mask <<= 1;
  }
  std::vector<Request*> sends;
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) sends.push_back(c.isend((vr + mask + root) % n, kTagBcast, buf, bytes));
  c.wait_all(sends);
}

}  // namespace simmpi::mpi
