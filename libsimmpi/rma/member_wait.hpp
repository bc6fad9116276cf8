// SPDX-License-Identifier: Apache-2.0
// How a member of a window blocks in a one-sided call: as the member's waiter
// (WinMember::waiter), woken by what the window delivers to it (its operations' completions, lock
// grants, post and complete notices, the last member entering a fence), until what it waits for
// has come. One mechanism for every blocking one-sided call, so that each is woken the same way
// and the deadlock report describes each the same way.
#pragma once

#include <string>
#include <vector>

#include "libsimmpi/rma/window.hpp"

namespace simmpi::mpi {

// Blocks the calling process, member `m` of a window, until `done()` is true; `done` is asked
// first and again at each wake, and may itself sleep (to a completion time it knows). While
// blocked the deadlock report shows `describe(ctx)`. May switch.
template <class Done>
void block_member_until(World& w, WinMember& m, std::string (*describe)(const void*),
                        const void* ctx, Done done) {
  runtime::Scheduler& s = w.scheduler();
  const runtime::WaitReason reason{s.current()->current_call, describe, ctx};
  while (!done()) {
    m.waiter = s.current()->id();
    s.block(reason);
    m.waiter = -1;
  }
}

// "rank 3" or "ranks 1, 2, 5": the ranks a member still waits for, for the deadlock report
// (the first eight, then ", ...").
inline std::string awaited_ranks(const std::vector<int>& ranks) {
  constexpr std::size_t kShown = 8;
  std::string list = ranks.size() > 1 ? "ranks " : "rank ";
  for (std::size_t i = 0; i < ranks.size() && i < kShown; ++i)
    list += (i ? ", " : "") + std::to_string(ranks[i]);
  if (ranks.size() > kShown) list += ", ...";
  return list;
}

}  // namespace simmpi::mpi
