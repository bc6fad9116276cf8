// SPDX-License-Identifier: Apache-2.0
// Group membership and the set operations on groups.
#include "libsimmpi/comm/group.hpp"

#include <unordered_set>

namespace simmpi::mpi {
namespace {

std::unordered_set<int> member_set(const Group& g) {
  std::unordered_set<int> s;
  s.reserve(static_cast<std::size_t>(g.size));
  for (int i = 0; i < g.size; ++i) s.insert(g.world_rank(i));
  return s;
}

// The members of `a`, in `a`'s order, whose presence in `b` is `keep_if_in_b`.
Group filter(const Group& a, const Group& b, bool keep_if_in_b) {
  std::unordered_set<int> in_b = member_set(b);
  std::vector<int> out;
  for (int i = 0; i < a.size; ++i)
    if (in_b.count(a.world_rank(i)) == static_cast<std::size_t>(keep_if_in_b))
      out.push_back(a.world_rank(i));
  return make_group(std::move(out));
}

}  // namespace

int Group::rank_of(int world) const {
  if (!ranks) return world >= 0 && world < size ? world : MPI_UNDEFINED;
  for (int i = 0; i < size; ++i)
    if ((*ranks)[static_cast<std::size_t>(i)] == world) return i;
  return MPI_UNDEFINED;
}

std::vector<int> Group::to_vector() const {
  if (ranks) return *ranks;
  std::vector<int> v(static_cast<std::size_t>(size));
  for (int i = 0; i < size; ++i) v[static_cast<std::size_t>(i)] = i;
  return v;
}

Group make_group(std::vector<int> world_ranks) {
  Group g;
  g.size = static_cast<int>(world_ranks.size());
  g.ranks = std::make_shared<const std::vector<int>>(std::move(world_ranks));
  return g;
}

Group group_of(const Communicator& c) {
  return Group{c.size(), c.members()};
}

int compare_groups(const Group& a, const Group& b) {
  if (a.size != b.size) return MPI_UNEQUAL;
  bool same_order = true;
  for (int i = 0; i < a.size && same_order; ++i) same_order = a.world_rank(i) == b.world_rank(i);
  if (same_order) return MPI_IDENT;
  std::unordered_set<int> in_a = member_set(a);
  for (int i = 0; i < b.size; ++i)
    if (!in_a.count(b.world_rank(i))) return MPI_UNEQUAL;
  return MPI_SIMILAR;
}

// MPI-3.1 6.3.2: all of a in order, then the members of b not in a, in b's order.
Group group_union(const Group& a, const Group& b) {
  std::vector<int> out = a.to_vector();
  std::vector<int> extra = filter(b, a, false).to_vector();
  out.insert(out.end(), extra.begin(), extra.end());
  return make_group(std::move(out));
}

Group group_intersection(const Group& a, const Group& b) {
  return filter(a, b, true);
}

Group group_difference(const Group& a, const Group& b) {
  return filter(a, b, false);
}

Group group_select(const Group& g, const std::vector<int>& ranks) {
  std::vector<int> out;
  out.reserve(ranks.size());
  for (int r : ranks) out.push_back(g.world_rank(r));
  return make_group(std::move(out));
}

}  // namespace simmpi::mpi
