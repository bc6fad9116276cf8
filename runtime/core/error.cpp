// SPDX-License-Identifier: Apache-2.0
// Fatal-error reporting shared by every layer.
#include "runtime/core/error.hpp"

#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace simmpi {

std::string strprintf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = std::vsnprintf(nullptr, 0, fmt, ap);
  va_end(ap);
  std::string out(n > 0 ? n : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), n + 1, fmt, ap2);
  va_end(ap2);
  return out;
}

namespace {
bool g_status_line_drawn = false;
}

void set_status_line_drawn() {
  g_status_line_drawn = true;
}

void erase_status_line() {
  if (!g_status_line_drawn) return;
  std::fputs("\r\033[K", stderr);
  g_status_line_drawn = false;
}

void fatal(int exit_status, const std::string& message) {
  std::fflush(nullptr);
  erase_status_line();
  std::fprintf(stderr, "simmpi: error: %s\n", message.c_str());
  std::fflush(stderr);
  // _exit: the ranks' atexit handlers and global destructors must not run on a half-finished
  // simulation (they would see another rank's globals).
  _exit(exit_status);
}

void assert_failed(const char* cond, const char* file, int line, const std::string& msg) {
  fatal(70, strprintf("internal invariant broken at %s:%d: %s (%s); please report this", file, line,
                      msg.c_str(), cond));
}

}  // namespace simmpi
