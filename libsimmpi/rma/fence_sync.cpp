// SPDX-License-Identifier: Apache-2.0
// Fence synchronization in closed form (see fence_sync.hpp).
#include "libsimmpi/rma/fence_sync.hpp"

#include <string>
#include <vector>

#include "libsimmpi/rma/member_wait.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

// Every member's release from the fence, from their entry times (fence_sync.hpp's recurrence).
void release_times(World& w, Window& win) {
  FenceState& f = win.fence();
  const int p = win.size();
  const SimTime o_s = w.params().send_overhead, o_r = w.params().recv_overhead;
  std::vector<SimTime> next(static_cast<std::size_t>(p));
  f.release = f.entry;
  for (int k = 1; k < p; k <<= 1) {
    for (int r = 0; r < p; ++r) {
      int src = (r - k + p) % p;
      SimTime b = f.release[static_cast<std::size_t>(r)];
      SimTime arrival = f.release[static_cast<std::size_t>(src)] + o_s +
                        w.platform().latency(win.comm().world_rank(src), win.comm().world_rank(r));
      next[static_cast<std::size_t>(r)] = runtime::max(b + o_s, runtime::max(arrival, b) + o_r);
    }
    f.release.swap(next);
  }
}

struct FenceWait {
  Window* win;
};

std::string describe_fence(const void* ctx) {
  Window& win = *static_cast<const FenceWait*>(ctx)->win;
  const FenceState& f = win.fence();
  std::vector<int> missing;
  for (int r = 0; r < win.size(); ++r)
    if (f.entered[static_cast<std::size_t>(r)] != f.generation + 1) missing.push_back(r);
  return strprintf("waiting for %s of %s to enter MPI_Win_fence", awaited_ranks(missing).c_str(),
                   win.name().c_str());
}

}  // namespace

void fence_barrier(World& w, Window& win, int me) {
  FenceState& f = win.fence();
  const std::size_t p = static_cast<std::size_t>(win.size());
  if (f.entry.size() != p) {
    f.entry.assign(p, SimTime());
    f.entered.assign(p, 0);
  }
  const std::uint64_t gen = f.generation;
  f.entry[static_cast<std::size_t>(me)] = w.now();
  f.entered[static_cast<std::size_t>(me)] = gen + 1;
  runtime::Scheduler& s = w.scheduler();
  if (++f.arrived == win.size()) {
    release_times(w, win);
    f.arrived = 0;
    ++f.generation;
    for (int r = 0; r < win.size(); ++r) {
      int waiter = win.member(r).waiter;
      if (r != me && waiter >= 0) s.wake(s.process(waiter), f.release[static_cast<std::size_t>(r)]);
    }
  } else {
    const FenceWait what{&win};
    block_member_until(w, win.member(me), describe_fence, &what,
                       [&] { return f.generation != gen; });
  }
  // The release vector stays until every member entered the next fence, so this one is ours.
  SimTime out = f.release[static_cast<std::size_t>(me)];
  if (out > w.now()) s.wait_until(out);
}

}  // namespace simmpi::mpi
