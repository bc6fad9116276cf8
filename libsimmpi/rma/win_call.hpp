// SPDX-License-Identifier: Apache-2.0
// What every window entry point shares: finding the caller's window, raising errors under the
// window's error handler (MPI-3.1 8.3.2) with messages that name the window, the checks of a
// target rank and of the caller's open epochs, and the cost of a synchronization call.
#pragma once

#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/rma/window.hpp"

namespace simmpi::mpi {

// How the one-sided calls that charge a cost of their own before acting (the operations'
// mpi.rma.*_overhead, a synchronization call's charge_sync) make an ApiCall: the rank's lazily
// charged time (its own code's) passes together with that cost, in one switch, instead of on its
// own at the call's entry and then again with the cost. Nothing the call checks before then
// depends on other ranks' progress in between (what it may know of them came earlier). Under
// mpi.rma.progress = target_call the own time passes first, as before: the call's entry is when
// the rank serves the requests that reached it while it computed (target_serves_at).
inline ApiCall::Settle settle_with_cost() {
  return Windows::get().params().target_progress ? ApiCall::Settle::Now : ApiCall::Settle::Later;
}

// The caller's view of a window: the window and the caller's rank in it.
struct WinRef {
  Window* win = nullptr;
  int me = -1;
  WinMember& member() const { return win->member(me); }
  explicit operator bool() const { return win != nullptr; }
};

// The window `h` of the caller, or an empty WinRef after raising MPI_ERR_WIN (on
// MPI_COMM_WORLD: there is no window to take a handler from) into *err.
WinRef find_window(ApiCall& call, MPI_Win h, int* err);

// Raises `cls` under the caller's error handler of `win`: "MPI_Put: <detail> on window ..."
int win_fail(ApiCall& call, const WinRef& win, int cls, const char* fmt, ...)
    __attribute__((format(printf, 4, 5)));

// MPI_ERR_RANK unless `rank` is a member of the window ("<what>=9 not in [0,8)").
int check_rank(ApiCall& call, const WinRef& win, const char* what, int rank);

// MPI_ERR_RMA_SYNC when the caller holds a passive-target epoch (MPI_Win_lock or _lock_all).
int check_no_passive_epoch(ApiCall& call, const WinRef& win);

// MPI_ERR_RMA_SYNC when the caller has a started access epoch (MPI_Win_start), or with
// `exposure_too` a posted exposure epoch (MPI_Win_post).
int check_no_pscw_epoch(ApiCall& call, const WinRef& win, bool exposure_too);

// Charges a synchronization call's own cost, its family's mpi.rma.<family>_overhead. May switch.
void charge_sync(World& w, SyncFamily family);

}  // namespace simmpi::mpi
