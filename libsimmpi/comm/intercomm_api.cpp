// SPDX-License-Identifier: Apache-2.0
// Intercommunicators: MPI_Intercomm_create, MPI_Intercomm_merge and MPI_Comm_dup of an
// intercommunicator, with the messages MPICH sends for them. Each group agrees on the context
// its members receive on over its local communicator; the two leaders swap what the other
// group needs; each leader broadcasts it to its group. Point-to-point on the result addresses
// the remote group (see libsimmpi/core/communicator.hpp); its collectives are those of
// coll/intercomm_algorithms.hpp.
#include <cstring>
#include <vector>

#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/comm/comm_create.hpp"
#include "libsimmpi/comm/comm_tags.hpp"
#include "libsimmpi/comm/context_id.hpp"
#include "libsimmpi/comm/intercomm.hpp"
#include "libsimmpi/core/call_record.hpp"

namespace simmpi::mpi {
namespace {

// What the leader learns from the other group and broadcasts to its own.
struct Remote {
  int info[3] = {MPI_COMM_NULL, -1, 0};  // the new handle, the other group's context, its size
  std::vector<int> ranks;                // the other group's world ranks
};

// World rank of rank `r` of `peer` as a peer communicator: of its remote group when it is an
// intercommunicator (a send on it goes there).
int peer_world_rank(const Communicator& peer, int r) {
  return peer.is_inter() ? peer.remote().world_rank(r) : peer.world_rank(r);
}

// The local leader's part of MPI_Intercomm_create (MPIR_Intercomm_create_impl): the leaders
// swap (context, size), then their member lists; the one with the lower world rank builds the
// intercommunicator before it answers, and its answer carries the handle.
void swap_with_remote_leader(ApiCall& call, Communicator& local, Communicator& peer,
                             int remote_leader, int tag, int context, Remote* out) {
  CollContext pc(call.world, peer);
  int mine[2] = {context, local.size()}, theirs[2];
  pc.sendrecv(remote_leader, mine, sizeof mine, remote_leader, theirs, sizeof theirs, tag);
  std::vector<int> my_ranks = group_of(local).to_vector();
  std::vector<int> answer(1 + static_cast<std::size_t>(theirs[1]));  // handle, then ranks
  auto bytes = [](const std::vector<int>& v) { return v.size() * sizeof(int); };
  if (call.rank < peer_world_rank(peer, remote_leader)) {
    out->ranks.resize(static_cast<std::size_t>(theirs[1]));
    pc.recv(remote_leader, tag, out->ranks.data(), bytes(out->ranks));
    out->info[0] =
        call.world.add_comm(make_intercomm(context, group_of(local), theirs[0],
                                           make_group(out->ranks), derived_name(call.name, local)));
    my_ranks.insert(my_ranks.begin(), out->info[0]);
    pc.send(remote_leader, tag, my_ranks.data(), bytes(my_ranks));
  } else {
    pc.send(remote_leader, tag, my_ranks.data(), bytes(my_ranks));
    pc.recv(remote_leader, tag, answer.data(), bytes(answer));
    out->info[0] = answer[0];
    out->ranks.assign(answer.begin() + 1, answer.end());
  }
  out->info[1] = theirs[0];
  out->info[2] = theirs[1];
}

// Checks what only the local leader passes; MPI_SUCCESS or the raised error.
int check_leader_args(ApiCall& call, Communicator& local, MPI_Comm peer_comm, int remote_leader,
                      int tag, Communicator** peer) {
  *peer = call.comm(peer_comm);
  if (!*peer) return MPI_ERR_COMM;
  const int peer_size = (*peer)->is_inter() ? (*peer)->remote().size() : (*peer)->size();
  if (remote_leader < 0 || remote_leader >= peer_size)
    return call.fail(peer_comm, MPI_ERR_RANK, "remote_leader=%d not in [0,%d) of %s", remote_leader,
                     peer_size, (*peer)->name().c_str());
  if (tag < 0) return call.fail(peer_comm, MPI_ERR_TAG, "tag=%d is negative", tag);
  if (local.comm_rank(peer_world_rank(**peer, remote_leader)) >= 0)
    return call.fail(peer_comm, MPI_ERR_ARG,
                     "remote_leader=%d (world rank %d) is in the local "
                     "group: the two groups must be disjoint",
                     remote_leader, peer_world_rank(**peer, remote_leader));
  return MPI_SUCCESS;
}

// MPI_Intercomm_merge's context: the masks of both groups are and-ed (the merged communicator's
// id must be free everywhere) while the leaders also swap their `high`. The caller takes the
// returned context (-1: none free).
int merged_context(ApiCall& call, Communicator& view, int high, int* remote_high) {
  CollContext lc(call.world, *view.local_comm());
  ContextMask mask = own_context_mask(call.rank, true);
  and_masks(lc, mask);
  std::vector<int> mine(1 + kContextMaskWords), theirs(mine.size());
  mine[0] = high != 0;
  std::memcpy(&mine[1], mask.data(), kContextMaskWords * sizeof(std::uint32_t));
  leaders_swap(call, view, lc, mine, theirs);
  for (std::size_t w = 0; w < kContextMaskWords; ++w)
    mask[w] &= static_cast<std::uint32_t>(theirs[1 + w]);
  *remote_high = theirs[0];
  int context = lowest_context(mask);
  if (context >= 0) take_context(call.rank, context);
  return context;
}

}  // namespace

int join_groups(ApiCall& call, Communicator& local, int local_leader, Communicator* peer,
                int remote_leader, int tag, MPI_Comm* out) {
  CollContext lc(call.world, local);
  int context = agree_context(lc, call.rank, true);
  if (context < 0) return MPI_ERR_INTERN;
  Remote remote;
  if (local.comm_rank(call.rank) == local_leader)
    swap_with_remote_leader(call, local, *peer, remote_leader, tag, context, &remote);
  run_bcast(lc, remote.info, static_cast<int>(sizeof remote.info), 1, local_leader);
  remote.ranks.resize(static_cast<std::size_t>(remote.info[2]));
  run_bcast(lc, remote.ranks.data(), static_cast<int>(remote.ranks.size() * sizeof(int)), 1,
            local_leader);
  *out = remote.info[0];
  inherit_errhandler(local, call.rank, *call.world.find_comm(*out, call.rank));
  return MPI_SUCCESS;
}

void leaders_swap(ApiCall& call, Communicator& view, CollContext& local, std::vector<int>& mine,
                  std::vector<int>& theirs) {
  const std::size_t bytes = theirs.size() * sizeof(int);
  if (local.rank() == 0) {
    CollContext ic(call.world, view);
    // The exchange's collective number in the tag keeps overlapping ones (MPI_Comm_idup) apart.
    ic.sendrecv(0, mine.data(), mine.size() * sizeof(int), 0, theirs.data(), bytes,
                kTagInterLeaders + static_cast<int>(local.seq() & kInterLeadersSeqMask));
  }
  run_bcast(local, theirs.data(), static_cast<int>(bytes), 1, 0);
}

int dup_intercomm(ApiCall& call, Communicator& view, MPI_Comm* out) {
  return dup_intercomm(call, view, view.last_collective(view.comm_rank(call.rank)), false, out);
}

int dup_intercomm(ApiCall& call, Communicator& view, std::uint32_t seq, bool overlapping,
                  MPI_Comm* out) {
  // The blocking dup runs in the order of the communicator calls (their reserved number); the
  // nonblocking one may overlap them and numbers its messages as its collective.
  CollContext lc(call.world, *view.local_comm(), overlapping ? seq : CollContext::kInternalSeq);
  std::vector<int> mine{overlapping ? agree_context_overlapping(lc, call.rank)
                                    : agree_context(lc, call.rank, true)},
      theirs{-1};
  leaders_swap(call, view, lc, mine, theirs);
  if (mine[0] < 0 || theirs[0] < 0) {
    if (mine[0] >= 0) release_context(call.rank, mine[0]);
    return fail_no_context(call, view.handle());
  }
  bool anchor_side = &view == &view.anchor();
  auto build = [&](CreatedComms& made) {
    Communicator& a = view.anchor();
    made.comms[0] = call.world.add_comm(make_intercomm(
        anchor_side ? mine[0] : theirs[0], group_of(a), anchor_side ? theirs[0] : mine[0],
        group_of(a.remote()), derived_name(call.name, a)));
  };
  int takers = view.size() + view.remote().size();
  if (!take_created(view.anchor(), seq, call.name, takers, 0, build, out))
    return fail_mismatch(call, view.handle(), "the two groups called different collectives");
  inherit_errhandler(view, call.rank, *call.world.find_comm(*out, call.rank));
  return MPI_SUCCESS;
}

}  // namespace simmpi::mpi

using namespace simmpi::mpi;

extern "C" {

int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                         int remote_leader, int tag, MPI_Comm* newintercomm) {
  ApiCall call("MPI_Intercomm_create");
  Communicator* local = call.comm(local_comm);
  if (!local) return MPI_ERR_COMM;
  if (local->is_inter())
    return call.fail(local_comm, MPI_ERR_COMM, "local_comm %s is an intercommunicator",
                     local->name().c_str());
  if (local_leader < 0 || local_leader >= local->size())
    return call.fail(local_comm, MPI_ERR_RANK, "local_leader=%d not in [0,%d) of %s", local_leader,
                     local->size(), local->name().c_str());
  if (!newintercomm) return call.fail(local_comm, MPI_ERR_ARG, "newintercomm is NULL");
  std::string why;
  int me = local->comm_rank(call.rank);
  int err = local->check_collective(
      me, CollectiveSignature{"MPI_Intercomm_create", local_leader, MPI_OP_NULL, -1}, &why);
  if (err != MPI_SUCCESS) return call.fail(local_comm, err, "%s", why.c_str());
  Communicator* peer = nullptr;
  if (me == local_leader) {
    err = check_leader_args(call, *local, peer_comm, remote_leader, tag, &peer);
    if (err != MPI_SUCCESS) return err;
  }
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::IntercommCreate);
  rec.value(local_comm).value(local_leader).value(me == local_leader ? peer_comm : MPI_COMM_NULL);
  rec.value(remote_leader).value(tag).out(newintercomm);
  err = join_groups(call, *local, local_leader, peer, remote_leader,
                    kTagIntercommCreate | (tag & kUserTagMask), newintercomm);
  if (err != MPI_SUCCESS) return rec.cancel(), fail_no_context(call, local_comm);
  return MPI_SUCCESS;
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
  ApiCall call("MPI_Intercomm_merge");
  Communicator* view = call.comm(intercomm);
  if (!view) return MPI_ERR_COMM;
  if (!view->is_inter())
    return call.fail(intercomm, MPI_ERR_COMM, "%s is not an intercommunicator",
                     view->name().c_str());
  if (!newintracomm) return call.fail(intercomm, MPI_ERR_ARG, "newintracomm is NULL");
  int err = check_collective_call(call, intercomm, *view, "MPI_Intercomm_merge");
  if (err != MPI_SUCCESS) return err;
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::IntercommMerge);
  rec.value(intercomm).value(high).out(newintracomm);
  int remote_high = 0;
  int context = merged_context(call, *view, high, &remote_high);
  if (context < 0) return rec.cancel(), fail_no_context(call, intercomm);
  // The low group comes first; on a tie, the group of the lower leader (the anchor's).
  bool mine_first = (high != 0) != (remote_high != 0) ? high == 0 : view == &view->anchor();
  auto build = [&](CreatedComms& made) {
    std::vector<int> members = group_of(mine_first ? *view : view->remote()).to_vector();
    std::vector<int> rest = group_of(mine_first ? view->remote() : *view).to_vector();
    members.insert(members.end(), rest.begin(), rest.end());
    made.comms[0] = call.world.add_comm(
        make_intracomm(context, make_group(std::move(members)), derived_name(call.name, *view)));
  };
  int takers = view->size() + view->remote().size();
  std::uint32_t seq = view->last_collective(view->comm_rank(call.rank));
  if (!take_created(view->anchor(), seq, call.name, takers, 0, build, newintracomm))
    return rec.cancel(),
           fail_mismatch(call, intercomm, "the two groups called different collectives");
  inherit_errhandler(*view, call.rank, *call.world.find_comm(*newintracomm, call.rank));
  return MPI_SUCCESS;
}

}  // extern "C"
