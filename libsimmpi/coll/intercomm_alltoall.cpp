// SPDX-License-Identifier: Apache-2.0
// MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw on an intercommunicator, as MPICH's
// MPIR_Alltoall(v,w)_inter_pairwise_exchange: with m = max(local size, remote size), step i
// (0 <= i < m) sends block (rank + i) mod m and receives block (rank - i) mod m, a step whose
// peer the other group does not have being skipped on that side. Each step waits for its
// exchange before the next. Cost with equal groups of n and eager blocks: n h(b).
#include <algorithm>
#include <vector>

#include "libsimmpi/coll/intercomm_algorithms.hpp"

namespace simmpi::mpi {

void inter_alltoallv(CollContext& c, const void* sendbuf, const Sizes& scounts,
                     const Sizes& sdispls, void* recvbuf, const Sizes& rcounts,
                     const Sizes& rdispls) {
  const int remote = remote_size(c);
  const int m = std::max(c.size(), remote);
  const auto* out = static_cast<const char*>(sendbuf);
  auto* in = static_cast<char*>(recvbuf);
  std::vector<Request*> reqs;
  for (int i = 0; i < m; ++i) {
    const int src = (c.rank() - i + m) % m, dst = (c.rank() + i) % m;
    if (src < remote) {
      auto s = static_cast<std::size_t>(src);
      reqs.push_back(c.irecv(src, kTagInter, in + rdispls[s], rcounts[s]));
    }
    if (dst < remote) {
      auto d = static_cast<std::size_t>(dst);
      reqs.push_back(c.isend(dst, kTagInter, out + sdispls[d], scounts[d]));
    }
    c.wait_all(reqs);
  }
}

}  // namespace simmpi::mpi
