// SPDX-License-Identifier: Apache-2.0
// Recursive-halving reduce-scatter (Thakur, Rabenseifner, Gropp 2005 section 4.1; MPICH's
// commutative short-message reduce-scatter, Open MPI's "recursive_halving"): each of lg steps
// exchanges half of the remaining vector with the rank at distance q/2, q/4, ... and combines
// the half it keeps, until each rank holds its own block reduced. For p not a power of two the
// first 2r ranks fold pairwise first (even ones give their vector to the odd neighbour), and at
// the end the odd ones return each even neighbour its block. Commutative operations only.
// Cost (p = 2^k, total S bytes in equal blocks): step i moves S/2^i bytes,
// T = sum_{i=1..k} h(S / 2^i).
#include <cstring>
#include <numeric>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {
namespace {

// The q = 2^floor(log2 p) ranks left after the fold; new rank i stands for ranks 2i and 2i + 1
// when i < rem, else for rank i + rem.
struct Folded {
  int q, rem, total;
  const std::vector<int>& displs;  // p + 1 prefix sums of the counts
  int real_rank(int nr) const { return nr < rem ? nr * 2 + 1 : nr + rem; }
  // First element of the blocks new rank nr stands for (total for nr = q).
  int elem(int nr) const {
    if (nr >= q) return total;
    return displs[static_cast<std::size_t>(nr < rem ? 2 * nr : nr + rem)];
  }
};

// Halves the range of new ranks' blocks [lo, hi) with the partner at distance q/2, q/4, ...,
// keeping the half that holds this rank's own block and combining the partner's copy of it.
void halve(CollContext& c, const Folded& f, int newrank, char* buf, std::vector<char>& in,
           const Reduction& red) {
  int lo = 0, hi = f.q;
  for (int mask = f.q >> 1; mask > 0; mask >>= 1) {
    int partner_new = newrank ^ mask, partner = f.real_rank(partner_new);
    bool lower = newrank < partner_new;
    int mid = lo + mask;
    int keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
    int give_lo = lower ? mid : lo, give_hi = lower ? hi : mid;
    int keep = f.elem(keep_hi) - f.elem(keep_lo);
    c.sendrecv(partner, buf + red.bytes(f.elem(give_lo)),
               red.bytes(f.elem(give_hi) - f.elem(give_lo)), partner, in.data(), red.bytes(keep),
               kTagReduceScatter);
    red.apply(in.data(), buf + red.bytes(f.elem(keep_lo)), keep);
    lo = keep_lo, hi = keep_hi;
  }
}

}  // namespace

void reduce_scatter_recursive_halving(CollContext& c, void* input, void* recvbuf,
                                      const std::vector<int>& counts, const Reduction& red) {
  int n = c.size(), r = c.rank();
  auto* buf = static_cast<char*>(input);
  std::vector<int> displs(static_cast<std::size_t>(n) + 1, 0);
  std::partial_sum(counts.begin(), counts.end(), displs.begin() + 1);
  int q = 1;
  while (q * 2 <= n) q *= 2;
  Folded f{q, n - q, displs.back(), displs};
  std::vector<char> in(red.bytes(f.total));
  bool paired = r < 2 * f.rem;
  if (paired && r % 2 == 0) {
    c.send(r + 1, kTagReduceScatter, buf, red.bytes(f.total));
  } else if (paired) {
    c.recv(r - 1, kTagReduceScatter, in.data(), red.bytes(f.total));
    red.apply(in.data(), buf, f.total);
  }
  if (!paired || r % 2) halve(c, f, paired ? r / 2 : r - f.rem, buf, in, red);
  auto block = [&](int rank) { return buf + red.bytes(displs[static_cast<std::size_t>(rank)]); };
  auto bytes = [&](int rank) { return red.bytes(counts[static_cast<std::size_t>(rank)]); };
  if (paired && r % 2) c.send(r - 1, kTagReduceScatter, block(r - 1), bytes(r - 1));
  if (paired && r % 2 == 0) {
    c.recv(r + 1, kTagReduceScatter, recvbuf, bytes(r));
    return;
  }
  if (bytes(r)) std::memcpy(recvbuf, block(r), bytes(r));
}

}  // namespace simmpi::mpi
