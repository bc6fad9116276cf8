// SPDX-License-Identifier: Apache-2.0
// Process fibers driven by the event engine.
#include "runtime/sched/scheduler.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <utility>

#include "runtime/core/error.hpp"
#include "runtime/core/host_clock.hpp"
#include "runtime/sched/crash_handler.hpp"

namespace simmpi::runtime {
namespace {
constexpr std::size_t kAuxStacksPerPool = 64;
}  // namespace

Scheduler* Scheduler::instance_ = nullptr;

std::string Process::name() const {
  return role_.empty() ? strprintf("rank %d", id_)
                       : strprintf("rank %d's %s", owner_, role_.c_str());
}

Scheduler::Scheduler(Engine& engine, int process_count, const Options& options,
                     std::unique_ptr<Privatizer> privatizer, int slots)
    : engine_(engine),
      stacks_(options.stack_bytes, static_cast<std::size_t>(std::max(process_count, slots)),
              options.guard_budget),
      privatizer_(std::move(privatizer)),
      rank_count_(process_count),
      initial_rank_count_(process_count),
      processes_(static_cast<std::size_t>(std::max(process_count, slots))) {
  for (int i = 0; i < rank_slots(); ++i) {
    processes_[static_cast<std::size_t>(i)].id_ = i;
    processes_[static_cast<std::size_t>(i)].owner_ = i;
  }
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

int Scheduler::add_rank(SimTime start, Fiber::Entry entry, void* arg) {
  if (rank_count_ >= rank_slots()) return -1;
  Process& p = processes_[static_cast<std::size_t>(rank_count_++)];
  p.entry_ = entry;
  p.arg_ = arg;
  p.start_time_ = runtime::max(start, engine_.now());
  schedule_resume(p, p.start_time_);
  return p.id_;
}

int Scheduler::spawn_auxiliary(int owner, std::string role, Fiber::Entry entry, void* arg) {
  SIMMPI_ASSERT(!role.empty(), "an auxiliary process of rank %d needs a role", owner);
  Process* p;
  if (!free_auxiliary_.empty()) {
    p = &process(free_auxiliary_.back());
    free_auxiliary_.pop_back();
  } else {
    p = auxiliaries_.emplace_back(std::make_unique<Process>()).get();
    p->id_ = rank_slots() + static_cast<int>(auxiliaries_.size()) - 1;
    std::size_t index = static_cast<std::size_t>(p->id_ - rank_slots());
    if (index / kAuxStacksPerPool >= aux_stacks_.size())
      aux_stacks_.push_back(
          std::make_unique<StackPool>(stacks_.stack_bytes(), kAuxStacksPerPool, 0));
  }
  // The generation keeps counting across reuses, so resumes meant for the previous user are stale.
  p->owner_ = owner;
  p->role_ = std::move(role);
  p->ordinal_ = -1;
  p->library_depth_ = 1;  // the library's own work: no program code to measure
  p->own_ = OwnTime::State{};
  p->started_ = false;
  p->finished_ = false;
  p->blocked_ = false;
  p->waiting_ = false;
  p->waited_time_ = SimTime();
  p->exit_status_ = 0;
  p->current_call = nullptr;
  p->idle_poll = false;
  p->reason_ = WaitReason{};
  spawn(p->id_, entry, arg);
  return p->id_;
}

void* Scheduler::stack_top(const Process& p) {
  if (!p.is_auxiliary()) return stacks_.prepare(static_cast<std::size_t>(p.id_));
  auto index = static_cast<std::size_t>(p.id_ - rank_slots());
  return aux_stacks_[index / kAuxStacksPerPool]->prepare(index % kAuxStacksPerPool);
}

bool Scheduler::stack_intact(const Process& p) const {
  if (!p.is_auxiliary()) return stacks_.canary_intact(static_cast<std::size_t>(p.id_));
  auto index = static_cast<std::size_t>(p.id_ - rank_slots());
  return aux_stacks_[index / kAuxStacksPerPool]->canary_intact(index % kAuxStacksPerPool);
}

void Scheduler::reclaim_auxiliary(Process& p) {
  p.entry_ = nullptr;
  p.arg_ = nullptr;
  free_auxiliary_.push_back(p.id_);
}

void Scheduler::schedule_resume(Process& p, SimTime t) {
  p.wake_at_ = t;
  ++p.generation_;
  std::uint64_t arg = static_cast<std::uint32_t>(p.id_) | static_cast<std::uint64_t>(p.generation_)
                                                              << 32;
  engine_.schedule(t, Action{&Scheduler::resume_action, this, arg});
}

void Scheduler::resume_action(void* self, std::uint64_t id_and_generation) {
  auto* s = static_cast<Scheduler*>(self);
  Process& p = s->process(static_cast<int>(id_and_generation & 0xFFFFFFFFu));
  if (p.generation_ != static_cast<std::uint32_t>(id_and_generation >> 32)) return;  // stale
  s->resume(p);
}

int Scheduler::spawn_program_thread(int owner, std::string role, Fiber::Entry entry, void* arg) {
  const int id = spawn_auxiliary(owner, std::move(role), entry, arg);
  Process& p = process(id);
  if (threads_started_.empty()) threads_started_.assign(static_cast<std::size_t>(rank_slots()), 0);
  p.ordinal_ = ++threads_started_[static_cast<std::size_t>(owner)];
  p.library_depth_ = 0;
  return id;
}

void Scheduler::fiber_main(void* arg) {
  auto* p = static_cast<Process*>(arg);
  auto* s = instance_;
  if (s->own_time_ && p->library_depth_ == 0) s->own_time_->start(p->own_);
  p->entry_(p->arg_);
}

void Scheduler::measure_own_time(std::unique_ptr<OwnTime> own_time) {
  own_time_ = std::move(own_time);
}

void Scheduler::end_own_burst(Process& p) {
  // Every fiber runs on this one thread and switches only inside library calls, so the time
  // since the process left the library was spent in its own code.
  sleep_lazily(own_time_->end_burst(p.own_, p.current_call ? p.current_call : "(end)", p.owner_,
                                    p.ordinal_));
}

void Scheduler::pause_own_time() {
  Process* p = current_;
  if (p && p->library_depth_ == 0 && own_time_) own_time_->pause(p->own_);
}

void Scheduler::resume_own_time(std::int64_t host_ns) {
  Process* p = current_;
  if (!p || p->library_depth_ != 0 || !own_time_) return;
  own_time_->add_host_ns(p->own_, host_ns);
  own_time_->start(p->own_);
}

void Scheduler::count_switch(const Process& p) {
  const char* call = !p.fiber_ ? "(start)" : p.current_call;
  if (!call) call = "(program code)";
  for (auto& [name, n] : switch_counts_) {
    if (name == call) {
      ++n;
      return;
    }
  }
  switch_counts_.emplace_back(call, 1);
}

std::vector<std::pair<std::string, std::uint64_t>> Scheduler::switches_by_call() const {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  for (const auto& [call, n] : switch_counts_) {
    auto same =
        std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == call; });
    if (same == out.end())
      out.emplace_back(call, n);
    else
      same->second += n;
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

void Scheduler::resume(Process& p) {
  if (p.idle_poll_resume_) {
    p.idle_poll_resume_ = false;
    --idle_poll_resumes_;
  }
  p.wake_at_ = SimTime::max();
  p.blocked_ = false;
  if (p.waiting_) {
    p.waiting_ = false;
    const SimTime waited = engine_.now() - p.waiting_since_;
    p.waited_time_ += waited - std::min(waited, p.waiting_tail_);
  }
  if (p.wake_action_.run) {
    const WakeAction action = std::exchange(p.wake_action_, WakeAction{});
    if (!action.run(action.ctx)) {  // what the process would do next is block: no switch
      p.blocked_ = true;
      start_waiting(p, SimTime());
      p.reason_ = action.reason;
      return;
    }
  }
  if (count_switches_) count_switch(p);
  if (!p.fiber_) {
    // The fiber is created on its first run, so a rank that has not started costs no stack page.
    p.fiber_.emplace(stack_top(p), stacks_.stack_bytes(), &Scheduler::fiber_main, &p);
  }
  privatizer_->activate(p.owner_);
  current_ = &p;
  // A process that switched out in its own code (outside any library call) has its measurement
  // paused meanwhile: the host time in between is other processes' and the simulator's.
  const bool measured = own_time_ && p.library_depth_ == 0;
  if (measured && p.started_) own_time_->start(p.own_);
  p.started_ = true;
  // errno is the OS thread's, which every process shares: each process keeps its own across
  // switches, so a value another rank's code or the simulator set never shows through.
  errno = p.errno_;
  p.fiber_->resume();
  p.errno_ = errno;
  if (own_time_ && p.library_depth_ == 0 && !p.fiber_->finished()) own_time_->pause(p.own_);
  current_ = nullptr;
  if (!stack_intact(p)) report_stack_overflow(*this, p);
  if (p.fiber_->finished() && !p.finished_) {
    SIMMPI_ASSERT(p.ahead_.empty(), "process %d ended before its queued posts were made", p.id_);
    p.finished_ = true;
    p.finish_time_ = engine_.now();
  }
  if (p.finished_) {
    // The stack's pages stay until the pool is unmapped at the end: giving them back one rank
    // at a time (madvise) cost a fifth of a 100,000-rank run, and ranks usually end together.
    p.fiber_.reset();
    if (p.is_auxiliary())
      reclaim_auxiliary(p);
    else if (exit_hook_)
      exit_hook_(p);
  }
}

void Scheduler::start_waiting(Process& p, SimTime own_tail) {
  p.waiting_ = true;
  p.waiting_since_ = engine_.now();
  p.waiting_tail_ = own_tail;
}

void Scheduler::pass_until(SimTime t, bool waiting, SimTime own_tail) {
  SIMMPI_ASSERT(current_->owed_ == SimTime(), "process %d sleeps while owing %s", current_->id_,
                current_->owed_.to_string().c_str());
  SIMMPI_ASSERT(current_->ahead_.empty(), "process %d sleeps before its queued posts are made",
                current_->id_);
  Process& p = *current_;
  const SimTime from = engine_.now();
  if (advance_if_nothing_due(t)) {  // no need to switch
    const SimTime waited = engine_.now() - from;
    if (waiting) p.waited_time_ += waited - std::min(waited, own_tail);
    return;
  }
  if (waiting) start_waiting(p, own_tail);
  schedule_resume(p, t);  // not blocked: wake() cannot cut the sleep short
  if (p.idle_poll) {
    p.idle_poll_resume_ = true;
    ++idle_poll_resumes_;
  }
  p.fiber_->yield();
}

bool Scheduler::settle_owed_then(const WakeAction& action) {
  Process& p = *current_;
  p.wake_action_ = action;
  settle_owed();  // switches only if something is due first; then resume() runs the action
  const bool ran = !p.wake_action_.run;
  p.wake_action_ = WakeAction{};
  return ran;
}

void Scheduler::settle_owed() {
  if (!current_->ahead_.empty()) {
    park(Process::Parked::PassOwed);
    return;
  }
  const SimTime t = engine_.now() + current_->owed_;
  current_->owed_ = SimTime();
  sleep_until(t);
}

bool Scheduler::post_ahead(const Action& post) {
  if (!would_post_ahead()) {  // settle() would not switch: the caller posts after it
    settle();
    return false;
  }
  Process& p = *current_;
  const SimTime delay = std::exchange(p.owed_, SimTime());
  if (!p.ahead_.empty()) {  // made after the posts queued before it
    p.ahead_.push_back({post, delay});
    p.ahead_until_ += delay;
    return true;
  }
  p.ahead_.push_back({post, SimTime()});
  p.ahead_until_ = engine_.now() + delay;
  schedule_posts(p, p.ahead_until_);
  return true;
}

bool Scheduler::advance_if_nothing_due(SimTime t) {
  if (t >= engine_.next_time()) return false;
  engine_.advance_to(t);
  return true;
}

void Scheduler::schedule_posts(Process& p, SimTime t) {
  p.wake_at_ = t;  // what earliest_action() tells of it, as of a process sleeping until t
  engine_.schedule(t, Action{&Scheduler::posts_action, this, static_cast<std::uint64_t>(p.id_)});
}

void Scheduler::park(Process::Parked how) {
  Process& p = *current_;
  p.parked_ = how;
  p.fiber_->yield();  // resumed by the event that makes its last post (make_posts)
}

void Scheduler::posts_action(void* self, std::uint64_t id) {
  auto* s = static_cast<Scheduler*>(self);
  s->make_posts(s->process(static_cast<int>(id)));
}

// Makes process p's queued posts that are due, from its first: what p itself did, before, each
// time it woke from the sleep before a post, up to the next post or the next call that settles.
void Scheduler::make_posts(Process& p) {
  for (;;) {
    const Action post = p.ahead_[p.ahead_next_++].post;
    post();
    if (p.ahead_next_ == p.ahead_.size()) break;
    const SimTime delay = p.ahead_[p.ahead_next_].delay;
    if (delay == SimTime()) continue;
    const SimTime t = engine_.now() + delay;
    if (!advance_if_nothing_due(t)) {  // something else is due first: the next post waits
      schedule_posts(p, t);
      return;
    }
  }
  p.ahead_.clear();
  p.ahead_next_ = 0;
  p.wake_at_ = SimTime::max();
  // The process parked (a process runs until it parks, and events run only after) and now
  // goes on: its call continues where it waited, after its owed time when it was settling.
  const Process::Parked how = std::exchange(p.parked_, Process::Parked::No);
  SIMMPI_ASSERT(how != Process::Parked::No, "process %d's posts were made while it ran on", p.id_);
  if (how == Process::Parked::PassOwed && p.owed_ > SimTime()) {
    const SimTime t = engine_.now() + std::exchange(p.owed_, SimTime());
    if (!advance_if_nothing_due(t)) {
      schedule_resume(p, t);
      return;
    }
  }
  resume(p);
}

void Scheduler::block(const WaitReason& reason, SimTime deadline) {
  Process& p = *current_;
  SIMMPI_ASSERT(p.owed_ == SimTime(), "process %d blocks while owing %s", p.id_,
                p.owed_.to_string().c_str());
  SIMMPI_ASSERT(p.ahead_.empty(), "process %d blocks before its queued posts are made", p.id_);
  p.blocked_ = true;
  start_waiting(p, SimTime());
  p.reason_ = reason;
  if (deadline != SimTime::max()) schedule_resume(p, deadline);
  p.fiber_->yield();
}

void Scheduler::wake(Process& p, SimTime t, SimTime own_tail) {
  if (!p.blocked_ || t >= p.wake_at_) return;
  p.waiting_tail_ = own_tail;
  schedule_resume(p, t);
}

void Scheduler::finish_current(int status) {
  settle();
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
    if ((engine_.events_processed() & 0xffff) == 0 && progress_hook_) progress_hook_(progress_ctx_);
  }
  for (const Process& p : processes_)
    if (p.entry_ && !p.finished_) report_deadlock();
  for (const auto& p : auxiliaries_)
    if (p->entry_ && !p->finished_) report_deadlock();
}

void Scheduler::report_deadlock(const std::string& running_note) {
  std::string msg = "deadlock at simulated time " + engine_.now().to_string() +
                    ": every unfinished rank waits and nothing is in flight.\n";
  int shown = 0, ranks = 0, auxiliaries = 0;
  auto count = [&](const Process& p) { ++(p.is_auxiliary() ? auxiliaries : ranks); };
  if (current_) {
    msg += strprintf("  %s: %s\n", current_->name().c_str(), running_note.c_str());
    count(*current_);
    ++shown;
  }
  auto add = [&](const Process& p) {
    if (!p.entry_ || p.finished_ || &p == current_) return;
    count(p);
    if (++shown > 64) return;  // the first 64 say enough; the count says the rest
    if (p.idle_poll_resume_) {
      msg += strprintf("  %s: polls in %s for something that can never happen\n", p.name().c_str(),
                       p.current_call ? p.current_call : "a test call");
      return;
    }
    msg += strprintf("  %s: blocked in %s", p.name().c_str(), p.reason_.call);
    if (p.reason_.describe) msg += "(" + p.reason_.describe(p.reason_.ctx) + ")";
    msg += "\n";
  };
  for (const Process& p : processes_) add(p);
  for (const auto& p : auxiliaries_) add(*p);
  if (shown > 64) msg += strprintf("  ... and %d more blocked\n", shown - 64);
  msg += strprintf("%d of %d ranks waiting", ranks, process_count());
  if (process_count() > initial_rank_count_)
    msg += strprintf(" (%d of them spawned)", process_count() - initial_rank_count_);
  if (auxiliaries) msg += strprintf(", and %d of their auxiliary processes", auxiliaries);
  fatal(3, msg);
}

}  // namespace simmpi::runtime
