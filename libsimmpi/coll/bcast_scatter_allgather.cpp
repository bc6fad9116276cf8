// SPDX-License-Identifier: Apache-2.0
// Scatter + recursive-doubling allgather broadcast (van de Geijn; Barnett et al. 1994; MPICH's
// medium-message broadcast, Thakur, Rabenseifner, Gropp 2005 section 3.1; Open MPI's
// "scatter_allgather"): the root scatters blocks of ceil(S/p) bytes down a binomial tree, then
// the ranks gather them back by recursive doubling. For p not a power of two, a rank whose
// partner does not exist gets the missing blocks from ranks of its own subtree that received
// them (recursive halving), as MPICH and Open MPI do.
// Cost (p = 2^k, b = S/p, no link carrying two flows at once: every message rendezvous, as each
// rank then has one send and one receive in flight and data moves only to a posted receive, or
// eager ones short enough, w <= o_s, as in the tests): the last rank's block comes down the
// scatter's longest path, whose k hops carry S/2, S/4, ... S/p, and the allgather's step i then
// moves 2^i b to the ranks that depend on it: T = sum_{i=1..k} h(S/2^i) + sum_{i=0..k-1} h(2^i b).
// Longer eager messages complete before their data has left, ranks run into the allgather early
// and its flows share links with the scatter's in an order that has no closed form.
#include <algorithm>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {
namespace {

struct Blocks {
  char* buf;
  std::size_t bytes, block;
  // Bytes of the blocks [first, first + n) that exist.
  std::size_t span(int first, int n) const {
    std::size_t lo = std::min(bytes, block * static_cast<std::size_t>(first));
    std::size_t hi = std::min(bytes, block * static_cast<std::size_t>(first + n));
    return hi - lo;
  }
  char* at(int i) const { return buf + std::min(bytes, block * static_cast<std::size_t>(i)); }
};

// Ranks of a subtree whose partner subtree is incomplete pass on what they got to those of
// their subtree that had no partner.
std::size_t fill_missing(CollContext& c, const Blocks& b, int root, int vr, int mask,
                         std::size_t got) {
  int n = c.size(), vtree = vr / mask * mask;
  int with_data = n - vtree - mask;
  int offset = vtree + mask;
  std::size_t added = 0;
  for (int half = mask >> 1; half > 0; half >>= 1) {
    int vremote = vr ^ half, tree = vr / (half << 1) * (half << 1);
    int remote = (vremote + root) % n;
    if (vremote > vr && vr < tree + with_data && vremote >= tree + with_data) {
      c.send(remote, kTagBcast, b.at(offset), got);
    } else if (vremote < vr && vremote < tree + with_data && vr >= tree + with_data) {
      got = c.recv(remote, kTagBcast, b.at(offset), b.span(offset, n));
      added += got;
    }
  }
  return added;
}

}  // namespace

std::size_t bcast_scatter_blocks(CollContext& c, char* buf, std::size_t bytes, std::size_t block,
                                 int root) {
  int n = c.size(), vr = (c.rank() - root + n) % n;
  Blocks b{buf, bytes, block};
  std::size_t have = vr == 0 ? bytes : 0;
  int mask = 1;
  for (; mask < n; mask <<= 1)
    if (vr & mask) {
      if (b.span(vr, mask))
        have = c.recv((c.rank() - mask + n) % n, kTagBcast, b.at(vr), b.span(vr, mask));
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1) {
    std::size_t lower = b.span(vr, mask);
    if (vr + mask < n && have > lower) {
      c.send((c.rank() + mask) % n, kTagBcast, b.at(vr + mask), have - lower);
      have = lower;
    }
  }
  return have;
}

void bcast_scatter_allgather(CollContext& c, void* buf, std::size_t bytes, int root) {
  int n = c.size();
  if (n == 1 || bytes == 0) return;
  Blocks b{static_cast<char*>(buf), bytes, (bytes + n - 1) / n};
  int vr = (c.rank() - root + n) % n;
  bcast_scatter_blocks(c, b.buf, bytes, b.block, root);
  std::size_t curr = b.span(vr, 1);
  for (int mask = 1; mask < n; mask <<= 1) {
    int vremote = vr ^ mask, vtree = vr / mask * mask, rtree = vremote / mask * mask;
    std::size_t got = 0;
    if (vremote < n) {
      got = c.sendrecv((vremote + root) % n, b.at(vtree), curr, (vremote + root) % n, b.at(rtree),
                       b.span(rtree, n), kTagBcast);
      curr += got;
    }
    if (rtree + mask > n) curr += fill_missing(c, b, root, vr, mask, got);
  }
}

}  // namespace simmpi::mpi
