// SPDX-License-Identifier: Apache-2.0
// Pairwise-exchange all-to-all (MPICH's long-message algorithm): in step i a rank sends to
// rank + i and receives from rank - i, so every step is a permutation. p - 1 steps.
// Serves MPI_Alltoall and MPI_Alltoallv.
#include <cstring>

#include "libsimmpi/coll/coll_context.hpp"

namespace simmpi::mpi {

void alltoallv_pairwise(CollContext& c, const void* sendbuf, const std::vector<std::size_t>& scounts,
                        const std::vector<std::size_t>& sdispls, void* recvbuf,
                        const std::vector<std::size_t>& rcounts,
                        const std::vector<std::size_t>& rdispls) {
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
