// SPDX-License-Identifier: Apache-2.0
// Neighbor-exchange allgather (Chen et al. 2005; Open MPI's "neighbor"): for p even, ranks pair
// with a neighbour (even rank r with r + 1) and swap their blocks; then in p/2 - 1 steps each
// rank alternately turns to its other neighbour and passes on the two blocks it received last.
// For p odd Open MPI uses the ring, and so does this.
// Cost (p even, equal blocks of b bytes): T = h(b) + (p/2 - 1) h(2b).
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void allgatherv_neighbor_exchange(CollContext& c, char* packed, const Sizes& counts,
                                  const Sizes& offsets) {
  int n = c.size(), r = c.rank();
  if (n % 2) {
    allgatherv_ring(c, packed, counts, offsets);
    return;
  }
  bool even = r % 2 == 0;
  int neighbor[2] = {even ? (r + 1) % n : (r + n - 1) % n, even ? (r + n - 1) % n : (r + 1) % n};
  int step_by[2] = {even ? 2 : -2, even ? -2 : 2};
  int got_from[2] = {even ? r : neighbor[0], even ? r : neighbor[0]};  // first of the 2 blocks
  auto u = [](int i) { return static_cast<std::size_t>(i); };
  c.sendrecv(neighbor[0], packed + offsets[u(r)], counts[u(r)], neighbor[0],
             packed + offsets[u(neighbor[0])], counts[u(neighbor[0])], kTagAllgather);
  // The pair of blocks (i, i + 1) for the even i; packed in rank order they are adjacent unless
  // i + 1 wraps, which it cannot for even i < n.
  auto pair_bytes = [&](int first) { return counts[u(first)] + counts[u(first + 1)]; };
  for (int i = 1; i < n / 2; ++i) {
    int side = i % 2;
    got_from[side] = (got_from[side] + step_by[side] + n) % n;
    int send_first = got_from[side ^ 1] & ~1, recv_first = got_from[side] & ~1;
    c.sendrecv(neighbor[side], packed + offsets[u(send_first)], pair_bytes(send_first),
               neighbor[side], packed + offsets[u(recv_first)], pair_bytes(recv_first),
               kTagAllgather);
  }
}

}  // namespace simmpi::mpi
