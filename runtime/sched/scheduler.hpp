// SPDX-License-Identifier: Apache-2.0
// Processes (one per MPI rank) as fibers on the discrete-event engine.
//
// A process runs only when the engine pops its resume event, so exactly one runs at a time and
// always at the engine's current time. Besides the ranks, a rank may start auxiliary processes
// (e.g. one that carries a nonblocking collective forward while the rank computes): each has a
// stack of its own, runs with its owner's private globals, and is reclaimed when it returns. A
// process that needs simulated time to pass calls sleep_until(); one that waits for something
// another process or the network will do calls block() and is woken by wake(). When the queue
// empties while processes are still blocked, that is a deadlock, and run() reports each blocked
// process and what it waits for.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/core/engine.hpp"
#include "runtime/fiber/fiber.hpp"
#include "runtime/fiber/stack_pool.hpp"
#include "runtime/host_time/own_time.hpp"
#include "runtime/privatize/privatizer.hpp"

namespace simmpi::runtime {

// Why a process is blocked, for the deadlock report. `describe` is only called when a report
// is printed, so blocking stays cheap.
struct WaitReason {
  const char* call = "";                               // e.g. "MPI_Recv"
  std::string (*describe)(const void* ctx) = nullptr;  // e.g. "source=2 tag=7 comm=..."
  const void* ctx = nullptr;
};

// Work a process leaves to the scheduler for the instant its sleep ends (see
// Scheduler::settle_then): `run(ctx)` does what the process would do first on waking and
// returns true to resume it then, false to leave it blocked for `reason` until wake().
struct WakeAction {
  bool (*run)(void* ctx) = nullptr;
  void* ctx = nullptr;
  WaitReason reason;
};

class Process {
 public:
  int id() const { return id_; }
  // The rank this process works for: its own id for a rank, the starting rank for an auxiliary
  // process. The owner's globals are live while it runs.
  int owner() const { return owner_; }
  bool is_auxiliary() const { return !role_.empty(); }
  // 0 for a rank, k for its k-th program thread (Scheduler::spawn_program_thread), -1 for the
  // library's auxiliary processes, which run no program code.
  int ordinal() const { return ordinal_; }
  // The host time and simulated cost of its own code so far (runtime.host_time = measure).
  const OwnTime::State& own_time() const { return own_; }
  // For reports: "rank 3", or "rank 3's <role>" for an auxiliary process.
  std::string name() const;
  bool is_finished() const { return finished_; }
  int exit_status() const { return exit_status_; }
  SimTime finish_time() const { return finish_time_; }
  // When a rank started: zero for the first ranks, later for one add_rank() started.
  SimTime start_time() const { return start_time_; }
  // Simulated time the process has spent waiting (blocked until woken, or sleeping until a time
  // it was told: for other processes, the network, a sleep), less the overheads the model charges
  // at the end of a wait (a receive's), which are its own work. The observation layer reads it
  // across MPI calls: their blocked time.
  SimTime waited_time() const { return waited_time_; }
  // The API call the process is inside (set by the MPI layer), or nullptr in user code. Named
  // in crash reports.
  const char* current_call = nullptr;
  // What the observation layer records of the process's outermost library call, set by the MPI
  // layer (an mpi::ObservedCall): the calls it makes inside (MPI_Sendrecv's receive and send)
  // add their payloads to it.
  void* observed_call = nullptr;
  // Set by the MPI layer around the sleep of a poll that found nothing and cannot succeed by
  // itself (see Scheduler::pending_other_than_idle_polls()).
  bool idle_poll = false;

 private:
  friend class Scheduler;
  int id_ = 0;
  int owner_ = 0;
  std::string role_;  // empty for ranks
  Fiber::Entry entry_ = nullptr;
  void* arg_ = nullptr;
  std::optional<Fiber> fiber_;
  bool finished_ = false;
  bool blocked_ = false;
  bool waiting_ = false;           // blocked, or sleeping in sleep_until()
  SimTime waiting_since_;          // when waiting_ was last set
  SimTime waiting_tail_;           // the part of the wait's end that is own work (see wake())
  SimTime waited_time_;            // see waited_time()
  bool idle_poll_resume_ = false;  // its pending resume ends an idle poll
  int ordinal_ = 0;
  int library_depth_ = 0;
  SimTime owed_;                      // charged lazily, not yet slept (see Scheduler::sleep_lazily)
  OwnTime::State own_;                // its own code's measurement
  bool started_ = false;              // its fiber has run
  int errno_ = 0;                     // its errno while others run (each process has its own)
  SimTime wake_at_ = SimTime::max();  // the pending resume event, if any
  std::uint32_t generation_ = 0;      // tags resume events; a stale one (earlier wake) is dropped
  int exit_status_ = 0;
  SimTime finish_time_;
  SimTime start_time_;
  WaitReason reason_;
  WakeAction wake_action_;  // run by the scheduler when the pending resume fires, if set

  // Posts the process handed to the scheduler to make at their times while it runs on ahead
  // (Scheduler::post_ahead), each `delay` of the process's time after the one before (the
  // first is scheduled at its time). Empty when the process is not ahead of the clock.
  struct QueuedPost {
    Action post;
    SimTime delay;
  };
  std::vector<QueuedPost> ahead_;
  std::size_t ahead_next_ = 0;  // the next to make
  SimTime ahead_until_;         // when the last queued post is made: the process's own clock
  // Set while the process waits for its queued posts to be made (Scheduler::catch_up, settle):
  // whether its owed time then passes too.
  enum class Parked : std::uint8_t { No, KeepOwed, PassOwed };
  Parked parked_ = Parked::No;
};

class Scheduler {
 public:
  struct Options {
    std::size_t stack_bytes = 256 * 1024;
    std::size_t guard_budget = 10000;
  };
  // Called each time a process finishes (returns from its entry or calls finish_current()).
  using ExitHook = std::function<void(Process&)>;

  // `process_count` ranks start with the run; `rank_slots` (at least as many) is how many ranks
  // there may ever be: add_rank() fills the slots after them (MPI_Comm_spawn's children).
  Scheduler(Engine& engine, int process_count, const Options& options,
            std::unique_ptr<Privatizer> privatizer, int rank_slots = 0);
  ~Scheduler();

  // The scheduler of this run (there is one per process image); nullptr before construction.
  static Scheduler* instance() { return instance_; }
  Engine& engine() { return engine_; }
  Privatizer& privatizer() { return *privatizer_; }
  const StackPool& stacks() const { return stacks_; }
  // Number of ranks (processes 0 to process_count() - 1), those added during the run included;
  // auxiliary processes have ids from rank_slots() up.
  int process_count() const { return rank_count_; }
  // The ranks the run started with; process_count() less this were added by add_rank().
  int initial_process_count() const { return initial_rank_count_; }
  int rank_slots() const { return static_cast<int>(processes_.size()); }
  Process& process(int id) {
    return id < rank_slots() ? processes_[static_cast<std::size_t>(id)]
                             : *auxiliaries_[static_cast<std::size_t>(id - rank_slots())];
  }
  void set_exit_hook(ExitHook hook) { exit_hook_ = std::move(hook); }
  // Called from run() every 65,536 events (e.g. to sample the host's memory); must not yield.
  void set_progress_hook(void (*hook)(void* ctx), void* ctx) {
    progress_hook_ = hook;
    progress_ctx_ = ctx;
  }

  // Starts process `id` at the current time, running entry(arg) on its own fiber.
  void spawn(int id, Fiber::Entry entry, void* arg);
  // Starts a new rank in the next free slot at time `start` (>= now), running entry(arg); returns
  // its id, or -1 when every slot is taken. Does not switch.
  int add_rank(SimTime start, Fiber::Entry entry, void* arg);
  // Starts an auxiliary process for rank `owner` at the current time, running entry(arg) on a
  // stack of its own (Options::stack_bytes, from pools of 64 canary-checked stacks that grow on
  // demand). It runs with the owner's globals and is reclaimed, its id and stack reused, when
  // `entry` returns; `role` names it in reports ("rank 3's <role>"). Returns its id. May be
  // called from a process or from an event; does not switch.
  int spawn_auxiliary(int owner, std::string role, Fiber::Entry entry, void* arg);
  // Like spawn_auxiliary, for a thread the program starts in rank `owner` (pthread_create): it
  // runs program code, so its own time is measured and charged like a rank's, on its own
  // simulated clock (it starts at the owner's). Its ordinal is 1 for the owner's first thread,
  // 2 for the next... (a compute profile keeps one stream per thread). Does not switch.
  int spawn_program_thread(int owner, std::string role, Fiber::Entry entry, void* arg);
  // Runs the engine until it is empty. Ends the program with a report on deadlock.
  void run();

  // Host-time measurement (runtime.host_time = measure): the host time a process spends in its
  // own code, between library calls, becomes simulated time (see OwnTime). Off until called.
  void measure_own_time(std::unique_ptr<OwnTime> own_time);
  // nullptr when the program's own code costs nothing.
  OwnTime* own_time() { return own_time_.get(); }
  // Counts the resumptions of processes (a run's context switches) by the call each process was
  // in, to see where a run's events go (runtime.report_switches). Off by default: one branch per
  // switch when off.
  void count_switches_by_call() { count_switches_ = true; }
  // The counts, most frequent first; the call is "(start)" for a process's first run and
  // "(program code)" for one that was not in a call (e.g. woken from SIMMPI_SLEEP's lazy time).
  std::vector<std::pair<std::string, std::uint64_t>> switches_by_call() const;

  // --- called from inside a process ---
  // Mark the boundaries of each MPI or BLAS call (nested calls count once). enter_library()
  // charges the process's own code since the last leave_library() when measuring; it may yield.
  // (Inline to the point where the own time is measured: every MPI call makes both.)
  void enter_library() {
    Process* p = current_;
    if (p && p->library_depth_++ <= 0 && own_time_) end_own_burst(*p);
  }
  void leave_library() {
    Process* p = current_;
    if (p && --p->library_depth_ <= 0 && own_time_) own_time_->start(p->own_);
  }
  // Around a stretch of the running process's own code whose host time is not what it costs on
  // the simulated node (an OpenMP region, which runs on the host's cores but costs its critical
  // path on the node's): pause_own_time() stops measuring, resume_own_time(host_ns) goes on and
  // adds `host_ns` of host time as if measured (it is scaled like the rest). No-ops when the
  // own time is not measured. Never yield.
  void pause_own_time();
  void resume_own_time(std::int64_t host_ns);
  // The running process, or nullptr when the scheduler itself runs (an event handler).
  Process* current() { return current_; }
  // Lets simulated time pass until `t`. Switches only if something else is due first. The
  // process must owe no lazily charged time (settle() first). The time is the process's own
  // (its code or overheads); wait_until() is the same for time spent waiting.
  void sleep_until(SimTime t) { pass_until(t, false, SimTime()); }
  // As sleep_until(), for a process waiting until a time it knows (a request's completion, the
  // end of a synchronization): waited_time() counts it, less its last `own_tail` (see wake()).
  void wait_until(SimTime t, SimTime own_tail = SimTime()) { pass_until(t, true, own_tail); }
  // Lets `d` of simulated time pass for the running process lazily: the time is owed and passes
  // at its next settle(). Between two calls that can see other processes or be seen by them
  // (every MPI call, clock read and GPU call settles first, and so does the process's end), a
  // process interacts with nothing, so consecutive computations may pass as one sleep: the same
  // simulated times with one switch instead of one each.
  void sleep_lazily(SimTime d) { current_->owed_ += d; }
  // The earliest time process `p` can act (send, for instance): its resume time when it sleeps
  // (a sleep is never cut short) or its next queued post's when it waits for those, now when it
  // is blocked (anything may wake it) or running, and never when it has finished.
  SimTime earliest_action(const Process& p) const {
    if (p.finished_) return SimTime::max();
    if (p.blocked_ || &p == current_) return engine_.now();
    return runtime::max(p.wake_at_, engine_.now());
  }
  // The running process's own time: the engine's plus what it owes.
  SimTime local_now() const { return current_ ? local_now(*current_) : engine_.now(); }
  // The same for `running`, the running process (for callers that hold it: no test for none).
  SimTime local_now(const Process& running) const {
    return (running.ahead_.empty() ? engine_.now() : running.ahead_until_) + running.owed_;
  }
  // Lets the running process's owed time pass now, after its queued posts (post_ahead). Cheap
  // when it owes nothing and is not ahead.
  void settle() {
    if (current_ && (current_->owed_ > SimTime() || !current_->ahead_.empty())) settle_owed();
  }
  // For work a process does at the end of its owed time that only starts something and never
  // waits (posting a nonblocking send or receive): instead of letting the owed time pass, which
  // switches out of the process and back when anything else is due first, the process hands
  // `post` to the scheduler and runs on, ahead of the engine's clock. The scheduler makes the
  // post in an event at the very time, and in the same order among events, as the process
  // would have made it after settle(); consecutive posts queue, each `delay` (the time owed
  // between them) after the one before. The process interacts with nothing while ahead: every
  // call that could see other processes or be seen by them waits first for its posts to be
  // made (settle(), catch_up(); block() and sleep_until() require it), so the simulation is the
  // same, with one switch where each post used to cost one. Returns false when there was no
  // need: nothing was due before the owed time ended, which has passed; the caller posts now.
  bool post_ahead(const Action& post);
  // Whether post_ahead() would queue its post (rather than let the owed time pass at once).
  bool would_post_ahead() const {
    return !current_->ahead_.empty() ||
           (current_->owed_ > SimTime() && engine_.now() + current_->owed_ >= engine_.next_time());
  }
  // Waits until the running process's queued posts (post_ahead) are made; its owed time stays
  // owed. For calls that leave the owed time to later but look at other processes.
  void catch_up() {
    if (current_ && !current_->ahead_.empty()) park(Process::Parked::KeepOwed);
  }
  // Like settle(), for a process that, once its owed time has passed, does `action.run`'s work
  // and then blocks: the scheduler does that work at the same instant, in the same event, and
  // switches to the process only if `run` says it need not block (or, later, when it is woken).
  // The simulation is the same; what is saved is a switch into the process and out again.
  // Returns true when `action` ran (the work is done), false when nothing was due before the
  // owed time ended, so the caller does the work itself without any switch.
  bool settle_then(const WakeAction& action) {
    const Process& p = *current_;
    if (p.owed_ == SimTime() && p.ahead_.empty()) return false;  // as settle(): nothing to pass
    return settle_owed_then(action);
  }
  // Pauses the running process until wake() is called for it or, at the latest, until
  // `deadline`. Spurious returns are allowed: callers re-check their condition in a loop.
  void block(const WaitReason& reason, SimTime deadline = SimTime::max());
  // Ends the running process with `status`; its remaining stack frames are abandoned, as with
  // exit(). Does not return.
  [[noreturn]] void finish_current(int status);

  // Events in the queue other than the resumes of processes sleeping in an idle poll. Zero means
  // that nothing can change unless a poller gives up polling.
  std::size_t pending_other_than_idle_polls() const {
    return engine_.pending() - idle_poll_resumes_;
  }
  // Ends the run with the deadlock report: every unfinished process and what it waits for.
  // `running_note` describes the running process when it is the one that cannot progress (it
  // polls for something that can never happen); empty when called from the scheduler.
  [[noreturn]] void report_deadlock(const std::string& running_note = "");

  // --- called from anywhere ---
  // Makes a blocked process runnable at time `t` (>= now). No effect if it is not blocked or
  // already due to wake at or before `t`. The last `own_tail` before `t` is the process's own
  // work, not waiting: the model charges some overheads at the end of the wait (a receive's, once
  // its data is in), and the profile tells them apart.
  void wake(Process& p, SimTime t, SimTime own_tail = SimTime());

 private:
  // The measured part of enter_library(): p's own code since it left the library becomes owed.
  void end_own_burst(Process& p);
  void settle_owed();
  bool settle_owed_then(const WakeAction& action);  // settle_then() when something is owed
  void pass_until(SimTime t, bool waiting, SimTime own_tail);
  // Marks `p` waiting from now (blocked or sleeping), the last `own_tail` of it its own work.
  void start_waiting(Process& p, SimTime own_tail);
  // Moves the clock to `t` when no event is due before or at it (a process reaching `t` needs
  // no trip through the queue); false, the clock untouched, when one is.
  bool advance_if_nothing_due(SimTime t);
  void park(Process::Parked how);
  // Schedules the event that makes p's next queued post at `t`.
  void schedule_posts(Process& p, SimTime t);
  static void posts_action(void* self, std::uint64_t id);
  void make_posts(Process& p);
  void count_switch(const Process& p);
  static void resume_action(void* self, std::uint64_t id_and_generation);
  void schedule_resume(Process& p, SimTime t);
  static void fiber_main(void* process);
  void resume(Process& p);
  // Where p's stack lives: the rank pool for ranks, an auxiliary pool otherwise.
  void* stack_top(const Process& p);
  bool stack_intact(const Process& p) const;
  void reclaim_auxiliary(Process& p);

  static Scheduler* instance_;
  Engine& engine_;
  StackPool stacks_;
  std::unique_ptr<Privatizer> privatizer_;
  int rank_count_;
  int initial_rank_count_;
  std::vector<Process> processes_;  // every rank slot, contiguous (the hot path), never resized
  std::vector<std::unique_ptr<Process>> auxiliaries_;   // ids rank_slots() and up
  std::vector<int> free_auxiliary_;                     // ids of reclaimed auxiliary processes
  std::vector<std::unique_ptr<StackPool>> aux_stacks_;  // 64 stacks each
  Process* current_ = nullptr;
  std::size_t idle_poll_resumes_ = 0;
  std::unique_ptr<OwnTime> own_time_;  // null: the program's own code costs nothing
  std::vector<int> threads_started_;   // program threads each rank has started
  bool count_switches_ = false;
  std::vector<std::pair<const char*, std::uint64_t>> switch_counts_;  // by call name pointer
  ExitHook exit_hook_;
  void (*progress_hook_)(void*) = nullptr;
  void* progress_ctx_ = nullptr;
};

// A call into the simulator made outside MPI's entry points (a clock read, a sleep, a compute
// charge), for the measurement of the process's own code: the program's burst ends where it
// starts (Scheduler::enter_library) and a new one begins where it ends; `name` ends the burst
// in compute profiles and reports. Only from inside a process.
class ScopedLibraryCall {
 public:
  ScopedLibraryCall(Scheduler& s, const char* name) : s_(s), saved_(s.current()->current_call) {
    if (!saved_) s.current()->current_call = name;
    s.enter_library();
  }
  ~ScopedLibraryCall() {
    s_.leave_library();
    s_.current()->current_call = saved_;
  }
  ScopedLibraryCall(const ScopedLibraryCall&) = delete;
  ScopedLibraryCall& operator=(const ScopedLibraryCall&) = delete;

 private:
  Scheduler& s_;
  const char* saved_;
};

}  // namespace simmpi::runtime
