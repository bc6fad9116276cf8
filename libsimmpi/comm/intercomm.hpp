// SPDX-License-Identifier: Apache-2.0
// Intercommunicator algorithms shared with the communicator calls.
#pragma once

#include <cstdint>
#include <vector>

#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {

class CollContext;

// MPI_Comm_dup of an intercommunicator view (the caller entered the collective): each group
// agrees on a context id over its local communicator, the leaders swap them, each leader
// broadcasts the other group's id to its group (MPICH's MPIR_Get_intercomm_contextid). May
// yield.
int dup_intercomm(ApiCall& call, Communicator& view, MPI_Comm* out);
// The same for collective #seq of `view`; `overlapping` for MPI_Comm_idup (run on an auxiliary
// process: its messages carry `seq` and the context agreement may overlap others of the rank).
int dup_intercomm(ApiCall& call, Communicator& view, std::uint32_t seq, bool overlapping,
                  MPI_Comm* out);

// The leaders of the two groups swap `mine` for `theirs` (sized for what the other group sends)
// over the intercommunicator `view`; then each leader broadcasts `theirs` over `local` (the
// caller's group), so that every member has it. May yield.
void leaders_swap(ApiCall& call, Communicator& view, CollContext& local, std::vector<int>& mine,
                  std::vector<int>& theirs);

// MPI_Intercomm_create's agreement, collective over `local` (an intracommunicator): its members
// agree on the context they will receive on; the leader (rank `local_leader` of `local`) swaps
// it and the group with the other group's leader, rank `remote_leader` of `peer` (a
// communicator holding both leaders; only the leader's `peer` is used), on `tag` of peer's
// collective channel; the leader with the lower world rank builds the intercommunicator and
// its answer carries the handle; each leader broadcasts what it learnt to its group. Also
// MPI_Comm_spawn's and MPI_Comm_accept/connect's, whose leaders talk over a bridge of their
// own. *out: the new intercommunicator. MPI_ERR_INTERN when the group has no context id free
// in common (the caller raises it). May yield.
int join_groups(ApiCall& call, Communicator& local, int local_leader, Communicator* peer,
                int remote_leader, int tag, MPI_Comm* out);

// MPI_Comm_split of an intercommunicator view (the caller entered the collective), as MPICH's
// MPIR_Comm_split_inter: for each color, the members of both groups with it form an
// intercommunicator (each group ordered by key, then rank); a color that one group lacks, and
// MPI_UNDEFINED, give MPI_COMM_NULL. May yield.
int split_intercomm(ApiCall& call, Communicator& view, int color, int key, MPI_Comm* out);

}  // namespace simmpi::mpi
