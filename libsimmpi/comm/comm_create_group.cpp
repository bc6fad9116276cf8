// SPDX-License-Identifier: Apache-2.0
// MPI_Comm_create_group: collective over the group's members only, so no collective of the
// parent can hand out the new communicator. MPICH agrees on the context id with an allreduce
// among the members over the parent; here it is a binomial reduce of the context masks to the
// group's first member, which builds the communicator, and a binomial broadcast of its context
// and handle back (2 log2 g rounds, where a recursive-doubling allreduce takes log2 g).
// Messages go over the parent's collective channel between parent ranks with the program's
// tag, so successive calls with other groups cannot mix up.
#include <vector>

#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/comm/comm_create.hpp"
#include "libsimmpi/comm/comm_tags.hpp"
#include "libsimmpi/comm/context_id.hpp"
#include "libsimmpi/comm/group_api.hpp"
#include "libsimmpi/core/call_record.hpp"

using namespace simmpi::mpi;

namespace {

// The members as parent ranks, and the caller's position among them.
struct GroupTree {
  std::vector<int> parent_rank;
  int me = MPI_UNDEFINED;
  int tag = 0;
  int size() const { return static_cast<int>(parent_rank.size()); }
  int peer(int position) const { return parent_rank[static_cast<std::size_t>(position)]; }
};

void reduce_masks(CollContext& c, const GroupTree& t, ContextMask& mask) {
  ContextMask in(kContextMaskWords);
  std::size_t bytes = kContextMaskWords * sizeof(std::uint32_t);
  for (int bit = 1; bit < t.size(); bit <<= 1) {
    if (t.me & bit) {
      c.send(t.peer(t.me - bit), t.tag, mask.data(), bytes);
      return;
    }
    if (t.me + bit < t.size()) {
      c.recv(t.peer(t.me + bit), t.tag, in.data(), bytes);
      for (int w = 0; w < kContextMaskWords; ++w)
        mask[static_cast<std::size_t>(w)] &= in[static_cast<std::size_t>(w)];
    }
  }
}

void bcast_result(CollContext& c, const GroupTree& t, int* result) {
  int bit = 1;
  while (bit < t.size() && !(t.me & bit)) bit <<= 1;
  if (t.me != 0) c.recv(t.peer(t.me - bit), t.tag, result, 2 * sizeof(int));
  std::vector<Request*> sends;
  for (bit >>= 1; bit > 0; bit >>= 1)
    if (t.me + bit < t.size())
      sends.push_back(c.isend(t.peer(t.me + bit), t.tag, result, 2 * sizeof(int)));
  c.wait_all(sends);
}

// Checks the arguments; fills the tree (me = MPI_UNDEFINED when the caller is not a member).
int check(ApiCall& call, MPI_Comm comm, const Group& g, int tag, MPI_Comm* newcomm,
          Communicator& parent) {
  if (parent.is_inter())
    return call.fail(comm, MPI_ERR_COMM,
                     "%s is an intercommunicator; MPI_Comm_create_group "
                     "is implemented for intracommunicators only",
                     parent.name().c_str());
  if (tag < 0) return call.fail(comm, MPI_ERR_TAG, "tag=%d is negative", tag);
  if (!newcomm) return call.fail(comm, MPI_ERR_ARG, "newcomm is NULL");
  for (int i = 0; i < g.size; ++i)
    if (parent.comm_rank(g.world_rank(i)) < 0)
      return call.fail(comm, MPI_ERR_GROUP, "rank %d of group (world rank %d) is not in %s", i,
                       g.world_rank(i), parent.name().c_str());
  return MPI_SUCCESS;
}

}  // namespace

namespace simmpi::mpi {

int create_among_members(ApiCall& call, MPI_Comm err_comm, Communicator& parent, const Group& g,
                         int tag, const std::string& name, MPI_Comm* newcomm) {
  GroupTree t;
  for (int i = 0; i < g.size; ++i) t.parent_rank.push_back(parent.comm_rank(g.world_rank(i)));
  t.me = g.rank_of(call.rank);
  t.tag = tag;
  *newcomm = MPI_COMM_NULL;
  if (t.me == MPI_UNDEFINED) return MPI_SUCCESS;  // not a member: nothing to do
  CollContext c(call.world, parent);
  ContextMask mask = own_context_mask(call.rank, true);
  reduce_masks(c, t, mask);
  int result[2] = {lowest_context(mask), MPI_COMM_NULL};  // context, handle
  if (t.me == 0 && result[0] >= 0)
    result[1] = call.world.add_comm(make_intracomm(result[0], g, name));
  bcast_result(c, t, result);
  if (result[0] < 0) return fail_no_context(call, err_comm);
  take_context(call.rank, result[0]);
  *newcomm = result[1];
  return MPI_SUCCESS;
}

}  // namespace simmpi::mpi

extern "C" {

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
  ApiCall call("MPI_Comm_create_group");
  Communicator* parent = call.comm(comm);
  if (!parent) return MPI_ERR_COMM;
  int err = MPI_SUCCESS;
  const Group* found = find_group(call, group, comm, &err);
  if (!found) return err;
  Group g = *found;
  err = check(call, comm, g, tag, newcomm, *parent);
  if (err != MPI_SUCCESS) return err;
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::CommCreateGroup);
  if (rec.active()) {
    std::vector<int> members;  // as ranks of comm
    for (int i = 0; i < g.size; ++i) members.push_back(parent->comm_rank(g.world_rank(i)));
    rec.value(comm).array(members.data(), g.size).value(tag).out(newcomm);
  }
  err = create_among_members(call, comm, *parent, g, kTagCreateGroup | (tag & kUserTagMask),
                             derived_name(call.name, *parent), newcomm);
  if (err != MPI_SUCCESS) rec.cancel();
  if (err != MPI_SUCCESS || *newcomm == MPI_COMM_NULL) return err;
  inherit_errhandler(*parent, call.rank, *call.world.find_comm(*newcomm, call.rank));
  return MPI_SUCCESS;
}

}  // extern "C"
