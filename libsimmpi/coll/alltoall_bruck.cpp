// SPDX-License-Identifier: Apache-2.0
// Bruck all-to-all (Bruck et al. 1997; MPICH's short-message all-to-all, Open MPI's
// "modified_bruck"): the blocks are rotated so that block i is for rank + i; in round k every
// block whose index has bit k set travels to rank + 2^k (packed into one message); after lg
// rounds block i holds the data from rank - i, and an inverse rotation puts it in place.
// Cost (blocks of b bytes): round k packs the blocks with bit k set, m_k of them
// (p/2 for p = 2^k), T = sum_k h(m_k b).
#include <cstring>
#include <vector>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void alltoall_bruck(CollContext& c, const void* sendbuf, const Sizes& sdispls, void* recvbuf,
                    const Sizes& rdispls, std::size_t block) {
  int n = c.size(), r = c.rank();
  auto* in = static_cast<const char*>(sendbuf);
  auto* out = static_cast<char*>(recvbuf);
  auto at = [&](int i) { return block * static_cast<std::size_t>(i); };
  std::vector<char> tmp(at(n)), packed(at(n)), got(at(n));
  for (int i = 0; i < n; ++i)
    if (block)
      std::memcpy(tmp.data() + at(i), in + sdispls[static_cast<std::size_t>((r + i) % n)], block);
  for (int k = 1; k < n; k <<= 1) {
    std::vector<int> moving;  // the block indices with bit k set
    for (int i = 1; i < n; ++i)
      if (i & k) moving.push_back(i);
    std::size_t bytes = at(static_cast<int>(moving.size()));
    if (block)
      for (std::size_t m = 0; m < moving.size(); ++m)
        std::memcpy(packed.data() + block * m, tmp.data() + at(moving[m]), block);
    c.sendrecv((r + k) % n, packed.data(), bytes, (r - k + n) % n, got.data(), bytes, kTagAlltoall);
    if (block)
      for (std::size_t m = 0; m < moving.size(); ++m)
        std::memcpy(tmp.data() + at(moving[m]), got.data() + block * m, block);
  }
  for (int i = 0; i < n; ++i)
    if (block)
      std::memcpy(out + rdispls[static_cast<std::size_t>((r - i + n) % n)], tmp.data() + at(i),
                  block);
}

}  // namespace simmpi::mpi
