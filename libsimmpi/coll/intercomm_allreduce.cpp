// SPDX-License-Identifier: Apache-2.0
// MPI_Allreduce on an intercommunicator, as MPICH's MPIR_Allreduce_inter_reduce_exchange_bcast:
// each group reduces its inputs to its leader with the selected intra reduce, the two leaders
// swap their results, and each leader broadcasts the other group's result in its group. Cost:
// max over the groups of T_reduce(S), then h(S) for the swap, then T_bcast(S) in each group.
#include <vector>

#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/intercomm_algorithms.hpp"

namespace simmpi::mpi {

void inter_allreduce(CollContext& c, void* buf, int count, const Reduction& red) {
  const std::size_t bytes = red.bytes(count);
  if (bytes == 0) return;
  std::vector<char> mine(c.rank() == 0 ? bytes : 0);
  CollContext local = local_side(c);
  run_reduce(local, buf, mine.data(), count, red, 0);
  if (c.rank() == 0) c.sendrecv(0, mine.data(), bytes, 0, buf, bytes, kTagInter);
  run_bcast(local, buf, count, red.elem_bytes(), 0);
}

}  // namespace simmpi::mpi
