// SPDX-License-Identifier: Apache-2.0
// Linear scatter: the root sends each rank its block; the others receive once.
// Serves MPI_Scatter and MPI_Scatterv.
#include <cstring>

#include "libsimmpi/coll/coll_context.hpp"

namespace simmpi::mpi {

void scatterv_linear(CollContext& c, const void* sendbuf, const std::vector<std::size_t>& counts,
                     const std::vector<std::size_t>& displs, void* recvbuf,
                     std::size_t recvbytes, int root) {
  if (c.rank() != root) {
    c.recv(root, kTagScatter, recvbuf, recvbytes);
    return;
  }
  auto* in = static_cast<const char*>(sendbuf);
  std::vector<Request*> sends;
  for (int i = 0; i < c.size(); ++i)
    if (i != root)
      sends.push_back(c.isend(i, kTagScatter, in + displs[static_cast<std::size_t>(i)],
                              counts[static_cast<std::size_t>(i)]));
  std::size_t own = counts[static_cast<std::size_t>(root)];
  if (recvbuf && own)  // nullptr: MPI_IN_PLACE, the root keeps its block where it is
    std::memmove(recvbuf, in + displs[static_cast<std::size_t>(root)], own);
  c.wait_all(sends);
}

}  // namespace simmpi::mpi
