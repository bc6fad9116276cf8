// SPDX-License-Identifier: Apache-2.0
// Window lookup, errors, the checks every window call shares and the synchronization cost.
#include "libsimmpi/rma/win_call.hpp"

#include <cstdarg>
#include <cstdio>
#include <memory>

namespace simmpi::mpi {

WinRef find_window(ApiCall& call, MPI_Win h, int* err) {
  Window* w = Windows::get().find(h);
  int me = w ? w->comm().comm_rank(call.rank) : -1;
  if (w && me >= 0 && !w->member(me).freed) return WinRef{w, me};
  if (h == MPI_WIN_NULL)
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_WIN, "win is MPI_WIN_NULL");
  else if (me >= 0)
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_WIN, "win=0x%08x was freed by this rank",
                     static_cast<unsigned>(h));
  else
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_WIN, "win=0x%08x is not a window of this rank",
                     static_cast<unsigned>(h));
  return WinRef{};
}

int win_fail(ApiCall& call, const WinRef& win, int cls, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char detail[1024];
  std::vsnprintf(detail, sizeof detail, fmt, ap);
  va_end(ap);
  char full[1200];
  std::snprintf(full, sizeof full, "%s (%s)", detail, win.win->name().c_str());
  const WinMember& m = win.member();
  return call.raise(m.errhandler, m.errhandler_fn, win.win->handle(), cls, full);
}

int check_rank(ApiCall& call, const WinRef& win, const char* what, int rank) {
  if (rank >= 0 && rank < win.win->size()) return MPI_SUCCESS;
  return win_fail(call, win, MPI_ERR_RANK, "%s=%d not in [0,%d)", what, rank, win.win->size());
}

int check_no_passive_epoch(ApiCall& call, const WinRef& win) {
  const WinMember& m = win.member();
  if (m.locks.empty() && !m.lock_all) return MPI_SUCCESS;
  return win_fail(call, win, MPI_ERR_RMA_SYNC, "a passive-target epoch (%s) is open",
                  m.lock_all ? "MPI_Win_lock_all" : "MPI_Win_lock");
}

int check_no_pscw_epoch(ApiCall& call, const WinRef& win, bool exposure_too) {
  const WinMember& m = win.member();
  if (m.access_started)
    return win_fail(call, win, MPI_ERR_RMA_SYNC, "an access epoch (MPI_Win_start) is open");
  if (exposure_too && m.exposure_posted)
    return win_fail(call, win, MPI_ERR_RMA_SYNC, "an exposure epoch (MPI_Win_post) is open");
  return MPI_SUCCESS;
}

void charge_sync(World& w, SyncFamily family) {
  w.scheduler().sleep_lazily(Windows::get().params().sync_overhead(family));
  w.scheduler().settle();
}

}  // namespace simmpi::mpi
