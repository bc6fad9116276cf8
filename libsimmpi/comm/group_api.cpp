// SPDX-License-Identifier: Apache-2.0
// MPI_Group_* and MPI_Comm_group / MPI_Comm_remote_group (MPI-3.1 section 6.3).
#include "libsimmpi/comm/group_api.hpp"

#include <unordered_map>
#include <vector>

#include "libsimmpi/comm/comm_objects.hpp"

namespace simmpi::mpi {

const Group* find_group(ApiCall& call, MPI_Group h, MPI_Comm comm, int* err) {
  static const Group kEmpty;
  if (h == MPI_GROUP_EMPTY) return &kEmpty;
  if (const Group* g = CommObjects::get().rank(call.rank).groups.find(h)) return g;
  if (h == MPI_GROUP_NULL)
    *err = call.fail(comm, MPI_ERR_GROUP, "group is MPI_GROUP_NULL");
  else
    *err = call.fail(comm, MPI_ERR_GROUP, "group=0x%08x is not a group of this rank",
                     static_cast<unsigned>(h));
  return nullptr;
}

MPI_Group new_group_handle(ApiCall& call, Group g) {
  if (g.size == 0) return MPI_GROUP_EMPTY;
  return CommObjects::get().rank(call.rank).groups.add(std::move(g));
}

}  // namespace simmpi::mpi

using namespace simmpi::mpi;

namespace {

// Checks ranks[0..n) of a group of `size` for MPI_Group_incl/excl: each in range, none twice.
bool check_ranks(ApiCall& call, int n, const int* ranks, int size, int* err) {
  if (n < 0 || n > size) {
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "n=%d not in [0,%d]", n, size);
    return false;
  }
  if (n > 0 && !ranks) {
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "ranks is NULL");
    return false;
  }
  std::vector<bool> seen(static_cast<std::size_t>(size), false);
  for (int i = 0; i < n; ++i) {
    if (ranks[i] < 0 || ranks[i] >= size) {
      *err =
          call.fail(MPI_COMM_WORLD, MPI_ERR_RANK, "ranks[%d]=%d not in [0,%d)", i, ranks[i], size);
      return false;
    }
    if (seen[static_cast<std::size_t>(ranks[i])]) {
      *err = call.fail(MPI_COMM_WORLD, MPI_ERR_RANK, "ranks[%d]=%d appears twice", i, ranks[i]);
      return false;
    }
    seen[static_cast<std::size_t>(ranks[i])] = true;
  }
  return true;
}

// The ranks that n triplets (first, last, stride) name, in order; false after raising an error.
bool expand_ranges(ApiCall& call, int n, int ranges[][3], int size, std::vector<int>* out,
                   int* err) {
  if (n < 0 || (n > 0 && !ranges)) {
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "n=%d or ranges is invalid", n);
    return false;
  }
  for (int i = 0; i < n; ++i) {
    int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
    bool bad_end = first < 0 || first >= size || last < 0 || last >= size;
    if (stride == 0 || bad_end || (last - first) / stride < 0) {
      *err = call.fail(MPI_COMM_WORLD, MPI_ERR_RANK,
                       "ranges[%d]=(%d,%d,%d) is not a range "
                       "of ranks in [0,%d)",
                       i, first, last, stride, size);
      return false;
    }
    for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) out->push_back(r);
  }
  return check_ranks(call, static_cast<int>(out->size()), out->data(), size, err);
}

// The ranks of a group of `size` not in `excluded` (which check_ranks accepted), in order.
std::vector<int> complement(const std::vector<int>& excluded, int size) {
  std::vector<bool> gone(static_cast<std::size_t>(size), false);
  for (int r : excluded) gone[static_cast<std::size_t>(r)] = true;
  std::vector<int> keep;
  for (int r = 0; r < size; ++r)
    if (!gone[static_cast<std::size_t>(r)]) keep.push_back(r);
  return keep;
}

using SetOp = Group (*)(const Group&, const Group&);

int set_operation(const char* name, SetOp op, MPI_Group g1, MPI_Group g2, MPI_Group* out) {
  ApiCall call(name);
  int err = MPI_SUCCESS;
  const Group* a = find_group(call, g1, MPI_COMM_WORLD, &err);
  const Group* b = a ? find_group(call, g2, MPI_COMM_WORLD, &err) : nullptr;
  if (!b) return err;
  *out = new_group_handle(call, op(*a, *b));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int MPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
  ApiCall call("MPI_Comm_group");
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  *group = new_group_handle(call, group_of(*c));
  return MPI_SUCCESS;
}

int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group) {
  ApiCall call("MPI_Comm_remote_group");
  Communicator* c = call.comm(comm);
  if (!c) return MPI_ERR_COMM;
  if (!c->is_inter())
    return call.fail(comm, MPI_ERR_COMM, "%s is not an intercommunicator", c->name().c_str());
  *group = new_group_handle(call, group_of(c->remote()));
  return MPI_SUCCESS;
}

int MPI_Group_size(MPI_Group group, int* size) {
  ApiCall call("MPI_Group_size");
  int err = MPI_SUCCESS;
  const Group* g = find_group(call, group, MPI_COMM_WORLD, &err);
  if (!g) return err;
  *size = g->size;
  return MPI_SUCCESS;
}

int MPI_Group_rank(MPI_Group group, int* rank) {
  ApiCall call("MPI_Group_rank");
  int err = MPI_SUCCESS;
  const Group* g = find_group(call, group, MPI_COMM_WORLD, &err);
  if (!g) return err;
  *rank = g->rank_of(call.rank);
  return MPI_SUCCESS;
}

int MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                              int ranks2[]) {
  ApiCall call("MPI_Group_translate_ranks");
  int err = MPI_SUCCESS;
  const Group* a = find_group(call, group1, MPI_COMM_WORLD, &err);
  const Group* b = a ? find_group(call, group2, MPI_COMM_WORLD, &err) : nullptr;
  if (!b) return err;
  if (n < 0 || (n > 0 && (!ranks1 || !ranks2)))
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "n=%d or a rank array is invalid", n);
  std::unordered_map<int, int> in_b;  // world rank -> rank in b
  for (int i = 0; i < b->size; ++i) in_b[b->world_rank(i)] = i;
  for (int i = 0; i < n; ++i) {
    if (ranks1[i] == MPI_PROC_NULL) {
      ranks2[i] = MPI_PROC_NULL;
      continue;
    }
    if (ranks1[i] < 0 || ranks1[i] >= a->size)
      return call.fail(MPI_COMM_WORLD, MPI_ERR_RANK, "ranks1[%d]=%d not in [0,%d)", i, ranks1[i],
                       a->size);
    auto it = in_b.find(a->world_rank(ranks1[i]));
    ranks2[i] = it == in_b.end() ? MPI_UNDEFINED : it->second;
  }
  return MPI_SUCCESS;
}

int MPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
  ApiCall call("MPI_Group_compare");
  int err = MPI_SUCCESS;
  const Group* a = find_group(call, group1, MPI_COMM_WORLD, &err);
  const Group* b = a ? find_group(call, group2, MPI_COMM_WORLD, &err) : nullptr;
  if (!b) return err;
  *result = compare_groups(*a, *b);
  return MPI_SUCCESS;
}

int MPI_Group_union(MPI_Group g1, MPI_Group g2, MPI_Group* out) {
  return set_operation("MPI_Group_union", group_union, g1, g2, out);
}
int MPI_Group_intersection(MPI_Group g1, MPI_Group g2, MPI_Group* out) {
  return set_operation("MPI_Group_intersection", group_intersection, g1, g2, out);
}
int MPI_Group_difference(MPI_Group g1, MPI_Group g2, MPI_Group* out) {
  return set_operation("MPI_Group_difference", group_difference, g1, g2, out);
}

int MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  ApiCall call("MPI_Group_incl");
  int err = MPI_SUCCESS;
  const Group* g = find_group(call, group, MPI_COMM_WORLD, &err);
  if (!g) return err;
  if (!check_ranks(call, n, ranks, g->size, &err)) return err;
  *newgroup = new_group_handle(call, group_select(*g, std::vector<int>(ranks, ranks + n)));
  return MPI_SUCCESS;
}

int MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  ApiCall call("MPI_Group_excl");
  int err = MPI_SUCCESS;
  const Group* g = find_group(call, group, MPI_COMM_WORLD, &err);
  if (!g) return err;
  if (!check_ranks(call, n, ranks, g->size, &err)) return err;
  std::vector<int> keep = complement(std::vector<int>(ranks, ranks + n), g->size);
  *newgroup = new_group_handle(call, group_select(*g, keep));
  return MPI_SUCCESS;
}

int MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  ApiCall call("MPI_Group_range_incl");
  int err = MPI_SUCCESS;
  const Group* g = find_group(call, group, MPI_COMM_WORLD, &err);
  std::vector<int> ranks;
  if (!g || !expand_ranges(call, n, ranges, g->size, &ranks, &err)) return err;
  *newgroup = new_group_handle(call, group_select(*g, ranks));
  return MPI_SUCCESS;
}

int MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  ApiCall call("MPI_Group_range_excl");
  int err = MPI_SUCCESS;
  const Group* g = find_group(call, group, MPI_COMM_WORLD, &err);
  std::vector<int> ranks;
  if (!g || !expand_ranges(call, n, ranges, g->size, &ranks, &err)) return err;
  *newgroup = new_group_handle(call, group_select(*g, complement(ranks, g->size)));
  return MPI_SUCCESS;
}

// Freeing MPI_GROUP_EMPTY is allowed: calls that return a group may return it.
int MPI_Group_free(MPI_Group* group) {
  ApiCall call("MPI_Group_free");
  int err = MPI_SUCCESS;
  if (!group) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "group is NULL");
  if (!find_group(call, *group, MPI_COMM_WORLD, &err)) return err;
  if (*group != MPI_GROUP_EMPTY) CommObjects::get().rank(call.rank).groups.remove(*group);
  *group = MPI_GROUP_NULL;
  return MPI_SUCCESS;
}

}  // extern "C"
