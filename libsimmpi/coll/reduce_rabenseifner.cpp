// SPDX-License-Identifier: Apache-2.0
// Rabenseifner's reduce (Rabenseifner 2004; MPICH's long-message reduce "reduce_scatter_gather",
// Thakur, Rabenseifner, Gropp 2005 section 4.2; Open MPI's "rabenseifner"): a reduce-scatter by
// recursive halving, then a binomial gather of the pieces to the root that retraces the halving
// backwards. For p not a power of two, the ranks first fold as in allreduce_rabenseifner; if
// the root sat out, its odd neighbour gathers and hands it the result.
// Cost (p = 2^k, root 0, blocks eager or all rendezvous): the halving as in the allreduce, then
// the root receives S/2^k, S/2^(k-1), ... S/2 in turn, each sent once its sender has gathered:
// T = 2 sum_{i=1..k} h(S / 2^i).
#include <cstring>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void reduce_rabenseifner(CollContext& c, const void* sendbuf, void* recvbuf, int count,
                         const Reduction& red, int root) {
  std::size_t bytes = red.bytes(count);
  std::vector<char> buf(static_cast<const char*>(sendbuf),
                        static_cast<const char*>(sendbuf) + bytes);
  RabenseifnerFold f = rabenseifner_fold(c, buf.data(), count, red, kTagReduce);
  int gatherer = root < 2 * f.rem && root % 2 == 0 ? root + 1 : root;
  int newroot = gatherer < 2 * f.rem ? gatherer / 2 : gatherer - f.rem;
  if (f.newrank >= 0) {
    rabenseifner_halve(c, f, buf.data(), red, kTagReduce);
    int level = 0;
    while ((1 << (level + 1)) < f.q) ++level;
    for (int mask = f.q >> 1; mask > 0; mask >>= 1, --level) {
      auto [lo, hi] = f.ranges.back();
      f.ranges.pop_back();
      int partner_new = f.newrank ^ mask, partner = f.real_rank(partner_new);
      if ((partner_new >> level) == (newroot >> level)) {  // the partner's side holds the root
        c.send(partner, kTagReduce, buf.data() + red.bytes(f.elem(f.lo)),
               red.bytes(f.elems(f.lo, f.hi)));
        break;
      }
      int other_lo = f.lo == lo ? f.hi : lo, other_hi = f.lo == lo ? hi : f.lo;
      c.recv(partner, kTagReduce, buf.data() + red.bytes(f.elem(other_lo)),
             red.bytes(f.elems(other_lo, other_hi)));
      f.lo = lo, f.hi = hi;
    }
  }
  if (gatherer != root) {
    if (c.rank() == gatherer) c.send(root, kTagRelay, buf.data(), bytes);
    if (c.rank() == root) c.recv(gatherer, kTagRelay, buf.data(), bytes);
  }
  if (c.rank() == root && bytes) std::memcpy(recvbuf, buf.data(), bytes);
}

}  // namespace simmpi::mpi
