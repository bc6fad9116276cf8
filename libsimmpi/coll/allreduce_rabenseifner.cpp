// SPDX-License-Identifier: Apache-2.0
// Rabenseifner's allreduce (Rabenseifner 2004; Thakur, Rabenseifner, Gropp 2005 section 4.4;
// MPICH's long-message allreduce, Open MPI's "rabenseifner"): a reduce-scatter by recursive
// halving followed by an allgather by recursive doubling. For p not a power of two the first
// 2r ranks (r = p - q, q = 2^floor(log2 p)) fold pairwise first: even ones hand their vector to
// the odd neighbour and sit out until the odd one returns the result (MPICH's way).
// Cost (p = 2^k, S = count bytes divisible into p blocks, every message eager or every one
// rendezvous): step i of the halving and step k - i + 1 of the doubling both move S/2^i bytes,
// T = 2 sum_{i=1..k} h(S / 2^i) = 2 lg (o_s + L + o_r) + 2 (p - 1)/p S/B (3L per message when
// rendezvous).
#include <cstring>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

RabenseifnerFold rabenseifner_fold(CollContext& c, char* buf, int count, const Reduction& red,
                                   int tag) {
  RabenseifnerFold f;
  int n = c.size(), r = c.rank();
  while (f.q * 2 <= n) f.q *= 2;
  f.rem = n - f.q;
  f.newrank = r < 2 * f.rem ? (r % 2 ? r / 2 : -1) : r - f.rem;
  if (r < 2 * f.rem) {
    std::size_t bytes = red.bytes(count);
    if (r % 2 == 0) {
      c.send(r + 1, tag, buf, bytes);
    } else {
      std::vector<char> in(bytes);
      c.recv(r - 1, tag, in.data(), bytes);
      red.apply(in.data(), buf, count);  // the even (lower) rank's data is the left operand
    }
  }
  f.counts.assign(static_cast<std::size_t>(f.q), count / f.q);
  for (int i = 0; i < count % f.q; ++i) ++f.counts[static_cast<std::size_t>(i)];
  f.displs.assign(static_cast<std::size_t>(f.q) + 1, 0);
  for (int i = 0; i < f.q; ++i)
    f.displs[static_cast<std::size_t>(i) + 1] =
        f.displs[static_cast<std::size_t>(i)] + f.counts[static_cast<std::size_t>(i)];
  return f;
}

void rabenseifner_halve(CollContext& c, RabenseifnerFold& f, char* buf, const Reduction& red,
                        int tag) {
  std::vector<char> in(red.bytes(f.displs.back()));
  int lo = 0, hi = f.q;
  for (int mask = 1; mask < f.q; mask <<= 1) {
    int partner = f.real_rank(f.newrank ^ mask), mid = lo + (hi - lo) / 2;
    bool lower = f.newrank < (f.newrank ^ mask);
    int keep_lo = lower ? lo : mid, keep_hi = lower ? mid : hi;
    int give_lo = lower ? mid : lo, give_hi = lower ? hi : mid;
    c.sendrecv(partner, buf + red.bytes(f.elem(give_lo)), red.bytes(f.elems(give_lo, give_hi)),
               partner, in.data(), red.bytes(f.elems(keep_lo, keep_hi)), tag);
    red.apply(in.data(), buf + red.bytes(f.elem(keep_lo)), f.elems(keep_lo, keep_hi));
    f.ranges.push_back({lo, hi});
    lo = keep_lo, hi = keep_hi;
  }
  f.lo = lo, f.hi = hi;
}

void allreduce_rabenseifner(CollContext& c, void* buf, int count, const Reduction& red) {
  auto* b = static_cast<char*>(buf);
  RabenseifnerFold f = rabenseifner_fold(c, b, count, red, kTagAllreduce);
  if (f.newrank >= 0) {
    rabenseifner_halve(c, f, b, red, kTagAllreduce);
    // Recursive doubling: undo the halving's splits, last one first.
    for (int mask = f.q >> 1; mask > 0; mask >>= 1) {
      auto [lo, hi] = f.ranges.back();
      f.ranges.pop_back();
      int partner = f.real_rank(f.newrank ^ mask);
      int other_lo = f.lo == lo ? f.hi : lo, other_hi = f.lo == lo ? hi : f.lo;
      c.sendrecv(partner, b + red.bytes(f.elem(f.lo)), red.bytes(f.elems(f.lo, f.hi)), partner,
                 b + red.bytes(f.elem(other_lo)), red.bytes(f.elems(other_lo, other_hi)),
                 kTagAllreduce);
      f.lo = lo, f.hi = hi;
    }
  }
  if (c.rank() < 2 * f.rem) {
    if (c.rank() % 2)
      c.send(c.rank() - 1, kTagAllreduce, b, red.bytes(count));
    else
      c.recv(c.rank() + 1, kTagAllreduce, b, red.bytes(count));
  }
}

}  // namespace simmpi::mpi
