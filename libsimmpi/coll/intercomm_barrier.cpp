// SPDX-License-Identifier: Apache-2.0
// MPI_Barrier on an intercommunicator, as MPICH's MPIR_Barrier_inter_bcast: every group runs its
// barrier, then the low group's leader broadcasts one byte to the high group and the high
// group's leader one byte back. A member of the high group leaves once every member of the low
// group has entered (its byte follows the low group's barrier), and the low group once the high
// group's answer, sent after its own barrier, has come back. Cost: T_barrier(low) and
// T_barrier(high) overlap, then two inter-group broadcasts of one byte, each h(1) +
// T_bcast(1) in the receiving group.
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/intercomm_algorithms.hpp"

namespace simmpi::mpi {

void inter_barrier(CollContext& c) {
  CollContext local = local_side(c);
  run_barrier(local);
  char token = 0;
  const int send_root = c.rank() == 0 ? MPI_ROOT : MPI_PROC_NULL;
  if (is_low_group(c)) {
    inter_bcast(c, &token, 1, 1, send_root);
    inter_bcast(c, &token, 1, 1, 0);
  } else {
    inter_bcast(c, &token, 1, 1, 0);
    inter_bcast(c, &token, 1, 1, send_root);
  }
}

}  // namespace simmpi::mpi
