// SPDX-License-Identifier: Apache-2.0
// Linear prefix reduction (Open MPI's basic "linear" MPI_Scan and MPI_Exscan): rank r waits for
// the prefix of ranks 0..r-1 from rank r - 1, combines its own value and passes the result on to
// rank r + 1 (for the exclusive scan, what it received is its result).
// Cost: a chain of p - 1 messages, T = (p - 1) h(S).
#include <cstring>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void scan_linear(CollContext& c, void* buf, int count, const Reduction& red, bool exclusive) {
  int n = c.size(), r = c.rank();
  std::size_t bytes = red.bytes(count);
  std::vector<char> acc(static_cast<char*>(buf), static_cast<char*>(buf) + bytes);
  if (r > 0) {
    std::vector<char> lower(bytes);
    c.recv(r - 1, kTagScan, lower.data(), bytes);
    red.apply(lower.data(), acc.data(), count);  // acc = lower op mine
    if (bytes) std::memcpy(buf, exclusive ? lower.data() : acc.data(), bytes);
  }
  if (r < n - 1) c.send(r + 1, kTagScan, acc.data(), bytes);
}

}  // namespace simmpi::mpi
