// SPDX-License-Identifier: Apache-2.0
// Scatter + ring allgather broadcast (MPICH's long-message broadcast, Thakur, Rabenseifner,
// Gropp 2005 section 3.1; Open MPI's "scatter_allgather_ring"): the root scatters blocks of
// ceil(S/p) bytes down a binomial tree, then in p - 1 ring steps each rank passes the block it
// got last to its right neighbour.
// Cost (p = 2^k, b = S/p, no link carrying two flows at once, as in bcast_scatter_allgather.cpp:
// every message rendezvous, or eager with w <= o_s): the scatter's longest path, then p - 1 ring
// steps paced by the last rank to get its block: T = sum_{i=1..k} h(S/2^i) + (p - 1) h(b).
// Longer eager messages let ranks run ahead into the ring, whose flows then share links with
// the scatter's and with each other's in an order that has no closed form.
#include <algorithm>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void bcast_scatter_ring_allgather(CollContext& c, void* buf, std::size_t bytes, int root) {
  int n = c.size();
  if (n == 1 || bytes == 0) return;
  auto* b = static_cast<char*>(buf);
  std::size_t block = (bytes + n - 1) / n;
  auto at = [&](int i) { return std::min(bytes, block * static_cast<std::size_t>(i)); };
  auto span = [&](int i, int k) { return at(i + k) - at(i); };
  int vr = (c.rank() - root + n) % n;
  bcast_scatter_blocks(c, b, bytes, block, root);
  // Ring: in step i send block vr - i, receive block vr - i - 1.
  int right = (c.rank() + 1) % n, left = (c.rank() + n - 1) % n;
  for (int i = 0; i < n - 1; ++i) {
    int out = (vr - i + n) % n, in = (vr - i - 1 + n) % n;
    c.sendrecv(right, b + at(out), span(out, 1), left, b + at(in), span(in, 1), kTagBcast);
  }
}

}  // namespace simmpi::mpi
