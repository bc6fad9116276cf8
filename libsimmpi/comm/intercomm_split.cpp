// SPDX-License-Identifier: Apache-2.0
// MPI_Comm_split and MPI_Comm_create of an intercommunicator, with the messages of MPICH's
// MPIR_Comm_split_inter: each group allgathers its members' (color, key) over its local
// communicator, the leaders swap the two tables and broadcast the other group's in their group;
// each group agrees on a context id and the leaders swap those too (as MPI_Comm_dup does). The
// first member that has both tables builds every color's intercommunicator.
#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/comm/comm_create.hpp"
#include "libsimmpi/comm/context_id.hpp"
#include "libsimmpi/comm/intercomm.hpp"

namespace simmpi::mpi {
namespace {

// The world ranks of each color's members of `group`, from its (color, key) table, in (key,
// rank) order.
std::map<int, std::vector<int>> members_by_color(const Communicator& group,
                                                 const std::vector<int>& table) {
  std::map<int, std::vector<std::pair<int, int>>> by_color;  // color -> (key, rank)
  for (int r = 0; r < group.size(); ++r) {
    const int color = table[static_cast<std::size_t>(2 * r)];
    if (color != MPI_UNDEFINED)
      by_color[color].emplace_back(table[static_cast<std::size_t>(2 * r + 1)], r);
  }
  std::map<int, std::vector<int>> out;
  for (auto& [color, v] : by_color) {
    std::sort(v.begin(), v.end());
    for (auto& [key, r] : v) out[color].push_back(group.world_rank(r));
  }
  return out;
}

// Every member's (color, key) in both groups: `mine` over the caller's group, `theirs` over the
// other.
void exchange_tables(ApiCall& call, Communicator& view, CollContext& local, int color, int key,
                     std::vector<int>& mine, std::vector<int>& theirs) {
  const auto n = static_cast<std::size_t>(view.size());
  mine.assign(2 * n, 0);
  mine[2 * static_cast<std::size_t>(local.rank())] = color;
  mine[2 * static_cast<std::size_t>(local.rank()) + 1] = key;
  Sizes counts(n, 2 * sizeof(int)), offsets(n);
  for (std::size_t i = 0; i < n; ++i) offsets[i] = i * 2 * sizeof(int);
  run_allgatherv(local, Coll::Allgather, reinterpret_cast<char*>(mine.data()), counts, offsets);
  theirs.assign(2 * static_cast<std::size_t>(view.remote().size()), 0);
  leaders_swap(call, view, local, mine, theirs);
}

}  // namespace

int split_intercomm(ApiCall& call, Communicator& view, int color, int key, MPI_Comm* out) {
  CollContext lc(call.world, *view.local_comm());
  std::vector<int> mine_table, their_table;
  exchange_tables(call, view, lc, color, key, mine_table, their_table);
  std::vector<int> mine{agree_context(lc, call.rank, color != MPI_UNDEFINED)}, theirs{-1};
  leaders_swap(call, view, lc, mine, theirs);
  if (mine[0] < 0 || theirs[0] < 0) {
    if (mine[0] >= 0 && color != MPI_UNDEFINED) release_context(call.rank, mine[0]);
    return fail_no_context(call, view.handle());
  }
  const bool anchor_side = &view == &view.anchor();
  auto build = [&](CreatedComms& made) {
    Communicator& a = view.anchor();
    auto a_colors = members_by_color(a, anchor_side ? mine_table : their_table);
    auto b_colors = members_by_color(a.remote(), anchor_side ? their_table : mine_table);
    for (auto& [col, a_ranks] : a_colors) {
      auto b = b_colors.find(col);
      if (b == b_colors.end()) continue;
      made.comms[col] = call.world.add_comm(
          make_intercomm(anchor_side ? mine[0] : theirs[0], make_group(std::move(a_ranks)),
                         anchor_side ? theirs[0] : mine[0], make_group(std::move(b->second)),
                         derived_name(call.name, a)));
    }
  };
  const int takers = view.size() + view.remote().size();
  const std::uint32_t seq = view.last_collective(view.comm_rank(call.rank));
  if (!take_created(view.anchor(), seq, call.name, takers, color, build, out))
    return fail_mismatch(call, view.handle(), "the two groups called different collectives");
  if (*out == MPI_COMM_NULL) {
    if (color != MPI_UNDEFINED) release_context(call.rank, mine[0]);  // no partner color
    return MPI_SUCCESS;
  }
  inherit_errhandler(view, call.rank, *call.world.find_comm(*out, call.rank));
  return MPI_SUCCESS;
}

}  // namespace simmpi::mpi
