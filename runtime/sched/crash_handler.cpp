// SPDX-License-Identifier: Apache-2.0
// Signal handlers for crashes inside ranks. They run on an alternate stack (the faulting one may
// be exhausted) and end the process: there is no safe way to continue a simulation after one
// rank corrupted the shared address space.
#include "runtime/sched/crash_handler.hpp"

#include <execinfo.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/config/units.hpp"
#include "runtime/core/error.hpp"
#include "runtime/sched/scheduler.hpp"

namespace simmpi::runtime {
namespace {

std::string overflow_message(Scheduler& s, const Process& p) {
  return strprintf(
      "%s overflowed its stack of %zu KiB at simulated time %s; rerun with a larger stack, "
      "e.g. --set runtime.stack_size=%zuKiB",
      p.name().c_str(), s.stacks().stack_bytes() / 1024, s.engine().now().to_string().c_str(),
      s.stacks().stack_bytes() / 1024 * 4);
}

void on_crash(int sig, siginfo_t* info, void*) {
  Scheduler* s = Scheduler::instance();
  Process* p = s ? s->current() : nullptr;
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
    msg = strprintf("the simulator crashed with %s outside any rank; please report this",
                    strsignal(sig));
  }
  std::fflush(nullptr);
  std::fprintf(stderr, "simmpi: error: %s\nsimmpi: backtrace:\n", msg.c_str());
  void* frames[32];
  int n = backtrace(frames, 32);
  backtrace_symbols_fd(frames, n, 2);
  _exit(128 + sig);
}

}  // namespace

void install_crash_handler(Scheduler&) {
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
