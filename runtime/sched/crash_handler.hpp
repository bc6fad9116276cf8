// SPDX-License-Identifier: Apache-2.0
// Turns a crash inside a rank (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) into a message naming
// the rank, the MPI call it was in and, for a stack overflow, the option to raise.
#pragma once

namespace simmpi::runtime {

class Process;
class Scheduler;

// Installs the handlers on an alternate signal stack. Called by the Scheduler's constructor.
void install_crash_handler(Scheduler& scheduler);
// Ends the run after a canary check found that `p` ran past the end of its stack.
[[noreturn]] void report_stack_overflow(Scheduler& scheduler, const Process& p);

}  // namespace simmpi::runtime
