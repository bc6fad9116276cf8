// SPDX-License-Identifier: Apache-2.0
// Context id masks and their agreement by allreduce.
#include "libsimmpi/comm/context_id.hpp"

#include <algorithm>

#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/comm/comm_objects.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

ContextMask& mask_of(int world_rank) {
  ContextMask& m = CommObjects::get().rank(world_rank).free_contexts;
  if (m.empty()) {
    m.assign(kContextMaskWords, ~0u);
    m[0] &= ~3u;  // ids 0 and 1: MPI_COMM_WORLD and MPI_COMM_SELF
  }
  return m;
}

}  // namespace

ContextMask own_context_mask(int world_rank, bool contributes) {
  return contributes ? mask_of(world_rank) : ContextMask(kContextMaskWords, ~0u);
}

void and_masks(CollContext& c, ContextMask& mask) {
  run_allreduce(c, mask.data(), kContextMaskWords,
                Reduction(MPI_BAND, MPI_INT, *find_datatype(MPI_INT)));
}

int lowest_context(const ContextMask& mask) {
  for (int w = 0; w < kContextMaskWords; ++w)
    if (std::uint32_t bits = mask[static_cast<std::size_t>(w)])
      return 2 * (32 * w + __builtin_ctz(bits));
  return -1;
}

void take_context(int world_rank, int context) {
  int id = context / 2;
  std::uint32_t& word = mask_of(world_rank)[static_cast<std::size_t>(id / 32)];
  SIMMPI_ASSERT(word & (1u << (id % 32)), "rank %d takes context %d only while it is free",
                world_rank, context);
  word &= ~(1u << (id % 32));
}

void release_context(int world_rank, int context) {
  int id = context / 2;
  if (id < 2) return;  // predefined communicators keep theirs
  mask_of(world_rank)[static_cast<std::size_t>(id / 32)] |= 1u << (id % 32);
}

int agree_context(CollContext& c, int world_rank, bool takes) {
  ContextMask mask = own_context_mask(world_rank, takes);
  and_masks(c, mask);
  int context = lowest_context(mask);
  if (context >= 0 && takes) take_context(world_rank, context);
  return context;
}

// The highest id free in `mask`, so that an agreement of MPI_Comm_idup rarely meets the blocking
// constructors (the lowest) of the same rank; -1 if none.
int highest_context(const ContextMask& mask) {
  for (int w = kContextMaskWords - 1; w >= 0; --w)
    if (std::uint32_t bits = mask[static_cast<std::size_t>(w)])
      return 2 * (32 * w + 31 - __builtin_clz(bits));
  return -1;
}

// Overlapping agreements of one rank take turns, as in MPICH's MPIR_Get_contextid_nonblock:
// only those whose parent has the lowest context among the rank's agreements in progress offer
// the rank's free ids; the others offer all ids, keep none and try again. Without turns, two
// ranks that start agreements on two communicators in opposite orders (MPICH's
// comm/comm_idup_overlap) each take the same id for a different agreement, each agreement
// fails at the other rank, and they retry in lockstep forever. A parent's context is the same
// on all its members, so the lowest one in progress has its turn everywhere and ends.
int agree_context_overlapping(CollContext& c, int world_rank) {
  if (c.comm().size() == 1) {
    // No other member, so nothing to agree on and no one to take turns with; a round would not
    // yield either, so waiting here for this rank's other agreements would spin forever.
    const int context = highest_context(own_context_mask(world_rank, true));
    if (context >= 0) take_context(world_rank, context);
    return context;
  }
  std::vector<int>& in_progress = CommObjects::get().rank(world_rank).overlapping_agreements;
  const int parent = c.comm().context_id();
  in_progress.push_back(parent);
  auto done = [&](int context) {
    in_progress.erase(std::find(in_progress.begin(), in_progress.end(), parent));
    return context;
  };
  for (;;) {
    const bool turn = parent == *std::min_element(in_progress.begin(), in_progress.end());
    ContextMask mask = own_context_mask(world_rank, turn);
    and_masks(c, mask);
    const int context = highest_context(mask);
    // Another agreement of this rank may have taken the id while this one ran: the id is taken
    // at once where it is still free, and kept only if it was free on every member.
    const int id = context / 2;
    const bool mine = turn && context >= 0 &&
                      (mask_of(world_rank)[static_cast<std::size_t>(id / 32)] & (1u << (id % 32)));
    if (mine) take_context(world_rank, context);
    ContextMask all(kContextMaskWords, mine ? ~0u : 0u);
    and_masks(c, all);
    if (all[0]) return done(context);
    if (mine) release_context(world_rank, context);
    if (context < 0) return done(-1);
  }
}

}  // namespace simmpi::mpi
