// SPDX-License-Identifier: Apache-2.0
// Binomial gather (MPICH's gather, Open MPI's "binomial"): blocks flow up the in-order binomial
// tree; a rank receives its children's subtrees nearest first, each appended after what it has,
// and sends the whole to its parent. Relative rank order makes each subtree's blocks contiguous;
// the root places them at their displacements at the end.
// Cost (p = 2^k, blocks of b bytes): the child at distance 2^i sends 2^i b once it has gathered,
// T = sum_{i=0..k-1} h(2^i b).
#include <cstring>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void gather_binomial(CollContext& c, const void* sendbuf, void* recvbuf, const Sizes& displs,
                     std::size_t block, int root) {
  int n = c.size(), vr = (c.rank() - root + n) % n;
  auto at = [&](int blocks) { return block * static_cast<std::size_t>(blocks); };
  std::vector<char> tmp(at(n));
  // sendbuf is null for MPI_IN_PLACE at the root; with empty blocks, a program may pass null
  // buffers anywhere (and non-roots have no displacements), so nothing is read then.
  if (block) {
    const char* mine =
        sendbuf ? static_cast<const char*>(sendbuf)
                : static_cast<const char*>(recvbuf) + displs[static_cast<std::size_t>(root)];
    std::memcpy(tmp.data(), mine, block);
  }
  int have = 1;  // blocks held, from relative rank vr on
  for (int mask = 1; mask < n; mask <<= 1) {
    if (vr & mask) {
      c.send((c.rank() - mask + n) % n, kTagGather, tmp.data(), at(have));
      return;
    }
    if (vr + mask < n) {
      int blocks = mask < n - vr - mask ? mask : n - vr - mask;
      c.recv((c.rank() + mask) % n, kTagGather, tmp.data() + at(have), at(blocks));
      have += blocks;
    }
  }
  for (int i = 0; i < n; ++i)  // relative block i is rank root + i's
    if (block && (sendbuf || i != 0))
      std::memcpy(static_cast<char*>(recvbuf) + displs[static_cast<std::size_t>((i + root) % n)],
                  tmp.data() + at(i), block);
}

}  // namespace simmpi::mpi
