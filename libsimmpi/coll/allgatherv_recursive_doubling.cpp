// SPDX-License-Identifier: Apache-2.0
// Recursive-doubling allgather (Thakur, Rabenseifner, Gropp 2005 section 3.3; MPICH's
// short/medium-message allgather for p a power of two, Open MPI's "recursive_doubling"): in step
// k a rank exchanges the 2^k blocks gathered so far with rank ^ 2^k. For p not a power of two
// Open MPI runs the Bruck algorithm instead, and so does this.
// Cost (p = 2^k, equal blocks of b bytes): T = sum_{i=0..k-1} h(2^i b).
#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void allgatherv_recursive_doubling(CollContext& c, char* packed, const Sizes& counts,
                                   const Sizes& offsets) {
  int n = c.size(), r = c.rank();
  if (n & (n - 1)) {
    allgatherv_bruck(c, packed, counts, offsets);
    return;
  }
  auto begin = [&](int block) { return offsets[static_cast<std::size_t>(block)]; };
  auto end = [&](int block) {
    auto u = static_cast<std::size_t>(block - 1);
    return offsets[u] + counts[u];
  };
  for (int mask = 1; mask < n; mask <<= 1) {
    int mine = r & ~(mask - 1), theirs = (r ^ mask) & ~(mask - 1);
    c.sendrecv(r ^ mask, packed + begin(mine), end(mine + mask) - begin(mine), r ^ mask,
               packed + begin(theirs), end(theirs + mask) - begin(theirs), kTagAllgather);
  }
}

}  // namespace simmpi::mpi
