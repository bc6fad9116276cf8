// SPDX-License-Identifier: Apache-2.0
// What every call that makes communicators shares. All members of a new communicator must get
// the same object and handle: the collective that makes it (collective number `seq` on its
// parent, counted by Communicator::check_collective) keys a record on the parent, the first
// member that knows everything builds the communicators and records their handles, and the
// others pick theirs from the record.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "libsimmpi/comm/group.hpp"

namespace simmpi::mpi {

// A new intracommunicator over `members` with `context`, not registered yet.
std::unique_ptr<Communicator> make_intracomm(int context, const Group& members, std::string name);
// A new intercommunicator, not registered yet: the view of group `a` is the anchor and owns the
// view of group `b`; each view receives on its own context and gets a local communicator.
std::unique_ptr<Communicator> make_intercomm(int context_a, const Group& a, int context_b,
                                             const Group& b, const std::string& name);

// The communicator that collective #seq of `parent` created under `key` for the caller. If no
// member has built them yet, `build` does: it registers each one (World::add_comm) and records
// its handle under its key. When nothing is recorded under `key` yet and `build_key` is given,
// the caller builds its own with it (each group of MPI_Comm_create's disjoint groups is built by
// its first member). `takers` members will ask. MPI_COMM_NULL when nothing was made under
// `key`. False when another call than `call` made this collective's communicators (the two
// sides of an intercommunicator disagree on the order of their collectives).
bool take_created(Communicator& parent, std::uint32_t seq, const char* call, int takers, int key,
                  const std::function<void(CreatedComms&)>& build, MPI_Comm* out,
                  const std::function<void(CreatedComms&)>& build_key = {});

// A new communicator starts with the error handler its member had on the parent (MPI-3.1 8.3).
void inherit_errhandler(const Communicator& parent, int world_rank, Communicator& child);

// "MPI_Comm_split of MPI_COMM_WORLD": the diagnostic name of a communicator until named.
std::string derived_name(const char* call, const Communicator& parent);

class ApiCall;
// MPI_Comm_create_group's agreement, collective over the members of `g` only (all members of
// `parent`): a binomial reduce of their context masks to the first member, which registers the
// new communicator under `name`, and a broadcast of its context and handle back, over parent's
// collective channel with `tag`. *newcomm: the new communicator, MPI_COMM_NULL for a caller
// not in `g`. May switch fibers. MPI_SUCCESS, or the error raised on `err_comm`.
int create_among_members(ApiCall& call, MPI_Comm err_comm, Communicator& parent, const Group& g,
                         int tag, const std::string& name, MPI_Comm* newcomm);

}  // namespace simmpi::mpi

namespace simmpi::mpi {

class ApiCall;
// Communicator::check_collective for calls that do not go through CollChecks (those that accept
// intercommunicators); raises the mismatch on `handle`.
int check_collective_call(ApiCall& call, MPI_Comm handle, Communicator& c, const char* name);
// Raised when the members of a new communicator have no context id free in common.
int fail_no_context(ApiCall& call, MPI_Comm handle);
// Raised when the members of one collective disagree on what it creates.
int fail_mismatch(ApiCall& call, MPI_Comm handle, const char* what);

}  // namespace simmpi::mpi
