// SPDX-License-Identifier: Apache-2.0
// MPI_Reduce_scatter and MPI_Reduce_scatter_block on an intercommunicator, as MPICH's
// MPIR_Reduce_scatter(_block)_inter_remote_reduce_local_scatter: the other group's inputs are
// reduced to this group's leader by an inter reduce (inter_reduce: an intra reduce over the
// other group, then one message; the low group is served first), and the leader scatters the
// blocks in its group with the selected intra scatter(v). Cost: the two inter reduces one after
// the other, then T_scatter over each group.
#include <numeric>
#include <vector>

#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/intercomm_algorithms.hpp"

namespace simmpi::mpi {

void inter_reduce_scatter(CollContext& c, Coll which, const void* input, void* recvbuf,
                          const std::vector<int>& counts, const Reduction& red) {
  const int total = std::accumulate(counts.begin(), counts.end(), 0);
  std::vector<char> reduced(c.rank() == 0 ? red.bytes(total) : 0);
  const int receive_root = c.rank() == 0 ? MPI_ROOT : MPI_PROC_NULL;
  if (is_low_group(c)) {
    inter_reduce(c, nullptr, reduced.data(), total, red, receive_root);
    inter_reduce(c, input, nullptr, total, red, 0);
  } else {
    inter_reduce(c, input, nullptr, total, red, 0);
    inter_reduce(c, nullptr, reduced.data(), total, red, receive_root);
  }
  const auto n = counts.size();
  Sizes bytes(n), displs(n);
  for (std::size_t i = 0, at = 0; i < n; at += bytes[i], ++i)
    bytes[i] = red.bytes(counts[i]), displs[i] = at;
  const auto me = static_cast<std::size_t>(c.rank());
  CollContext local = local_side(c);
  if (total)
    run_scatter(local, which == Coll::ReduceScatterBlock ? Coll::Scatter : Coll::Scatterv,
                reduced.data(), bytes, displs, recvbuf, bytes[me], 0);
}

}  // namespace simmpi::mpi
