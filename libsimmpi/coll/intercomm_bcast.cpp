// SPDX-License-Identifier: Apache-2.0
// MPI_Bcast on an intercommunicator, as MPICH's MPIR_Bcast_inter_remote_send_local_bcast: the
// root sends the buffer to rank 0 of the other group, which broadcasts it in its group with the
// selected intra algorithm. Cost: h(S) + T_bcast(S) over the receiving group; the root leaves
// when its send completes. With one receiver it is exactly one point-to-point message.
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/intercomm_algorithms.hpp"

namespace simmpi::mpi {

void inter_bcast(CollContext& c, void* buf, int count, std::size_t elem_bytes, int root) {
  const std::size_t bytes = elem_bytes * static_cast<std::size_t>(count);
  if (root == MPI_PROC_NULL || bytes == 0) return;
  if (root == MPI_ROOT) return c.send(0, kTagInter, buf, bytes);
  if (c.rank() == 0) c.recv(root, kTagInter, buf, bytes);
  CollContext local = local_side(c);
  run_bcast(local, buf, count, elem_bytes, 0);
}

}  // namespace simmpi::mpi
