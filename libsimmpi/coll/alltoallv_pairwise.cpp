// SPDX-License-Identifier: Apache-2.0
// Pairwise-exchange all-to-all (Thakur, Rabenseifner, Gropp 2005 section 3.4; MPICH's
// long-message algorithm, Open MPI's "pairwise"): in step i a rank sends to rank + i and
// receives from rank - i, so every step is a permutation. p - 1 steps. Serves MPI_Alltoall and
// MPI_Alltoallv.
// Cost (equal blocks of b bytes): every step takes one message time, T = (p - 1) h(b).
#include <cstring>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void alltoallv_pairwise(CollContext& c, const void* sendbuf, const Sizes& scounts,
                        const Sizes& sdispls, void* recvbuf, const Sizes& rcounts,
                        const Sizes& rdispls) {
  int n = c.size(), r = c.rank();
  auto* in = static_cast<const char*>(sendbuf);
  auto* out = static_cast<char*>(recvbuf);
  auto me = static_cast<std::size_t>(r);
  if (rcounts[me]) std::memmove(out + rdispls[me], in + sdispls[me], rcounts[me]);
  for (int i = 1; i < n; ++i) {
    auto dst = static_cast<std::size_t>((r + i) % n);
    auto src = static_cast<std::size_t>((r - i + n) % n);
    c.sendrecv(static_cast<int>(dst), in + sdispls[dst], scounts[dst], static_cast<int>(src),
               out + rdispls[src], rcounts[src], kTagAlltoall);
  }
}

}  // namespace simmpi::mpi
