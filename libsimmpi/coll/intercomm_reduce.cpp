// SPDX-License-Identifier: Apache-2.0
// MPI_Reduce on an intercommunicator, as MPICH's MPIR_Reduce_inter_local_reduce_remote_send: the
// other group reduces its inputs to its leader with the selected intra reduce, and the leader
// sends the result to the root. Cost: T_reduce(S) over that group + h(S).
#include <vector>

#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/intercomm_algorithms.hpp"

namespace simmpi::mpi {

void inter_reduce(CollContext& c, const void* sendbuf, void* recvbuf, int count,
                  const Reduction& red, int root) {
  const std::size_t bytes = red.bytes(count);
  if (root == MPI_PROC_NULL || bytes == 0) return;
  if (root == MPI_ROOT) {
    c.recv(0, kTagInter, recvbuf, bytes);
    return;
  }
  std::vector<char> result(c.rank() == 0 ? bytes : 0);
  CollContext local = local_side(c);
  run_reduce(local, sendbuf, result.data(), count, red, 0);
  if (c.rank() == 0) c.send(root, kTagInter, result.data(), bytes);
}

}  // namespace simmpi::mpi
