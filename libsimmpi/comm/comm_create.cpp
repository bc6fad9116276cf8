// SPDX-License-Identifier: Apache-2.0
// Construction of new communicators and the hand-out of the shared objects to their members.
#include "libsimmpi/comm/comm_create.hpp"

#include <cstring>

#include "libsimmpi/core/api_call.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

bool is_identity(const Group& g) {
  if (!g.ranks) return true;
  for (int i = 0; i < g.size; ++i)
    if ((*g.ranks)[static_cast<std::size_t>(i)] != i) return false;
  return true;
}

}  // namespace

std::unique_ptr<Communicator> make_intracomm(int context, const Group& members, std::string name) {
  // The identity needs no rank table: splits and dups of MPI_COMM_WORLD stay cheap at scale.
  if (is_identity(members))
    return std::make_unique<Communicator>(MPI_COMM_NULL, context, members.size, std::move(name));
  return std::make_unique<Communicator>(MPI_COMM_NULL, context, members.ranks, std::move(name));
}

std::unique_ptr<Communicator> make_intercomm(int context_a, const Group& a, int context_b,
                                             const Group& b, const std::string& name) {
  auto view_a = make_intracomm(context_a, a, name);
  auto view_b = make_intracomm(context_b, b, name);
  view_a->set_local_comm(make_intracomm(context_a, a, name + " (local group)"));
  view_b->set_local_comm(make_intracomm(context_b, b, name + " (local group)"));
  view_a->pair_with(std::move(view_b));
  return view_a;
}

bool take_created(Communicator& parent, std::uint32_t seq, const char* call, int takers, int key,
                  const std::function<void(CreatedComms&)>& build, MPI_Comm* out,
                  const std::function<void(CreatedComms&)>& build_key) {
  CreatedComms* made = parent.created(seq);
  if (!made) {
    made = &parent.add_created(seq, call, takers);
    build(*made);
  }
  if (std::strcmp(made->call, call) != 0) return false;
  auto it = made->comms.find(key);
  if (it == made->comms.end() && build_key) {
    build_key(*made);
    it = made->comms.find(key);
  }
  *out = it == made->comms.end() ? MPI_COMM_NULL : it->second;
  parent.take_created(seq);
  return true;
}

void inherit_errhandler(const Communicator& parent, int world_rank, Communicator& child) {
  int from = parent.comm_rank(world_rank);
  MPI_Errhandler h = parent.errhandler(from);
  if (h != MPI_ERRORS_ARE_FATAL)
    child.set_errhandler(child.comm_rank(world_rank), h, parent.errhandler_function(from));
}

std::string derived_name(const char* call, const Communicator& parent) {
  return strprintf("%s of %s", call, parent.name().c_str());
}

int check_collective_call(ApiCall& call, MPI_Comm handle, Communicator& c, const char* name) {
  std::string why;
  int cls = c.check_collective(c.comm_rank(call.rank),
                               CollectiveSignature{name, -1, MPI_OP_NULL, -1}, &why);
  return cls == MPI_SUCCESS ? cls : call.fail(handle, cls, "%s", why.c_str());
}

int fail_no_context(ApiCall& call, MPI_Comm handle) {
  return call.fail(handle, MPI_ERR_OTHER,
                   "no context id is free on every member of the new "
                   "communicator (a rank can be in at most 2046 communicators besides "
                   "MPI_COMM_WORLD and MPI_COMM_SELF; free unused ones)");
}

int fail_mismatch(ApiCall& call, MPI_Comm handle, const char* what) {
  return call.fail(handle, MPI_ERR_ARG, "the members disagree: %s", what);
}

}  // namespace simmpi::mpi
