// SPDX-License-Identifier: Apache-2.0
// What every window entry point shares: finding the caller's window and raising errors under
// the window's error handler (MPI-3.1 8.3.2), with messages that name the window.
#pragma once

#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/rma/window.hpp"

namespace simmpi::mpi {

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

}  // namespace simmpi::mpi
