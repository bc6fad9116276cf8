// SPDX-License-Identifier: Apache-2.0
// Window objects and the job's table of them.
#include "libsimmpi/rma/window.hpp"

#include <cstdlib>
#include <iterator>

#include "runtime/core/error.hpp"

namespace simmpi::mpi {

Window::Window(MPI_Win handle, Communicator& comm, int flavor)
    : handle_(handle),
      comm_(comm),
      flavor_(flavor),
      members_(static_cast<std::size_t>(comm.size())),
      live_members_(comm.size()) {}

Window::~Window() {
  std::free(shared_block_);
}

bool Window::leave(int comm_rank) {
  WinMember& m = member(comm_rank);
  m.freed = true;
  if (m.owns_base) std::free(m.base);
  m.base = nullptr;
  return --live_members_ == 0;
}

namespace {
// The key of each synchronization family's cost, in SyncFamily's order.
constexpr const char* kSyncOverheadKeys[] = {
    "mpi.rma.fence_overhead", "mpi.rma.pscw_overhead",     "mpi.rma.lock_overhead",
    "mpi.rma.flush_overhead", "mpi.rma.win_sync_overhead",
};
static_assert(std::size(kSyncOverheadKeys) == static_cast<std::size_t>(SyncFamily::Count));
}  // namespace

RmaParams::RmaParams(const runtime::Config& config)
    : put_overhead(config.time("mpi.rma.put_overhead")),
      get_overhead(config.time("mpi.rma.get_overhead")),
      accumulate_overhead(config.time("mpi.rma.accumulate_overhead")),
      atomic_overhead(config.time("mpi.rma.atomic_overhead")),
      target_progress(config.text("mpi.rma.progress") == "target_call") {
  for (std::size_t f = 0; f < sync_overheads.size(); ++f)
    sync_overheads[f] = config.time(kSyncOverheadKeys[f]);
}

SimTime target_serves_at(World& w, int target_world) {
  if (!Windows::get().params().target_progress) return w.now();
  SimTime t = w.scheduler().earliest_action(w.scheduler().process(target_world));
  return t == SimTime::max() ? w.now() : runtime::max(t, w.now());  // a finished rank: now
}

Windows* Windows::instance_ = nullptr;

Windows::Windows(const runtime::Config& config) : params_(config) {
  instance_ = this;
}

Windows::~Windows() {
  instance_ = nullptr;
}

Windows& Windows::get() {
  SIMMPI_ASSERT(instance_, "no job's windows exist outside a simulation");
  return *instance_;
}

Window* Windows::find(MPI_Win h) {
  std::unique_ptr<Window>* w = table_.find(h);
  return w ? w->get() : nullptr;
}

Window& Windows::take(Communicator& comm, int flavor) {
  auto make = [&]() -> Window& {
    MPI_Win h = table_.emplace([&](int h) { return std::make_unique<Window>(h, comm, flavor); });
    return *find(h);
  };
  return making_.take(comm, comm.size(), make);
}

void Windows::remove(Window* w) {
  if (!w->is_left() || w->messages_in_flight > 0) return;
  table_.remove(w->handle());
}

}  // namespace simmpi::mpi
