// SPDX-License-Identifier: Apache-2.0
// MPI_Scatter and MPI_Scatterv on an intercommunicator, as MPICH runs them.
// Scatter (MPIR_Scatter_inter_remote_send_local_scatter): the root sends all n blocks to the
// other group's leader in one message, which scatters them in its group with the selected intra
// scatter. Cost: h(n b) + T_scatter(b) over that group.
// Scatterv (MPIR_Scatterv_allcomm_linear): the root posts a send to every member of the other
// group with a block and each receives it straight. Cost h(b) + (n - 1) g(b) for equal blocks.
#include <vector>

#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/intercomm_algorithms.hpp"

namespace simmpi::mpi {
namespace {

void root_sends_all(CollContext& c, const void* sendbuf, const Sizes& counts, const Sizes& displs) {
  std::size_t total = 0;
  bool packed = true;
  for (std::size_t i = 0; i < counts.size(); total += counts[i], ++i) packed &= displs[i] == total;
  if (total == 0) return;
  if (packed) return c.send(0, kTagInter, sendbuf, total);
  std::vector<char> tmp(total);
  pack_blocks(static_cast<const char*>(sendbuf), counts, displs, tmp.data());
  c.send(0, kTagInter, tmp.data(), total);
}

void group_receives_then_scatters(CollContext& c, void* recvbuf, std::size_t block, int root) {
  const auto n = static_cast<std::size_t>(c.size());
  if (block == 0) return;
  std::vector<char> all(c.rank() == 0 ? n * block : 0);
  if (c.rank() == 0) c.recv(root, kTagInter, all.data(), all.size());
  Sizes counts(n, block), displs(n);
  for (std::size_t i = 0; i < n; ++i) displs[i] = i * block;
  CollContext local = local_side(c);
  run_scatter(local, Coll::Scatter, all.data(), counts, displs, recvbuf, block, 0);
}

void scatterv_linear_inter(CollContext& c, const void* sendbuf, const Sizes& counts,
                           const Sizes& displs, void* recvbuf, std::size_t recvbytes, int root) {
  if (root != MPI_ROOT) {
    if (recvbytes) c.recv(root, kTagInter, recvbuf, recvbytes);
    return;
  }
  std::vector<Request*> reqs;
  for (std::size_t i = 0; i < counts.size(); ++i)
    if (counts[i])
      reqs.push_back(c.isend(static_cast<int>(i), kTagInter,
                             static_cast<const char*>(sendbuf) + displs[i], counts[i]));
  c.wait_all(reqs);
}

}  // namespace

void inter_scatter(CollContext& c, Coll which, const void* sendbuf, const Sizes& counts,
                   const Sizes& displs, void* recvbuf, std::size_t recvbytes, int root) {
  if (root == MPI_PROC_NULL) return;
  if (which == Coll::Scatterv)
    return scatterv_linear_inter(c, sendbuf, counts, displs, recvbuf, recvbytes, root);
  if (root == MPI_ROOT) return root_sends_all(c, sendbuf, counts, displs);
  group_receives_then_scatters(c, recvbuf, recvbytes, root);
}

}  // namespace simmpi::mpi
