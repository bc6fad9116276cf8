// SPDX-License-Identifier: Apache-2.0
// The threads a rank starts: pthread_create inside a rank starts a fiber of that rank (a program
// thread process of the scheduler, with the rank's globals, its own simulated clock starting at
// its creator's, and its own code measured like the rank's); pthread_join blocks the joining
// fiber until it ends; pthread_exit, pthread_detach and pthread_self work on those fibers, and
// sched_yield lets the others run. Outside ranks, and for the OpenMP runtime's threads, each
// forwards to the C library (see fiber_threads.hpp). Mutexes, condition variables, barriers and
// semaphores are in sync_interpose.cpp.
#include <errno.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <unordered_set>
#include <vector>

#include "libsimmpi/core/api_call.hpp"
#include "libsimmpi/core/world.hpp"
#include "libsimmpi/launch/fiber_threads.hpp"
#include "libsimmpi/launch/rank_life.hpp"
#include "libsimmpi/launch/real_function.hpp"
#include "runtime/core/error.hpp"
#include "runtime/observe/observation.hpp"

namespace simmpi::mpi {
namespace {

using runtime::Process;
using runtime::Scheduler;
using runtime::WaitReason;

constinit RealFunction<int (*)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*)>
    real_create{"pthread_create"};
constinit RealFunction<int (*)(pthread_t, void**)> real_join{"pthread_join"};
constinit RealFunction<int (*)(pthread_t)> real_detach{"pthread_detach"};
constinit RealFunction<pthread_t (*)()> real_self{"pthread_self"};
constinit RealFunction<void (*)(void*)> real_exit{"pthread_exit"};
constinit RealFunction<int (*)()> real_yield{"sched_yield"};

struct Registry {
  std::unordered_set<ThreadRecord*> live;  // handles that pthread_join or _detach may name
  std::vector<ThreadRecord*> by_process;   // the record each thread process runs
  std::vector<int> started;                // threads each rank started (their ordinals)
  std::vector<bool> main_exiting;          // the rank's own fiber waits in pthread_exit
};

Registry& registry() {
  static Registry r;
  return r;
}

pthread_t handle_of(ThreadRecord* t) {
  return reinterpret_cast<pthread_t>(t);
}

// The record `h` names, if it is a thread a rank started and nobody joined yet.
ThreadRecord* record_of(pthread_t h) {
  auto* t = reinterpret_cast<ThreadRecord*>(h);
  return registry().live.count(t) ? t : nullptr;
}

void forget(ThreadRecord* t) {
  registry().live.erase(t);
  delete t;
}

// The thread's process is gone: nothing refers to it but its handle (for pthread_join).
void unregister_process(ThreadRecord& t) {
  Registry& r = registry();
  r.by_process[static_cast<std::size_t>(t.process)] = nullptr;
  auto& threads = World::get().rank(t.rank).threads;
  threads.erase(std::find(threads.begin(), threads.end(), t.process));
}

// The thread ends with `result` at its own simulated time, waking its joiner.
void finish_thread(ThreadRecord& t, void* result) {
  Scheduler& s = *Scheduler::instance();
  s.enter_library();  // charges its last stretch of code; the process is reclaimed after this
  s.settle();
  t.result = result;
  t.done = true;
  t.ended_at = s.local_now();
  ApiCall::release_observed_call(*s.current());
  unregister_process(t);
  if (t.joiner >= 0) s.wake(s.process(t.joiner), s.engine().now());
  if (registry().main_exiting[static_cast<std::size_t>(t.rank)])
    s.wake(s.process(t.rank), s.engine().now());
  if (t.detached) forget(&t);
}

void thread_main(void* arg) {
  auto* t = static_cast<ThreadRecord*>(arg);
  finish_thread(*t, t->start(t->arg));
}

void register_thread(ThreadRecord* t) {
  Registry& r = registry();
  r.live.insert(t);
  if (r.by_process.size() <= static_cast<std::size_t>(t->process))
    r.by_process.resize(static_cast<std::size_t>(t->process) + 1);
  r.by_process[static_cast<std::size_t>(t->process)] = t;
  World::get().rank(t->rank).threads.push_back(t->process);
}

int create_fiber_thread(Process& p, pthread_t* out, const pthread_attr_t* attr,
                        void* (*start)(void*), void* arg) {
  FiberCall call(p, "pthread_create");  // the thread starts at its creator's simulated time
  auto* t = new ThreadRecord{start, arg, p.owner()};
  int detach = PTHREAD_CREATE_JOINABLE;
  if (attr) pthread_attr_getdetachstate(attr, &detach);
  t->detached = detach == PTHREAD_CREATE_DETACHED;
  Registry& r = registry();
  if (r.started.empty()) {
    r.started.assign(static_cast<std::size_t>(call.sched.rank_slots()), 0);
    r.main_exiting.assign(static_cast<std::size_t>(call.sched.rank_slots()), false);
  }
  const int ordinal = ++r.started[static_cast<std::size_t>(t->rank)];
  t->process =
      call.sched.spawn_program_thread(t->rank, strprintf("thread %d", ordinal), &thread_main, t);
  SIMMPI_ASSERT(call.sched.process(t->process).ordinal() == ordinal,
                "rank %d's thread %d got ordinal %d from the scheduler", t->rank, ordinal,
                call.sched.process(t->process).ordinal());
  register_thread(t);
  if (runtime::Observation::listening())
    runtime::Observation::thread_started(
        {t->process, t->rank, ordinal, p.id(), call.sched.local_now()});
  *out = handle_of(t);
  return 0;
}

std::string describe_join(const void* ctx) {
  const auto* t = static_cast<const ThreadRecord*>(ctx);
  return process_name(t->process) + " to end";
}

int join_fiber_thread(Process& p, ThreadRecord& t, void** result) {
  if (t.detached || t.joiner >= 0) return EINVAL;
  if (!t.done && t.process == p.id()) return EDEADLK;
  FiberCall call(p, "pthread_join");
  t.joiner = p.id();
  const bool waits = !t.done;
  while (!t.done) {
    call.sched.block(WaitReason{"pthread_join", &describe_join, &t});
    if (is_cancelled(p)) {
      t.joiner = -1;
      end_cancelled(p);
    }
  }
  // The joiner waited for the thread: its time now comes from the thread's (critical path).
  if (waits && runtime::Observation::listening())
    runtime::Observation::thread_joined({p.id(), t.process, t.ended_at, call.sched.local_now()});
  if (result) *result = t.result;
  forget(&t);
  return 0;
}

std::string describe_main_exit(const void*) {
  return "waits for the rank's threads to end";
}

// pthread_exit in a rank's own fiber: the process lives on until its last thread ends.
[[noreturn]] void exit_main_fiber(Process& p) {
  {
    FiberCall call(p, "pthread_exit");
    Registry& r = registry();
    while (!World::get().rank(p.id()).threads.empty()) {
      if (!r.main_exiting.empty()) r.main_exiting[static_cast<std::size_t>(p.id())] = true;
      call.sched.block(WaitReason{"pthread_exit", &describe_main_exit, nullptr});
    }
    if (!r.main_exiting.empty()) r.main_exiting[static_cast<std::size_t>(p.id())] = false;
  }
  RankLives::instance()->end_rank(p.id(), 0);
}

}  // namespace

ThreadRecord* thread_of_process(int process_id) {
  const auto& v = registry().by_process;
  return static_cast<std::size_t>(process_id) < v.size() ? v[static_cast<std::size_t>(process_id)]
                                                         : nullptr;
}

bool is_cancelled(const Process& p) {
  const ThreadRecord* t = p.ordinal() > 0 ? thread_of_process(p.id()) : nullptr;
  return t && t->cancelled;
}

void end_cancelled(Process& p) {
  p.current_call = nullptr;
  finish_thread(*thread_of_process(p.id()), nullptr);
  Scheduler::instance()->finish_current(0);
}

void end_program_threads(int rank) {
  if (!World::exists()) return;
  Scheduler& s = *Scheduler::instance();
  for (int id : World::get().rank(rank).threads) {  // in creation order: the same run each time
    thread_of_process(id)->cancelled = true;
    s.wake(s.process(id), s.engine().now());
  }
}

}  // namespace simmpi::mpi

using namespace simmpi::mpi;

extern "C" {

__attribute__((visibility("default"))) int pthread_create(pthread_t* thread,
                                                          const pthread_attr_t* attr,
                                                          void* (*start)(void*), void* arg) {
  if (simmpi::runtime::Process* p = fiber_caller(__builtin_return_address(0)))
    return create_fiber_thread(*p, thread, attr, start, arg);
  return real_create(thread, attr, start, arg);
}

__attribute__((visibility("default"))) int pthread_join(pthread_t thread, void** result) {
  simmpi::runtime::Process* p = fiber_caller(__builtin_return_address(0));
  ThreadRecord* t = p ? record_of(thread) : nullptr;
  if (t) return join_fiber_thread(*p, *t, result);
  return real_join(thread, result);
}

__attribute__((visibility("default"))) int pthread_detach(pthread_t thread) {
  ThreadRecord* t = fiber_caller(__builtin_return_address(0)) ? record_of(thread) : nullptr;
  if (!t) return real_detach(thread);
  if (t->detached || t->joiner >= 0) return EINVAL;
  if (t->done)
    forget(t);
  else
    t->detached = true;
  return 0;
}

// Called by the program and by libraries (libstdc++'s std::this_thread::get_id, libgomp). Inside
// an MPI call too, so that a thread's identity does not depend on where it asks.
__attribute__((visibility("default"))) pthread_t pthread_self() noexcept {
  simmpi::runtime::Scheduler* s = simmpi::runtime::Scheduler::instance();
  simmpi::runtime::Process* p = s && on_simulation_thread() ? s->current() : nullptr;
  if (p && p->ordinal() > 0 && p != host_region_process())
    if (ThreadRecord* t = thread_of_process(p->id())) return handle_of(t);
  return real_self();
}

__attribute__((visibility("default"), noreturn)) void pthread_exit(void* result) {
  if (simmpi::runtime::Process* p = fiber_caller(__builtin_return_address(0))) {
    if (p->ordinal() == 0) exit_main_fiber(*p);
    // Its stack is abandoned without unwinding (C++ destructors of its frames do not run).
    finish_thread(*thread_of_process(p->id()), result);
    simmpi::runtime::Scheduler::instance()->finish_current(0);
  }
  real_exit(result);
  __builtin_unreachable();
}

// In a rank: other fibers due now run first, and the call costs mpi.poll_cost, so that a thread
// spinning on sched_yield until another thread acts lets simulated time pass. When the rank has
// threads, a million of them with nothing else that can happen end in the deadlock report, as a
// polling loop does; a rank without threads waits for no sibling, and merely yields.
__attribute__((visibility("default"))) int sched_yield() noexcept {
  simmpi::runtime::Process* p = fiber_caller(__builtin_return_address(0));
  if (!p) return real_yield();
  FiberCall call(*p, "sched_yield");
  World& w = World::get();
  w.charge_poll(p->ordinal() == 0 && w.rank(p->owner()).threads.empty());
  if (is_cancelled(*p)) end_cancelled(*p);
  return 0;
}

}  // extern "C"
