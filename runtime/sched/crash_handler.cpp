// SPDX-License-Identifier: Apache-2.0
// Signal handlers for crashes inside ranks. They run on an alternate stack (the faulting one may
// be exhausted) and end the process: there is no safe way to continue a simulation after one
// rank corrupted the shared address space.
#include "runtime/sched/crash_handler.hpp"

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>
#if SIMMPI_HAVE_LIBBACKTRACE
#include <backtrace.h>
#include <cxxabi.h>
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/config/units.hpp"
#include "runtime/core/error.hpp"
#include "runtime/sched/scheduler.hpp"

namespace simmpi::runtime {
namespace {

constexpr int kMaxFrames = 32;

#if SIMMPI_HAVE_LIBBACKTRACE
// Symbolizes frames from the debug information of the program and its libraries. Made when the
// handler is installed: libbacktrace allocates with mmap, so using the state afterwards is safe
// inside a signal handler, creating it is not.
backtrace_state* g_symbols = nullptr;

int print_frame(void* count, std::uintptr_t pc, const char* file, int line, const char* name) {
  int& n = *static_cast<int*>(count);
  // C++ names demangled (this allocates, which a crashing process can afford: it ends next).
  int status = -1;
  char* demangled = name ? abi::__cxa_demangle(name, nullptr, nullptr, &status) : nullptr;
  const char* function = status == 0 ? demangled : name;
  if (file)
    std::fprintf(stderr, "  #%-2d %s:%d %s\n", n, file, line, function ? function : "");
  else if (function)
    std::fprintf(stderr, "  #%-2d %s (0x%lx, no line information)\n", n, function,
                 static_cast<unsigned long>(pc));
  else
    std::fprintf(stderr, "  #%-2d 0x%lx\n", n, static_cast<unsigned long>(pc));
  std::free(demangled);
  return ++n >= kMaxFrames;  // nonzero stops the walk
}

void ignore_error(void*, const char*, int) {}
#endif

// The frames of the crashing code, innermost first: file:line and function where the debug
// information has them (build with -g), else addresses and symbol names.
void print_backtrace() {
#if SIMMPI_HAVE_LIBBACKTRACE
  if (g_symbols) {
    int n = 0;
    backtrace_full(g_symbols, 1, print_frame, ignore_error, &n);  // 1: not this function
    return;
  }
#endif
  void* frames[kMaxFrames];
  int n = backtrace(frames, kMaxFrames);
  backtrace_symbols_fd(frames, n, 2);
}

std::string overflow_message(Scheduler& s, const Process& p) {
  return strprintf(
      "%s overflowed its stack of %zu KiB at simulated time %s; rerun with a larger stack, "
      "e.g. --set runtime.stack_size=%zuKiB",
      p.name().c_str(), s.stacks().stack_bytes() / 1024, s.engine().now().to_string().c_str(),
      s.stacks().stack_bytes() / 1024 * 4);
}

// The OS thread that runs the ranks (where the handler was installed): a crash on another (the
// timeline's writer, runtime/observe/observer_thread.hpp) is not the running rank's.
pid_t g_simulation_tid = 0;

void on_crash(int sig, siginfo_t* info, void*) {
  Scheduler* s = Scheduler::instance();
  const bool on_simulation_thread = gettid() == g_simulation_tid;
  Process* p = s && on_simulation_thread ? s->current() : nullptr;
  std::string msg;
  if (p) {
    auto slot = s->stacks().guard_slot(info->si_addr);
    if (sig == SIGSEGV && slot && !p->is_auxiliary() && static_cast<int>(*slot) == p->id()) {
      msg = overflow_message(*s, *p);
    } else {
      msg = strprintf("%s crashed with %s", p->name().c_str(), strsignal(sig));
      if (sig == SIGSEGV || sig == SIGBUS) msg += strprintf(" (address %p)", info->si_addr);
      msg += p->current_call ? strprintf(" inside %s", p->current_call)
                             : std::string(" in the application's code");
      msg += " at simulated time " + s->engine().now().to_string();
      if (sig == SIGABRT) msg += " (abort() was called, e.g. by a failed assert())";
    }
  } else {
    msg = strprintf("the simulator crashed with %s outside any rank%s; please report this",
                    strsignal(sig), on_simulation_thread ? "" : " (on a thread of its own)");
  }
  std::fflush(nullptr);
  std::fprintf(stderr, "simmpi: error: %s\nsimmpi: backtrace:\n", msg.c_str());
  print_backtrace();
  _exit(128 + sig);
}

}  // namespace

void install_crash_handler(Scheduler&) {
#if SIMMPI_HAVE_LIBBACKTRACE
  if (!g_symbols) g_symbols = backtrace_create_state(nullptr, 0, ignore_error, nullptr);
#endif
  g_simulation_tid = gettid();
  static char alt_stack[64 * 1024];
  stack_t ss{};
  ss.ss_sp = alt_stack;
  ss.ss_size = sizeof alt_stack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa {};
  sa.sa_sigaction = on_crash;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

void report_stack_overflow(Scheduler& scheduler, const Process& p) {
  fatal(128 + SIGSEGV, overflow_message(scheduler, p));
}

}  // namespace simmpi::runtime
