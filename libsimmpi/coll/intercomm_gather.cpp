// SPDX-License-Identifier: Apache-2.0
// MPI_Gather and MPI_Gatherv on an intercommunicator, as MPICH runs them.
// Gather (MPIR_Gather_inter_local_gather_remote_send): the other group gathers its blocks to its
// leader with the selected intra gather, and the leader sends all of them to the root in one
// message. Cost: T_gather(b) over that group + h(n b).
// Gatherv (MPIR_Gatherv_allcomm_linear): the root posts a receive from every member of the other
// group with a block, and each sends its block straight to it. Cost as gatherv_linear's with
// the other group's n members as senders: h(b) + (n - 1) g(b) for equal blocks.
#include <vector>

#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/intercomm_algorithms.hpp"

namespace simmpi::mpi {
namespace {

void root_receives_all(CollContext& c, void* recvbuf, const Sizes& counts, const Sizes& displs) {
  std::size_t total = 0;
  bool packed = true;
  for (std::size_t i = 0; i < counts.size(); total += counts[i], ++i) packed &= displs[i] == total;
  if (total == 0) return;
  if (packed) {
    c.recv(0, kTagInter, recvbuf, total);
    return;
  }
  std::vector<char> tmp(total);
  c.recv(0, kTagInter, tmp.data(), total);
  unpack_blocks(tmp.data(), counts, displs, static_cast<char*>(recvbuf));
}

void group_gathers_then_sends(CollContext& c, const void* sendbuf, std::size_t block, int root) {
  const auto n = static_cast<std::size_t>(c.size());
  if (block == 0) return;
  std::vector<char> all(c.rank() == 0 ? n * block : 0);
  Sizes counts(n, block), displs(n);
  for (std::size_t i = 0; i < n; ++i) displs[i] = i * block;
  CollContext local = local_side(c);
  run_gather(local, Coll::Gather, sendbuf, block, all.data(), counts, displs, 0);
  if (c.rank() == 0) c.send(root, kTagInter, all.data(), all.size());
}

void gatherv_linear_inter(CollContext& c, const void* sendbuf, std::size_t sendbytes, void* recvbuf,
                          const Sizes& counts, const Sizes& displs, int root) {
  if (root != MPI_ROOT) {
    if (sendbytes) c.send(root, kTagInter, sendbuf, sendbytes);
    return;
  }
  std::vector<Request*> reqs;
  for (std::size_t i = 0; i < counts.size(); ++i)
    if (counts[i])
      reqs.push_back(c.irecv(static_cast<int>(i), kTagInter,
                             static_cast<char*>(recvbuf) + displs[i], counts[i]));
  c.wait_all(reqs);
}

}  // namespace

void inter_gather(CollContext& c, Coll which, const void* sendbuf, std::size_t sendbytes,
                  void* recvbuf, const Sizes& counts, const Sizes& displs, int root) {
  if (root == MPI_PROC_NULL) return;
  if (which == Coll::Gatherv)
    return gatherv_linear_inter(c, sendbuf, sendbytes, recvbuf, counts, displs, root);
  if (root == MPI_ROOT) return root_receives_all(c, recvbuf, counts, displs);
  group_gathers_then_sends(c, sendbuf, sendbytes, root);
}

}  // namespace simmpi::mpi
