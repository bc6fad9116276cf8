// SPDX-License-Identifier: Apache-2.0
// Bruck allgather (Bruck et al. 1997; MPICH's short-message allgather for p not a power of two,
// Open MPI's "bruck"): in round k a rank sends the 2^k blocks it holds to rank - 2^k and receives
// as many from rank + 2^k; after lg rounds it holds every block, rotated by its rank, and puts
// them in order. Blocks may differ in size (MPI_Allgatherv).
// Cost (equal blocks of b bytes): round k moves min(2^k, p - 2^k) blocks, all ranks in step,
// T = sum_{k=0..lg-1} h(min(2^k, p - 2^k) b).
#include <algorithm>
#include <cstring>

#include "libsimmpi/coll/algorithms.hpp"
#include "libsimmpi/coll/scratch.hpp"

namespace simmpi::mpi {

void allgatherv_bruck(CollContext& c, char* packed, const Sizes& counts, const Sizes& offsets) {
  int n = c.size(), r = c.rank();
  auto rot = [&](int i) { return static_cast<std::size_t>((r + i) % n); };
  // Offsets in the rotated buffer: i blocks when all are equal (MPI_Allgather), else a table
  // (kept out of the equal case: one per rank, quadratic in all at thousands of ranks).
  const bool equal =
      std::all_of(counts.begin(), counts.end(), [&](std::size_t b) { return b == counts.front(); });
  Sizes table;
  if (!equal) {
    table.assign(static_cast<std::size_t>(n) + 1, 0);
    for (int i = 0; i < n; ++i)
      table[static_cast<std::size_t>(i) + 1] = table[static_cast<std::size_t>(i)] + counts[rot(i)];
  }
  auto at = [&](std::size_t i) { return equal ? i * counts.front() : table[i]; };
  const std::size_t total = at(static_cast<std::size_t>(n));
  Scratch tmp(total, packed, total, c.world().current_rank());
  if (counts[rot(0)]) std::memcpy(tmp.data(), packed + offsets[rot(0)], counts[rot(0)]);
  for (int k = 1; k < n; k <<= 1) {
    auto m = static_cast<std::size_t>(k < n - k ? k : n - k);
    auto uk = static_cast<std::size_t>(k);
    c.sendrecv((r - k + n) % n, tmp.data(), at(m), (r + k) % n, tmp.data() + at(uk),
               at(uk + m) - at(uk), kTagAllgather);
  }
  for (int i = 1; i < n; ++i)
    if (counts[rot(i)])
      std::memcpy(packed + offsets[rot(i)], tmp.data() + at(static_cast<std::size_t>(i)),
                  counts[rot(i)]);
}

}  // namespace simmpi::mpi
