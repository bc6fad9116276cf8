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

void reduce_scatter_recursive_halving(CollContext& c, void* input, void* recvbuf,
                                      const std::vector<int>& counts, const Reduction& red) {
  int n = c.size(), r = c.rank();
  auto* buf = static_cast<char*>(input);
  std::vector<int> displs(static_cast<std::size_t>(n) + 1, 0);
  std::partial_sum(counts.begin(), counts.end(), displs.begin() + 1);
  int total = displs.back();
  std::vector<char> in(red.bytes(total));
  int q = 1;
  while (q * 2 <= n) q *= 2;
  int rem = n - q, newrank = r < 2 * rem ? (r % 2 ? r / 2 : -1) : r - rem;
  if (r < 2 * rem && r % 2 == 0) {
    c.send(r + 1, kTagReduceScatter, buf, red.bytes(total));
  } else if (r < 2 * rem) {
    c.recv(r - 1, kTagReduceScatter, in.data(), red.bytes(total));
    red.apply(in.data(), buf, total);
  }
  // Block i of the q ranks covers the blocks of the ranks it stands for.
  auto first_of = [&](int nr) { return nr < rem ? 2 * nr : nr + rem; };
  auto elem = [&](int nr) { return nr >= q ? total : displs[static_cast<std::size_t>(first_of(nr))]; };
  if (newrank >= 0) {
    int lo = 0, hi = q;
    for (int mask = q >> 1; mask > 0; mask >>= 1) {
      int partner_new = newrank ^ mask, partner = partner_new < rem ? partner_new * 2 + 1 : partner_new + rem;
      bool lower = newrank < partner_new;
      int mid = lo + mask;
      int keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
      int give_lo = lower ? mid : lo, give_hi = lower ? hi : mid;
      c.sendrecv(partner, buf + red.bytes(elem(give_lo)), red.bytes(elem(give_hi) - elem(give_lo)),
                 partner, in.data(), red.bytes(elem(keep_hi) - elem(keep_lo)), kTagReduceScatter);
      red.apply(in.data(), buf + red.bytes(elem(keep_lo)), elem(keep_hi) - elem(keep_lo));
      lo = keep_lo, hi = keep_hi;
    }
  }
  auto mine = [&](int rank) { return buf + red.bytes(displs[static_cast<std::size_t>(rank)]); };
  if (r < 2 * rem && r % 2) c.send(r - 1, kTagReduceScatter, mine(r - 1), red.bytes(counts[static_cast<std::size_t>(r - 1)]));
  if (r < 2 * rem && r % 2 == 0) {
    c.recv(r + 1, kTagReduceScatter, recvbuf, red.bytes(counts[static_cast<std::size_t>(r)]));
    return;
  }
  if (counts[static_cast<std::size_t>(r)]) std::memcpy(recvbuf, mine(r), red.bytes(counts[static_cast<std::size_t>(r)]));
}

}  // namespace simmpi::mpi
