// SPDX-License-Identifier: Apache-2.0
// Linear gather: the root posts one receive per rank and waits for all; the others send once.
// Serves MPI_Gather and MPI_Gatherv.
#include <cstring>

#include "libsimmpi/coll/coll_context.hpp"

namespace simmpi::mpi {

void gatherv_linear(CollContext& c, const void* sendbuf, std::size_t sendbytes, void* recvbuf,
                    const std::vector<std::size_t>& counts, const std::vector<std::size_t>& displs,
                    int root) {
  if (c.rank() != root) {
    c.send(root, kTagGather, sendbuf, sendbytes);
    return;
  }
  auto* out = static_cast<char*>(recvbuf);
  std::vector<Request*> recvs;
  for (int i = 0; i < c.size(); ++i)
    if (i != root)
      recvs.push_back(c.irecv(i, kTagGather, out + displs[static_cast<std::size_t>(i)],
                              counts[static_cast<std::size_t>(i)]));
  if (sendbuf && sendbytes)  // nullptr: MPI_IN_PLACE, the root's block is already in place
    std::memmove(out + displs[static_cast<std::size_t>(root)], sendbuf, sendbytes);
  c.wait_all(recvs);
}

}  // namespace simmpi::mpi
