// SPDX-License-Identifier: Apache-2.0
// Collectives on intercommunicators (MPI-4.1 6.2.2), as MPICH runs them: a collective inside
// each group on its local intracommunicator (Communicator::local_comm, with the selected intra
// algorithm) plus messages between the groups, mostly between their leaders (local rank 0).
// `c` is the caller's view of the intercommunicator: c.rank() and c.size() are those of its own
// group, and its sends and receives name ranks of the other group. The local steps run on
// local_side(c), which shares the view's context: their messages keep the intra algorithms'
// tags while every message between the groups carries kTagInter, so the two never match.
// Rooted collectives take MPI's root argument: MPI_ROOT at the root, MPI_PROC_NULL at the other
// members of its group (they take no part), the root's rank in the other group elsewhere.
// Every step is a real message of the transport: the time of each comes from the network model,
// as for the intra algorithms (algorithms.hpp). All may switch fibers.
#pragma once

#include <vector>

#include "libsimmpi/coll/algorithms.hpp"
#include "libsimmpi/coll/selection.hpp"

namespace simmpi::mpi {

// The caller's group as an intracommunicator, numbering its messages as collective c.seq().
CollContext local_side(CollContext& c);
// The size of the other group.
int remote_size(CollContext& c);
// Which group goes first where both send in turn: the group of the anchor view (the group of
// the lower leader at MPI_Intercomm_create), as MPICH's is_low_group.
bool is_low_group(CollContext& c);
// Blocks counts[i] at displs[i] of `user`, copied to or from `packed`, where they lie one after
// the other in order.
void pack_blocks(const char* user, const Sizes& counts, const Sizes& displs, char* packed);
void unpack_blocks(const char* packed, const Sizes& counts, const Sizes& displs, char* user);

// MPIR_Barrier_inter_bcast: a barrier in each group, then a one-byte broadcast from the low
// group to the high one and one back.
void inter_barrier(CollContext& c);
// MPIR_Bcast_inter_remote_send_local_bcast: the root sends to the other group's leader, which
// broadcasts in its group.
void inter_bcast(CollContext& c, void* buf, int count, std::size_t elem_bytes, int root);
// MPI_Gather (MPIR_Gather_inter_local_gather_remote_send): the other group gathers to its
// leader, which sends the whole to the root. MPI_Gatherv (MPIR_Gatherv_allcomm_linear): each
// member sends its block to the root. `counts`/`displs`: the root's blocks, one per member of
// the other group.
void inter_gather(CollContext& c, Coll which, const void* sendbuf, std::size_t sendbytes,
                  void* recvbuf, const Sizes& counts, const Sizes& displs, int root);
// MPI_Scatter (MPIR_Scatter_inter_remote_send_local_scatter): the root sends everything to the
// other group's leader, which scatters it. MPI_Scatterv (MPIR_Scatterv_allcomm_linear): the root
// sends each member its block.
void inter_scatter(CollContext& c, Coll which, const void* sendbuf, const Sizes& counts,
                   const Sizes& displs, void* recvbuf, std::size_t recvbytes, int root);
// MPIR_Reduce_inter_local_reduce_remote_send: the other group reduces to its leader, which
// sends the result to the root.
void inter_reduce(CollContext& c, const void* sendbuf, void* recvbuf, int count,
                  const Reduction& red, int root);
// MPIR_Allreduce_inter_reduce_exchange_bcast: each group reduces to its leader, the leaders
// swap their results, each broadcasts the other group's in its group. `buf`: this member's
// contribution on entry, the reduction of the other group's on return.
void inter_allreduce(CollContext& c, void* buf, int count, const Reduction& red);
// MPI_Allgather (MPIR_Allgather_inter_local_gather_remote_bcast): each group gathers to its
// leader, then the low group broadcasts its blocks to the high one and the high one back.
// MPI_Allgatherv (MPIR_Allgatherv_inter_remote_gather_local_bcast): the low group's leader
// gathers the high group's blocks, then the high group's leader the low group's, then each
// leader broadcasts what it got in its group. recvbuf gets block i (counts[i] bytes at
// displs[i]) from member i of the other group.
void inter_allgatherv(CollContext& c, Coll which, const void* sendbuf, std::size_t sendbytes,
                      void* recvbuf, const Sizes& counts, const Sizes& displs);
// MPIR_Alltoall(v,w)_inter_pairwise_exchange: max(local, remote size) steps; at step i a member
// sends to (rank + i) and receives from (rank - i), modulo that maximum, skipping ranks the
// other group does not have. Block j of each side belongs to member j of the other group.
void inter_alltoallv(CollContext& c, const void* sendbuf, const Sizes& scounts,
                     const Sizes& sdispls, void* recvbuf, const Sizes& rcounts,
                     const Sizes& rdispls);
// MPIR_Reduce_scatter(_block)_inter_remote_reduce_local_scatter: the other group's inputs are
// reduced to this group's leader (the low group receives first), which scatters the blocks of
// `counts` (this group's) in its group. `input`: sum(counts) elements.
void inter_reduce_scatter(CollContext& c, Coll which, const void* input, void* recvbuf,
                          const std::vector<int>& counts, const Reduction& red);

}  // namespace simmpi::mpi
