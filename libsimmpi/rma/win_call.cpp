// SPDX-License-Identifier: Apache-2.0
// Window lookup, errors and the one-sided costs.
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

}  // namespace simmpi::mpi
