// SPDX-License-Identifier: Apache-2.0
// Communicator constructors and destructor, comparison, names and info (MPI-3.1 section 6.4):
// MPI_Comm_dup(_with_info), MPI_Comm_split(_type), MPI_Comm_create, MPI_Comm_free,
// MPI_Comm_compare, MPI_Comm_test_inter, MPI_Comm_remote_size, MPI_Comm_set/get_name,
// MPI_Comm_set/get_info, and MPI_Comm_idup(_with_info).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/nonblocking.hpp"
#include "libsimmpi/comm/attributes.hpp"
#include "libsimmpi/comm/comm_create.hpp"
#include "libsimmpi/comm/group_api.hpp"
#include "libsimmpi/comm/intercomm.hpp"
#include "libsimmpi/comm/intracomm_create.hpp"
#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/info/info_objects.hpp"

using namespace simmpi::mpi;

namespace {

// The new communicator's attributes: copied as MPI_Comm_dup copies them, or the error raised.
int copy_or_undo(ApiCall& call, MPI_Comm comm, Communicator& c, MPI_Comm* newcomm) {
  Communicator* made = call.world.find_comm(*newcomm, call.rank);
  int err = copy_attributes(call, comm, &c, made);
  if (err == MPI_SUCCESS) return MPI_SUCCESS;
  delete_attributes(call, *newcomm, made);
  leave_comm(call, *made);
  *newcomm = MPI_COMM_NULL;
  return call.fail(comm, err, "an attribute copy callback returned %d", err);
}

int dup(const char* name, MPI_Comm comm, MPI_Comm* newcomm) {
  ApiCall call(name);
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  if (!newcomm) return call.fail(comm, MPI_ERR_ARG, "newcomm is NULL");
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::CommDup);
  rec.value(comm).out(newcomm);
  int err = check_collective_call(call, comm, *c, name);
  if (err == MPI_SUCCESS)
    err = c->is_inter() ? dup_intercomm(call, *c, newcomm) : dup_comm(call, *c, newcomm);
  if (err != MPI_SUCCESS) return err;
  return copy_or_undo(call, comm, *c, newcomm);
}

// MPI-3.1 6.4.2: the dup's collective is entered at the call (so it is ordered with the rank's
// other collectives on `comm`) and run on an auxiliary process; *newcomm is written when the
// request completes. The info hints are ignored, as by MPI_Comm_dup_with_info.
int idup(const char* name, MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  ApiCall call(name);
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  if (!newcomm) return call.fail(comm, MPI_ERR_ARG, "newcomm is NULL");
  if (!request) return call.fail(comm, MPI_ERR_REQUEST, "request is NULL");
  int err = check_collective_call(call, comm, *c, name);
  if (err != MPI_SUCCESS) return err;
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::CommIdup);
  rec.value(comm).request(request);
  const bool recorded = rec.active();  // then the completion notes the communicator made
  const std::uint32_t seq = c->last_collective(c->comm_rank(call.rank));
  const int rank = call.rank;
  launch_nonblocking(call, *c, request, [name, comm, c, seq, newcomm, recorded, rank](Request& r) {
    ApiCall inner(name);  // on the auxiliary process
    MPI_Comm made = MPI_COMM_NULL;
    const int dup_err = c->is_inter() ? dup_intercomm(inner, *c, seq, true, &made)
                                      : idup_comm(inner, *c, seq, &made);
    if (dup_err == MPI_SUCCESS && copy_or_undo(inner, comm, *c, &made) != MPI_SUCCESS)
      made = MPI_COMM_NULL;
    *newcomm = made;
    if (recorded) {
      std::vector<std::int64_t>& noted = inner.world.rank(rank).idups_made;
      noted.insert(noted.end(), {std::int64_t{r.handle}, std::int64_t{made}});
    }
  });
  return MPI_SUCCESS;
}

int split(const char* name, MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  ApiCall call(name);
  const bool by_type = std::strcmp(name, "MPI_Comm_split_type") == 0;  // intracommunicators only
  CollChecks k(call, comm,
               by_type ? CollChecks::Intercomms::Refused : CollChecks::Intercomms::Accepted);
  if (k.ok() && color < 0 && color != MPI_UNDEFINED)
    return call.fail(comm, MPI_ERR_ARG, "color=%d is negative and not MPI_UNDEFINED", color);
  if (k.ok() && !newcomm) return call.fail(comm, MPI_ERR_ARG, "newcomm is NULL");
  k.agree(name, -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::CommSplit);
  rec.value(comm).value(color).value(key).out(newcomm);
  if (k.is_inter()) return split_intercomm(call, k.comm(), color, key, newcomm);
  return split_comm(call, k.comm(), color, key, nullptr, newcomm);
}

void copy_name(const std::string& name, char* out, int* len) {
  std::snprintf(out, MPI_MAX_OBJECT_NAME, "%s", name.c_str());
  *len = static_cast<int>(std::strlen(out));
}

// The value of `key` in the caller's info `info`, or "" (no such key, or MPI_INFO_NULL).
std::string info_value(int world_rank, MPI_Info info, const char* key) {
  if (info == MPI_INFO_NULL) return "";
  const Info* i = InfoObjects::get().find(world_rank, info);
  const auto* entry = i ? i->find(key) : nullptr;
  return entry ? entry->second : "";
}

// Whether the members of `c` are on more than one simulated node.
bool spans_nodes(World& w, const Communicator& c) {
  for (int i = 1; i < c.size(); ++i)
    if (w.platform().node_of(c.world_rank(i)) != w.platform().node_of(c.world_rank(0))) return true;
  return false;
}

}  // namespace

extern "C" {

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
  return dup("MPI_Comm_dup", comm, newcomm);
}

// The info hints are ignored (MPI allows it), so this is MPI_Comm_dup.
int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info, MPI_Comm* newcomm) {
  return dup("MPI_Comm_dup_with_info", comm, newcomm);
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  return idup("MPI_Comm_idup", comm, newcomm, request);
}

int MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info, MPI_Comm* newcomm, MPI_Request* request) {
  return idup("MPI_Comm_idup_with_info", comm, newcomm, request);
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
  return split("MPI_Comm_split", comm, color, key, newcomm);
}

// The split types (MPI-4.1 7.4.2). simmpi's one hardware level is the simulated node
// (node.ranks_per_node): MPI_COMM_TYPE_SHARED, and MPI_COMM_TYPE_HW_GUIDED with
// mpi_hw_resource_type "mpi_shared_memory", group the ranks of one node;
// MPI_COMM_TYPE_HW_UNGUIDED does too when that is a strict subset of `comm` (else no smaller
// level exists: MPI_COMM_NULL); MPI_COMM_TYPE_RESOURCE_GUIDED with mpi_pset_name "mpi://WORLD"
// or "mpi://SELF" (the process sets of sessions) keeps all of `comm` or each rank alone. A
// level or process set simmpi does not know gives MPI_COMM_NULL, as the standard asks. After an
// MPI_COMM_TYPE_HW_UNGUIDED split that made a communicator, the caller's info (when not
// MPI_INFO_NULL) names the level it split at: mpi_hw_resource_type = mpi_shared_memory (MPI-4.1
// 7.4.2; MPICH's comm/cmsplit_type checks it). The new communicator's own info does not
// (communicators keep no info in simmpi).
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm) {
  World& w = World::get();
  const int rank = w.current_rank();
  const int node = w.platform().node_of(rank);
  int color = MPI_UNDEFINED;
  switch (split_type) {
    case MPI_UNDEFINED:
      break;
    case MPI_COMM_TYPE_SHARED:
      color = node;
      break;
    case MPI_COMM_TYPE_HW_GUIDED:
      if (info_value(rank, info, "mpi_hw_resource_type") == "mpi_shared_memory") color = node;
      break;
    case MPI_COMM_TYPE_HW_UNGUIDED: {
      const Communicator* c = w.find_comm(comm, rank);  // none: split raises MPI_ERR_COMM
      if (c && !c->is_inter() && spans_nodes(w, *c)) color = node;
      break;
    }
    case MPI_COMM_TYPE_RESOURCE_GUIDED: {
      const std::string pset = info_value(rank, info, "mpi_pset_name");
      if (pset == "mpi://WORLD") color = 0;
      if (pset == "mpi://SELF") color = rank;
      break;
    }
    default: {
      ApiCall call("MPI_Comm_split_type");
      return call.fail(comm, MPI_ERR_ARG,
                       "split_type=%d is not MPI_COMM_TYPE_SHARED, _HW_GUIDED, _HW_UNGUIDED, "
                       "_RESOURCE_GUIDED or MPI_UNDEFINED",
                       split_type);
    }
  }
  const int err = split("MPI_Comm_split_type", comm, color, key, newcomm);
  if (err == MPI_SUCCESS && split_type == MPI_COMM_TYPE_HW_UNGUIDED && info != MPI_INFO_NULL &&
      *newcomm != MPI_COMM_NULL)
    return MPI_Info_set(info, "mpi_hw_resource_type", "mpi_shared_memory");
  return err;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
  ApiCall call("MPI_Comm_create");
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  int err = MPI_SUCCESS;
  const Group* g = k.ok() ? find_group(call, group, comm, &err) : nullptr;
  if (!k.ok()) return k.error();
  if (!g) return err;
  for (int i = 0; i < g->size; ++i)
    if (k.comm().comm_rank(g->world_rank(i)) < 0)
      return call.fail(comm, MPI_ERR_GROUP, "rank %d of group (world rank %d) is not in %s", i,
                       g->world_rank(i), k.comm().name().c_str());
  if (!newcomm) return call.fail(comm, MPI_ERR_ARG, "newcomm is NULL");
  k.agree("MPI_Comm_create", -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  Group copy = *g;  // the handle may be freed by a callback while we wait
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::CommCreate);
  if (rec.active()) {
    std::vector<int> members;  // as ranks of comm
    for (int i = 0; i < g->size; ++i) members.push_back(k.comm().comm_rank(g->world_rank(i)));
    rec.value(comm).array(members.data(), g->size).out(newcomm);
  }
  // On an intercommunicator each group passes a subgroup of its own; the members of the two
  // subgroups form the new one, as a split with one color ordered by the rank in the subgroup
  // (MPICH's MPIR_Comm_create_inter swaps the subgroups' rank maps instead of the colors).
  if (k.is_inter()) {
    const int at = copy.rank_of(call.rank);
    return split_intercomm(call, k.comm(), at == MPI_UNDEFINED ? MPI_UNDEFINED : 0, at, newcomm);
  }
  return create_comm(call, k.comm(), copy, nullptr, newcomm);
}

int MPI_Comm_free(MPI_Comm* comm) {
  ApiCall call("MPI_Comm_free");
  if (!comm) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "comm is NULL");
  Communicator* c = call.comm(*comm);
  if (!c) return MPI_ERR_COMM;
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
    return call.fail(*comm, MPI_ERR_COMM, "%s cannot be freed", c->name().c_str());
  int err = check_collective_call(call, *comm, *c, "MPI_Comm_free");
  if (err != MPI_SUCCESS) return err;
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::CommFree);
  rec.value(*comm);
  err = delete_attributes(call, *comm, c);
  if (err != MPI_SUCCESS)
    return call.fail(*comm, err, "an attribute delete callback returned %d", err);
  // Its buffered-send buffer goes with it (messages still in it keep it alive), and the handle,
  // which a later communicator may get, belongs to no session.
  RankState& st = call.world.rank(call.rank);
  st.comm_bsend.erase(*comm);
  st.session_of_comm.erase(*comm);
  leave_comm(call, *c);
  // A freed parent is no longer the rank's parent (MPI_Comm_get_parent), even if its handle is
  // reused.
  MPI_Comm& parent = call.world.rank(call.rank).parent;
  if (parent == *comm) parent = MPI_COMM_NULL;
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
  ApiCall call("MPI_Comm_compare");
  Communicator* a = call.comm(comm1);
  Communicator* b = a ? call.comm(comm2) : nullptr;
  if (!b) return MPI_ERR_COMM;
  if (a == b) {
    *result = MPI_IDENT;
  } else if (a->is_inter() != b->is_inter()) {
    *result = MPI_UNEQUAL;
  } else {
    // Groups that match rank for rank make congruent communicators; the worst group decides.
    int local = compare_groups(group_of(*a), group_of(*b));
    int remote =
        a->is_inter() ? compare_groups(group_of(a->remote()), group_of(b->remote())) : MPI_IDENT;
    *result = std::max({local, remote, MPI_CONGRUENT});
  }
  return MPI_SUCCESS;
}

int MPI_Comm_test_inter(MPI_Comm comm, int* flag) {
  ApiCall call("MPI_Comm_test_inter");
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  *flag = c->is_inter();
  return MPI_SUCCESS;
}

int MPI_Comm_remote_size(MPI_Comm comm, int* size) {
  ApiCall call("MPI_Comm_remote_size");
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  if (!c->is_inter())
    return call.fail(comm, MPI_ERR_COMM, "%s is not an intercommunicator", c->name().c_str());
  *size = c->remote().size();
  return MPI_SUCCESS;
}

// Names are local: each rank sees the name it set (MPI-3.1 6.8). Longer names are truncated.
int MPI_Comm_set_name(MPI_Comm comm, const char* comm_name) {
  ApiCall call("MPI_Comm_set_name");
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  if (!comm_name) return call.fail(comm, MPI_ERR_ARG, "comm_name is NULL");
  std::string name(comm_name, strnlen(comm_name, MPI_MAX_OBJECT_NAME - 1));
  c->set_user_name(c->comm_rank(call.rank), std::move(name));
  return MPI_SUCCESS;
}

int MPI_Comm_get_name(MPI_Comm comm, char* comm_name, int* resultlen) {
  ApiCall call("MPI_Comm_get_name");
  if (comm == MPI_COMM_NULL && comm_name && resultlen) {  // a predefined name (MPI-4.1 7.8)
    copy_name("MPI_COMM_NULL", comm_name, resultlen);
    return MPI_SUCCESS;
  }
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  if (!comm_name || !resultlen) return call.fail(comm, MPI_ERR_ARG, "an output is NULL");
  copy_name(c->user_name(c->comm_rank(call.rank)), comm_name, resultlen);
  return MPI_SUCCESS;
}

// Hints may be ignored (MPI-3.1 6.4.4); simmpi uses none.
int MPI_Comm_set_info(MPI_Comm comm, MPI_Info) {
  ApiCall call("MPI_Comm_set_info");
  return call.comm(comm) ? MPI_SUCCESS : MPI_ERR_COMM;
}

// The hints in use: none, so a new empty info the caller frees (MPI-3.1 6.4.4).
int MPI_Comm_get_info(MPI_Comm comm, MPI_Info* info_used) {
  ApiCall call("MPI_Comm_get_info");
  if (!call.comm(comm)) return MPI_ERR_COMM;
  if (!info_used) return call.fail(comm, MPI_ERR_ARG, "info_used is NULL");
  return MPI_Info_create(info_used);
}

}  // extern "C"
