// SPDX-License-Identifier: Apache-2.0
// MPI_Comm_split, MPI_Comm_create and MPI_Comm_dup as collective algorithms.
#include "libsimmpi/comm/intracomm_create.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/scratch.hpp"
#include "libsimmpi/comm/comm_create.hpp"
#include "libsimmpi/comm/context_id.hpp"

namespace simmpi::mpi {
namespace {

// What the members of one MPI_Comm_split share while it runs. MPI spreads every member's
// (color, key) to all with an allgather; the ranks all live in this process, so the pairs go into
// one table here instead of into each member's copy of all of them. Those copies, the
// allgather's size lists and its scratch held ~40 bytes x members^2 while every member waited in
// the split: HPL's two splits of 8,008 ranks peaked at 2.5 GB (test split_memory_8008: 60 MiB
// now). The allgather still runs, for its time, on folded scratch (coll/scratch.hpp).
struct SplitTable {
  std::vector<int> pairs;  // color and key of each parent rank
  Sizes counts, offsets;   // the allgather's, the same for every member
  int members_left = 0;    // members not done with it
};

using SplitKey = std::pair<const Communicator*, std::uint32_t>;  // parent, collective number

std::map<SplitKey, SplitTable>& split_tables() {
  static std::map<SplitKey, SplitTable> tables;
  return tables;
}

// The table of a split, made by the first member to enter it.
SplitTable& enter_split(const SplitKey& split, int members) {
  auto [it, fresh] = split_tables().try_emplace(split);
  SplitTable& t = it->second;
  if (fresh) {
    t.pairs.assign(2 * static_cast<std::size_t>(members), 0);
    t.counts = uniform(members, 2 * sizeof(int));
    t.offsets = strided(members, 2 * sizeof(int));
    t.members_left = members;
  }
  return t;
}

// The last member done with a split's table frees it.
void leave_split(const SplitKey& split) {
  auto it = split_tables().find(split);
  if (--it->second.members_left == 0) split_tables().erase(it);
}

// Members of each color in (key, parent rank) order, from the allgathered (color, key) pairs.
std::map<int, std::vector<int>> members_by_color(const Communicator& parent,
                                                 const std::vector<int>& table) {
  std::map<int, std::vector<std::pair<int, int>>> by_color;  // color -> (key, parent rank)
  for (int r = 0; r < parent.size(); ++r) {
    int color = table[static_cast<std::size_t>(2 * r)];
    if (color != MPI_UNDEFINED)
      by_color[color].emplace_back(table[static_cast<std::size_t>(2 * r + 1)], r);
  }
  std::map<int, std::vector<int>> out;
  for (auto& [color, v] : by_color) {
    std::sort(v.begin(), v.end());
    for (auto& [key, r] : v) out[color].push_back(parent.world_rank(r));
  }
  return out;
}

// The caller's communicator `key` from the current collective of `parent`; it inherits the
// caller's error handler.
int take(ApiCall& call, Communicator& parent, int key,
         const std::function<void(CreatedComms&)>& build, MPI_Comm* out, std::uint32_t seq) {
  if (!take_created(parent, seq, call.name, parent.size(), key, build, out))
    return fail_mismatch(call, parent.handle(),
                         "another call created this collective's "
                         "communicators");
  if (*out != MPI_COMM_NULL)
    inherit_errhandler(parent, call.rank, *call.world.find_comm(*out, call.rank));
  return MPI_SUCCESS;
}

// The caller's latest collective on `parent` made what it takes.
int take(ApiCall& call, Communicator& parent, int key,
         const std::function<void(CreatedComms&)>& build, MPI_Comm* out) {
  return take(call, parent, key, build, out, parent.last_collective(parent.comm_rank(call.rank)));
}

}  // namespace

int split_comm(ApiCall& call, Communicator& parent, int color, int key,
               const std::shared_ptr<Topology>& topology, MPI_Comm* out) {
  int me = parent.comm_rank(call.rank);
  const SplitKey split{&parent, parent.last_collective(me)};
  SplitTable& table = enter_split(split, parent.size());
  table.pairs[static_cast<std::size_t>(2 * me)] = color;
  table.pairs[static_cast<std::size_t>(2 * me + 1)] = key;
  // The allgather that would spread the pairs, for its time: when it ends here, every member
  // has entered, so the table is complete.
  CollContext c(call.world, parent);
  {
    Scratch timing_only(table.pairs.size() * sizeof(int), call.rank);
    run_allgatherv(c, Coll::Allgather, timing_only.data(), table.counts, table.offsets);
  }
  int context = agree_context(c, call.rank, color != MPI_UNDEFINED);
  if (context < 0) {
    leave_split(split);
    return fail_no_context(call, parent.handle());
  }
  auto build = [&](CreatedComms& made) {
    for (auto& [col, world_ranks] : members_by_color(parent, table.pairs)) {
      auto comm = make_intracomm(context, make_group(std::move(world_ranks)),
                                 derived_name(call.name, parent));
      comm->set_topology(topology);
      made.comms[col] = call.world.add_comm(std::move(comm));
    }
  };
  int err = take(call, parent, color, build, out);
  leave_split(split);
  return err;
}

// Since MPI-2.2 the members may pass disjoint groups (each member of a group the same one): each
// group becomes a communicator, built by its first member to arrive, all with the context id
// agreed over the parent (as MPICH does: no other communication).
int create_comm(ApiCall& call, Communicator& parent, const Group& group,
                const std::shared_ptr<Topology>& topology, MPI_Comm* out) {
  bool member = group.rank_of(call.rank) != MPI_UNDEFINED;
  CollContext c(call.world, parent);
  int context = agree_context(c, call.rank, member);
  if (context < 0) return fail_no_context(call, parent.handle());
  // Disjoint groups have distinct first members: that names the caller's group.
  const int key = member ? group.world_rank(0) : -1;
  auto build_own = [&](CreatedComms& made) {
    auto comm = make_intracomm(context, group, derived_name(call.name, parent));
    comm->set_topology(topology);
    made.comms[key] = call.world.add_comm(std::move(comm));
  };
  std::uint32_t seq = parent.last_collective(parent.comm_rank(call.rank));
  if (!take_created(
          parent, seq, call.name, parent.size(), key, [](CreatedComms&) {}, out,
          member ? std::function<void(CreatedComms&)>(build_own) : nullptr))
    return fail_mismatch(call, parent.handle(),
                         "another call created this collective's communicators");
  if (!member) return MPI_SUCCESS;
  inherit_errhandler(parent, call.rank, *call.world.find_comm(*out, call.rank));
  // Each member checks that it passed the same group as the first member of its group.
  Communicator* made = call.world.find_comm(*out, call.rank);
  if (!made || compare_groups(group_of(*made), group) != MPI_IDENT)
    return fail_mismatch(call, parent.handle(),
                         "this rank passed another group than the first member of that group "
                         "to arrive (groups must be the same or disjoint)");
  return MPI_SUCCESS;
}

namespace {

std::function<void(CreatedComms&)> dup_builder(ApiCall& call, Communicator& parent,
                                               const int& context) {
  return [&call, &parent, &context](CreatedComms& made) {
    auto comm = make_intracomm(context, group_of(parent), derived_name(call.name, parent));
    comm->set_topology(parent.topology());
    made.comms[0] = call.world.add_comm(std::move(comm));
  };
}

}  // namespace

int dup_comm(ApiCall& call, Communicator& parent, MPI_Comm* out) {
  CollContext c(call.world, parent);
  int context = agree_context(c, call.rank, true);
  if (context < 0) return fail_no_context(call, parent.handle());
  return take(call, parent, 0, dup_builder(call, parent, context), out);
}

int idup_comm(ApiCall& call, Communicator& parent, std::uint32_t seq, MPI_Comm* out) {
  CollContext c(call.world, parent, seq);
  int context = agree_context_overlapping(c, call.rank);
  if (context < 0) return fail_no_context(call, parent.handle());
  return take(call, parent, 0, dup_builder(call, parent, context), out, seq);
}

void leave_comm(ApiCall& call, Communicator& c) {
  release_context(call.rank, c.context_id());
  c.mark_freed(c.comm_rank(call.rank));
  call.world.release_comm(c);
}

}  // namespace simmpi::mpi
