// SPDX-License-Identifier: Apache-2.0
// Recursive-doubling prefix reduction (MPICH's MPI_Scan and MPI_Exscan; Hillis and Steele
// 1986): each rank keeps the reduction of the block of ranks it has heard from and, separately,
// of the lower ranks only; partners at distance 1, 2, 4, ... exchange their block totals.
// Cost: p = 2^k, all ranks in step, T = lg h(S).
#include <cstring>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void scan_recursive_doubling(CollContext& c, void* buf, int count, const Reduction& red,
                             bool exclusive) {
  int n = c.size(), r = c.rank();
  std::size_t bytes = red.bytes(count);
  std::vector<char> partial(bytes), tmp(bytes);
  if (bytes) std::memcpy(partial.data(), buf, bytes);
  bool have_lower = false;  // exclusive scan: buf holds something from lower ranks
  for (int mask = 1; mask < n; mask <<= 1) {
    int dst = r ^ mask;
    if (dst >= n) continue;
    c.sendrecv(dst, partial.data(), bytes, dst, tmp.data(), bytes, kTagScan);
    if (r > dst) {  // tmp is from lower ranks: it is the left operand
      red.apply(tmp.data(), partial.data(), count);
      if (!exclusive) {
        red.apply(tmp.data(), buf, count);
      } else if (have_lower) {
        red.apply(tmp.data(), buf, count);
      } else {
        if (bytes) std::memcpy(buf, tmp.data(), bytes);
        have_lower = true;
      }
    } else {
      red.apply(partial.data(), tmp.data(), count);
      partial.swap(tmp);
    }
  }
}

}  // namespace simmpi::mpi
