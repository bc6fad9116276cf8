// SPDX-License-Identifier: Apache-2.0
// Linear gather (Open MPI's "basic_linear", MPICH's gatherv): the root posts one receive per
// rank and waits for all; the others send once. Serves MPI_Gather and MPI_Gatherv.
// Cost (blocks of b bytes): all ranks send at once, share the root's link and arrive together
// (p - 1) w(b) after, to receives all posted: eager T = o_s + L + (p - 1) w(b) + o_r; rendezvous
// T = o_s + 3L + (p - 1) w(b) + o_r.
#include <cstring>

#include "libsimmpi/coll/algorithms.hpp"

namespace simmpi::mpi {

void gatherv_linear(CollContext& c, const void* sendbuf, std::size_t sendbytes, void* recvbuf,
                    const Sizes& counts, const Sizes& displs, int root) {
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
