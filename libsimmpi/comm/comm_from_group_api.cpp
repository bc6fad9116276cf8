// SPDX-License-Identifier: Apache-2.0
// Communicators from groups, with no parent communicator (MPI-4.1 11.3.3 and 11.3.4):
// MPI_Comm_create_from_group and MPI_Intercomm_create_from_groups, the sessions model's way to
// make communicators. The members agree as in MPI_Comm_create_group (create_among_members),
// over the job's MPI_COMM_WORLD, which every process set's members belong to whether or not the
// program called MPI_Init, with a hash of the string tag as the messages' tag: members of
// different calls with different tags do not mix, and what the call costs is what
// MPI_Comm_create_group over MPI_COMM_WORLD costs.
#include <cstring>
#include <string>
#include <vector>

#include "libsimmpi/comm/comm_create.hpp"
#include "libsimmpi/comm/comm_objects.hpp"
#include "libsimmpi/comm/comm_tags.hpp"
#include "libsimmpi/comm/group_api.hpp"
#include "libsimmpi/core/call_record.hpp"
#include "runtime/core/error.hpp"

using namespace simmpi::mpi;
using simmpi::strprintf;

namespace {

// FNV-1a of the string tag, in the tag bits the agreement's messages carry.
int stringtag_hash(const char* tag) {
  std::uint32_t h = 2166136261u;
  for (const char* p = tag; *p; ++p) h = (h ^ static_cast<unsigned char>(*p)) * 16777619u;
  return static_cast<int>(h & kUserTagMask);
}

// The handler given to the call: it also receives the call's own errors (MPI-4.1 11.3.3).
struct GivenHandler {
  MPI_Errhandler handle = MPI_ERRORS_ARE_FATAL;
  MPI_Comm_errhandler_function* fn = nullptr;
  int raise(ApiCall& call, int cls, const std::string& what) const {
    return call.raise(handle, fn, MPI_COMM_NULL, cls, what.c_str());
  }
};

// Resolves the handler (an invalid one raises MPI_ERR_ERRHANDLER on MPI_COMM_SELF), then checks
// the arguments both calls have, raising through it; MPI_SUCCESS or the error.
int check_common(ApiCall& call, const char* stringtag, MPI_Errhandler errhandler, GivenHandler* h,
                 MPI_Comm* out) {
  h->handle = errhandler;
  if (errhandler != MPI_ERRORS_ARE_FATAL && errhandler != MPI_ERRORS_RETURN &&
      errhandler != MPI_ERRORS_ABORT) {
    UserErrhandler* u = CommObjects::get().rank(call.rank).errhandlers.find(errhandler);
    if (!u)
      return call.fail(MPI_COMM_SELF, MPI_ERR_ERRHANDLER,
                       "errhandler=0x%08x is not an error handler of this rank",
                       static_cast<unsigned>(errhandler));
    h->fn = u->fn;
  }
  if (!out) return h->raise(call, MPI_ERR_ARG, "the new communicator pointer is NULL");
  if (!stringtag) return h->raise(call, MPI_ERR_ARG, "stringtag is NULL");
  if (std::strlen(stringtag) >= MPI_MAX_STRINGTAG_LEN)
    return h->raise(call, MPI_ERR_ARG,
                    strprintf("stringtag \"%.32s...\" is %zu characters; at most %d", stringtag,
                              std::strlen(stringtag), MPI_MAX_STRINGTAG_LEN - 1));
  return MPI_SUCCESS;
}

// The caller's group `g` with the caller in it; nullptr after raising the error.
const Group* member_group(ApiCall& call, const GivenHandler& h, MPI_Group g, const char* what,
                          int* err) {
  const Group* found = find_group(call, g, MPI_COMM_SELF, err);
  if (found && found->rank_of(call.rank) == MPI_UNDEFINED) {
    *err = h.raise(call, MPI_ERR_GROUP,
                   strprintf("this rank is not in %s: only its members call this (MPI-4.1 "
                             "11.3.3)",
                             what));
    return nullptr;
  }
  return found;
}

// The new communicator of the caller, made over MPI_COMM_WORLD among the members of `g`.
int create_from(ApiCall& call, const Group& g, int tag, const std::string& name,
                const GivenHandler& h, MPI_Comm* out) {
  int err = create_among_members(call, MPI_COMM_SELF, call.world.world_comm(), g, tag, name, out);
  if (err != MPI_SUCCESS) return err;
  Communicator* c = call.world.find_comm(*out, call.rank);
  c->set_errhandler(c->comm_rank(call.rank), h.handle, h.fn);
  if (g.session != MPI_SESSION_NULL) call.world.rank(call.rank).session_of_comm[*out] = g.session;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Comm_create_from_group(MPI_Group group, const char* stringtag, MPI_Info,
                               MPI_Errhandler errhandler, MPI_Comm* newcomm) {
  ApiCall call("MPI_Comm_create_from_group");
  GivenHandler h;
  int err = check_common(call, stringtag, errhandler, &h, newcomm);
  if (err != MPI_SUCCESS) return err;
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::CommCreateFromGroup);
  if (group == MPI_GROUP_EMPTY) {  // a process left out of every group gets nothing (as MPICH)
    rec.array(nullptr, 0).text(stringtag).out(newcomm);
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  const Group* found = member_group(call, h, group, "group", &err);
  if (!found) {
    rec.cancel();
    return err;
  }
  Group g = *found;
  if (rec.active()) {
    const std::vector<int> members = g.to_vector();  // world ranks
    rec.array(members.data(), g.size).text(stringtag).out(newcomm);
  }
  err = create_from(call, g, kTagCreateFromGroup | stringtag_hash(stringtag),
                    strprintf("MPI_Comm_create_from_group(\"%s\")", stringtag), h, newcomm);
  if (err != MPI_SUCCESS) rec.cancel();
  return err;
}

// Each group first makes its own intracommunicator, as MPI_Comm_create_from_group does, and the
// two are then joined as MPI_Intercomm_create joins them with MPI_COMM_WORLD as the peer
// communicator (the leaders exchange the groups), so the cost is those two calls'.
int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader,
                                     MPI_Group remote_group, int remote_leader,
                                     const char* stringtag, MPI_Info, MPI_Errhandler errhandler,
                                     MPI_Comm* newintercomm) {
  ApiCall call("MPI_Intercomm_create_from_groups");
  GivenHandler h;
  int err = check_common(call, stringtag, errhandler, &h, newintercomm);
  if (err != MPI_SUCCESS) return err;
  const Group* local = member_group(call, h, local_group, "local_group", &err);
  if (!local) return err;
  const Group* remote = find_group(call, remote_group, MPI_COMM_SELF, &err);
  if (!remote) return err;
  if (local_leader < 0 || local_leader >= local->size)
    return h.raise(
        call, MPI_ERR_RANK,
        strprintf("local_leader=%d not in [0,%d) of local_group", local_leader, local->size));
  if (remote_leader < 0 || remote_leader >= remote->size)
    return h.raise(
        call, MPI_ERR_RANK,
        strprintf("remote_leader=%d not in [0,%d) of remote_group", remote_leader, remote->size));
  for (int i = 0; i < remote->size; ++i)
    if (local->rank_of(remote->world_rank(i)) != MPI_UNDEFINED)
      return h.raise(call, MPI_ERR_GROUP,
                     strprintf("world rank %d is in both local_group and remote_group; they "
                               "must be disjoint",
                               remote->world_rank(i)));
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::IntercommCreateFromGroups);
  if (rec.active()) {
    const std::vector<int> mine = local->to_vector(), theirs = remote->to_vector();
    rec.array(mine.data(), local->size).value(local_leader);
    rec.array(theirs.data(), remote->size).value(remote_leader).text(stringtag).out(newintercomm);
  }
  Group g = *local;
  const int remote_leader_world = remote->world_rank(remote_leader);
  const int hash = stringtag_hash(stringtag);
  MPI_Comm local_comm = MPI_COMM_NULL;
  err = create_from(call, g, kTagCreateFromGroup | hash,
                    strprintf("local group of MPI_Intercomm_create_from_groups(\"%s\")", stringtag),
                    GivenHandler{MPI_ERRORS_RETURN, nullptr}, &local_comm);
  if (err != MPI_SUCCESS) {
    rec.cancel();
    return err;
  }
  err = MPI_Intercomm_create(local_comm, local_leader, MPI_COMM_WORLD, remote_leader_world, hash,
                             newintercomm);
  MPI_Comm_free(&local_comm);
  if (err != MPI_SUCCESS) {
    rec.cancel();
    return h.raise(call, err, strprintf("joining the groups failed (tag \"%s\")", stringtag));
  }
  Communicator* c = call.world.find_comm(*newintercomm, call.rank);
  c->set_errhandler(c->comm_rank(call.rank), h.handle, h.fn);
  return MPI_SUCCESS;
}

}  // extern "C"
