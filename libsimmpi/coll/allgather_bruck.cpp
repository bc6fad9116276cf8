// SPDX-License-Identifier: Apache-2.0
// Bruck allgather (Bruck et al. 1997; MPICH's choice for non-power-of-two sizes): in round k a
// rank sends the 2^k blocks it holds to rank - 2^k and receives as many from rank + 2^k; after
// ceil(log2 p) rounds it holds every block, rotated by its rank, and puts them in order.
#include <cstring>
#include <vector>

#include "libsimmpi/coll/coll_context.hpp"

namespace simmpi::mpi {

void allgather_bruck(CollContext& c, void* recvbuf, std::size_t block) {
  int n = c.size(), r = c.rank();
  auto* out = static_cast<char*>(recvbuf);
  std::vector<char> tmp(block * static_cast<std::size_t>(n));
  if (block) std::memcpy(tmp.data(), out + block * static_cast<std::size_t>(r), block);
  for (int k = 1; k < n; k <<= 1) {
    auto blocks = static_cast<std::size_t>(k < n - k ? k : n - k);
    c.sendrecv((r - k + n) % n, tmp.data(), blocks * block, (r + k) % n,
               tmp.data() + block * static_cast<std::size_t>(k), blocks * block, kTagAllgather);
  }
  for (int i = 0; i < n; ++i)  // tmp block i came from rank r + i
    if (block)
      std::memcpy(out + block * static_cast<std::size_t>((r + i) % n),
                  tmp.data() + block * static_cast<std::size_t>(i), block);
}

}  // namespace simmpi::mpi
