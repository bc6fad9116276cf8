// SPDX-License-Identifier: Apache-2.0
// Recursive-doubling allreduce (Thakur, Rabenseifner, Gropp 2005, section 4.4; MPICH's
// short-message allreduce and Open MPI's "recursive_doubling"). With p not a power of two, the
// first 2r ranks (r = p - 2^floor(log2 p)) first pair up: even ranks hand their data to the odd
// neighbour and sit out; the remaining 2^k ranks exchange and combine with partners at distance
// 1, 2, 4, ...; the odd ranks then return the result. The lower rank's data is always the left
// operand, so non-commutative operations are combined in rank order.
// Cost: p = 2^k, all ranks in step, T = lg h(S). Otherwise the fold and the return add a
// message each, and the ranks that waited for the fold start their exchanges late.
#include <cstring>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void allreduce_recursive_doubling(CollContext& c, void* buf, int count, const Reduction& red) {
  int n = c.size(), r = c.rank();
  std::size_t bytes = red.bytes(count);
  std::vector<char> tmp(bytes);
  int pof2 = 1;
  while (pof2 * 2 <= n) pof2 *= 2;
  int rem = n - pof2;
  int newrank;
  if (r < 2 * rem) {
    if (r % 2 == 0) {
      c.send(r + 1, kTagAllreduce, buf, bytes);
      newrank = -1;
    } else {
      c.recv(r - 1, kTagAllreduce, tmp.data(), bytes);
      red.apply(tmp.data(), buf, count);  // buf = left neighbour's op mine
      newrank = r / 2;
    }
  } else {
    newrank = r - rem;
  }
  if (newrank != -1) {
    for (int mask = 1; mask < pof2; mask <<= 1) {
      int newdst = newrank ^ mask;
      int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
      c.sendrecv(dst, buf, bytes, dst, tmp.data(), bytes, kTagAllreduce);
      if (dst < r) {
        red.apply(tmp.data(), buf, count);
      } else {
        red.apply(buf, tmp.data(), count);
        if (bytes) std::memcpy(buf, tmp.data(), bytes);
      }
    }
  }
  if (r < 2 * rem) {
    if (r % 2)
      c.send(r - 1, kTagAllreduce, buf, bytes);
    else
      c.recv(r + 1, kTagAllreduce, buf, bytes);
  }
}

}  // namespace simmpi::mpi
