// SPDX-License-Identifier: Apache-2.0
// Process fibers driven by the event engine.
#include "runtime/sched/scheduler.hpp"

#include <algorithm>
#include <cstdio>

#include "runtime/core/error.hpp"
#include "runtime/core/host_clock.hpp"
#include "runtime/sched/crash_handler.hpp"

namespace simmpi::runtime {

Scheduler* Scheduler::instance_ = nullptr;

Scheduler::Scheduler(Engine& engine, int process_count, const Options& options,
                     std::unique_ptr<Privatizer> privatizer)
    : engine_(engine),
      stacks_(options.stack_bytes, static_cast<std::size_t>(process_count), options.guard_budget),
      privatizer_(std::move(privatizer)),
      processes_(static_cast<std::size_t>(process_count)) {
  for (int i = 0; i < process_count; ++i) processes_[static_cast<std::size_t>(i)].id_ = i;
  instance_ = this;
  install_crash_handler(*this);
}

Scheduler::~Scheduler() {
  if (instance_ == this) instance_ = nullptr;
}

void Scheduler::spawn(int id, Fiber::Entry entry, void* arg) {
  Process& p = process(id);
  p.entry_ = entry;
  p.arg_ = arg;
  schedule_resume(p, engine_.now());
}

void Scheduler::schedule_resume(Process& p, SimTime t) {
  p.wake_at_ = t;
  ++p.generation_;
  std::uint64_t arg = static_cast<std::uint32_t>(p.id_) |
                      static_cast<std::uint64_t>(p.generation_) << 32;
  engine_.schedule(t, Action{&Scheduler::resume_action, this, arg});
}

void Scheduler::resume_action(void* self, std::uint64_t id_and_generation) {
  auto* s = static_cast<Scheduler*>(self);
  Process& p = s->process(static_cast<int>(id_and_generation & 0xFFFFFFFFu));
  if (p.generation_ != static_cast<std::uint32_t>(id_and_generation >> 32)) return;  // stale
  s->resume(p);
}

void Scheduler::fiber_main(void* arg) {
  auto* p = static_cast<Process*>(arg);
  p->cpu_mark_ns_ = host_clock_ns(CLOCK_THREAD_CPUTIME_ID);
  p->entry_(p->arg_);
}

void Scheduler::measure_host_time(double scale) { host_time_scale_ = scale; }

void Scheduler::enter_library() {
  Process* p = current_;
  if (!p || p->library_depth_++ > 0 || host_time_scale_ <= 0) return;
  // Every fiber runs on this one thread and switches only inside library calls, so the thread's
  // CPU time since the mark was spent in this process's own code.
  std::int64_t own_ns = host_clock_ns(CLOCK_THREAD_CPUTIME_ID) - p->cpu_mark_ns_;
  sleep_until(engine_.now() + SimTime::from_seconds(static_cast<double>(own_ns) * 1e-9 *
                                                    host_time_scale_));
}

void Scheduler::leave_library() {
  Process* p = current_;
  if (!p || --p->library_depth_ > 0 || host_time_scale_ <= 0) return;
  p->cpu_mark_ns_ = host_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

void Scheduler::resume(Process& p) {
  if (p.idle_poll_resume_) {
    p.idle_poll_resume_ = false;
    --idle_poll_resumes_;
  }
  p.wake_at_ = SimTime::max();
  p.blocked_ = false;
  if (!p.fiber_) {
    // The fiber is created on its first run, so a rank that has not started costs no stack page.
    auto slot = static_cast<std::size_t>(p.id_);
    p.fiber_.emplace(stacks_.prepare(slot), stacks_.stack_bytes(), &Scheduler::fiber_main, &p);
  }
  privatizer_->activate(p.id_);
  current_ = &p;
  p.fiber_->resume();
  current_ = nullptr;
  if (!stacks_.canary_intact(static_cast<std::size_t>(p.id_))) report_stack_overflow(*this, p.id_);
  if (p.fiber_->finished() && !p.finished_) {
    p.finished_ = true;
    p.finish_time_ = engine_.now();
  }
  if (p.finished_) {
    // The stack's pages stay until the pool is unmapped at the end: giving them back one rank
    // at a time (madvise) cost a fifth of a 100,000-rank run, and ranks usually end together.
    p.fiber_.reset();
    if (exit_hook_) exit_hook_(p);
  }
}

void Scheduler::sleep_until(SimTime t) {
  if (t < engine_.next_time()) {
    engine_.advance_to(t);  // nothing else happens before t: no need to switch
    return;
  }
  Process& p = *current_;
  schedule_resume(p, t);  // not blocked: wake() cannot cut the sleep short
  if (p.idle_poll) {
    p.idle_poll_resume_ = true;
    ++idle_poll_resumes_;
  }
  p.fiber_->yield();
}

void Scheduler::block(const WaitReason& reason, SimTime deadline) {
  Process& p = *current_;
  p.blocked_ = true;
  p.reason_ = reason;
  if (deadline != SimTime::max()) schedule_resume(p, deadline);
  p.fiber_->yield();
}

void Scheduler::wake(Process& p, SimTime t) {
  if (!p.blocked_ || t >= p.wake_at_) return;
  schedule_resume(p, t);
}

void Scheduler::finish_current(int status) {
  Process& p = *current_;
  p.finished_ = true;
  p.exit_status_ = status;
  p.finish_time_ = engine_.now();
  p.fiber_->yield();
  SIMMPI_ASSERT(false, "finished process %d was resumed", p.id_);
  __builtin_unreachable();
}

void Scheduler::run() {
  while (engine_.step()) {
  }
  for (const Process& p : processes_)
    if (p.entry_ && !p.finished_) report_deadlock();
}

void Scheduler::report_deadlock(const std::string& running_note) {
  std::string msg = "deadlock at simulated time " + engine_.now().to_string() +
                    ": every unfinished rank waits and nothing is in flight.\n";
  int blocked = 0;
  if (current_) {
    msg += strprintf("  rank %d: %s\n", current_->id_, running_note.c_str());
    ++blocked;
  }
  for (const Process& p : processes_) {
    if (!p.entry_ || p.finished_ || &p == current_) continue;
    if (++blocked > 64) continue;  // the first 64 say enough; the count says the rest
    if (p.idle_poll_resume_) {
      msg += strprintf("  rank %d: polls in %s for something that can never happen\n", p.id_,
                       p.current_call ? p.current_call : "a test call");
      continue;
    }
    msg += strprintf("  rank %d: blocked in %s", p.id_, p.reason_.call);
    if (p.reason_.describe) msg += "(" + p.reason_.describe(p.reason_.ctx) + ")";
    msg += "\n";
  }
  if (blocked > 64) msg += strprintf("  ... and %d more blocked ranks\n", blocked - 64);
  msg += strprintf("%d of %d ranks waiting", blocked, process_count());
  fatal(3, msg);
}

}  // namespace simmpi::runtime
