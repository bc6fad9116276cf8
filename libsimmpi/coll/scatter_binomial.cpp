// SPDX-License-Identifier: Apache-2.0
// Binomial scatter (MPICH's scatter, Open MPI's "binomial"): the mirror of the binomial gather;
// the root, holding the blocks in relative rank order, sends each child its subtree's blocks,
// farthest (largest) first, with blocking sends; every rank forwards the same way.
// Cost (p = 2^k, blocks of b bytes): the path to rank p - 1 is the longest; its hops carry
// 2^i b (i = k-1 .. 0), each the first of its sender's sends, so when none of them shares its
// link (rendezvous, whose blocking send waits for the data, or w <= o_s),
// T = sum_{i=0..k-1} h(2^i b). An eager hop of x bytes with o_s < w(x) <= 1.5 o_s shares the
// link with the next send (half as long, o_s later; the one after starts once it ends) and
// arrives w(x) - o_s late.
#include <cstring>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void scatter_binomial(CollContext& c, const void* sendbuf, const Sizes& displs, void* recvbuf,
                      std::size_t block, int root) {
  int n = c.size(), vr = (c.rank() - root + n) % n;
  auto at = [&](int blocks) { return block * static_cast<std::size_t>(blocks); };
  std::vector<char> tmp(at(n));
  int have = 0;  // blocks held, from relative rank vr on
  if (vr == 0) {
    for (int i = 0; i < n; ++i)
      if (block)
        std::memcpy(
            tmp.data() + at(i),
            static_cast<const char*>(sendbuf) + displs[static_cast<std::size_t>((i + root) % n)],
            block);
    have = n;
  }
  int mask = 1;
  for (; mask < n; mask <<= 1)
    if (vr & mask) {
      have = mask < n - vr ? mask : n - vr;
      c.recv((c.rank() - mask + n) % n, kTagScatter, tmp.data(), at(have));
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < n) {
      c.send((c.rank() + mask) % n, kTagScatter, tmp.data() + at(mask), at(have - mask));
      have = mask;
    }
  if (recvbuf && block) std::memcpy(recvbuf, tmp.data(), block);  // nullptr: MPI_IN_PLACE
}

}  // namespace simmpi::mpi
