// SPDX-License-Identifier: Apache-2.0
// pthread mutexes, condition variables, barriers, read-write locks and spin locks, and POSIX
// semaphores, called by a rank or its threads: each works on fibers (fiber_sync.hpp), so that a
// fiber waiting for another blocks only itself, at simulated time, and a wait that can never end
// shows in the deadlock report as the thread and the call. Every call lets the caller's lazily
// charged time pass first (FiberCall): whether a lock is free depends on what the other fibers
// did up to the caller's simulated time. Elsewhere each forwards to the C library.
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

#include "libsimmpi/core/world.hpp"
#include "libsimmpi/launch/fiber_sync.hpp"
#include "libsimmpi/launch/real_function.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

using runtime::Process;
using runtime::SimTime;
using runtime::WaitReason;

constinit RealFunction<int (*)(pthread_mutex_t*)> real_mutex_lock{"pthread_mutex_lock"};
constinit RealFunction<int (*)(pthread_mutex_t*)> real_mutex_trylock{"pthread_mutex_trylock"};
constinit RealFunction<int (*)(pthread_mutex_t*, const timespec*)> real_mutex_timedlock{
    "pthread_mutex_timedlock"};
constinit RealFunction<int (*)(pthread_mutex_t*)> real_mutex_unlock{"pthread_mutex_unlock"};
constinit RealFunction<int (*)(pthread_cond_t*, pthread_mutex_t*)> real_cond_wait{
    "pthread_cond_wait"};
constinit RealFunction<int (*)(pthread_cond_t*, pthread_mutex_t*, const timespec*)>
    real_cond_timedwait{"pthread_cond_timedwait"};
constinit RealFunction<int (*)(pthread_cond_t*, pthread_mutex_t*, clockid_t, const timespec*)>
    real_cond_clockwait{"pthread_cond_clockwait"};
constinit RealFunction<int (*)(pthread_cond_t*)> real_cond_signal{"pthread_cond_signal"};
constinit RealFunction<int (*)(pthread_cond_t*)> real_cond_broadcast{"pthread_cond_broadcast"};
constinit RealFunction<int (*)(pthread_barrier_t*, const pthread_barrierattr_t*, unsigned)>
    real_barrier_init{"pthread_barrier_init"};
constinit RealFunction<int (*)(pthread_barrier_t*)> real_barrier_destroy{"pthread_barrier_destroy"};
constinit RealFunction<int (*)(pthread_barrier_t*)> real_barrier_wait{"pthread_barrier_wait"};

// glibc keeps a condition variable's clock in bit 1 of __wrefs (pthread_condattr_setclock).
clockid_t cond_clock(const pthread_cond_t* c) {
  return (c->__data.__wrefs >> 1) & 1 ? CLOCK_MONOTONIC : CLOCK_REALTIME;
}

struct CondWait {
  const pthread_cond_t* cond;
  const pthread_mutex_t* mutex;
};

std::string describe_cond(const void* ctx) {
  const auto* w = static_cast<const CondWait*>(ctx);
  return strprintf("condition variable %p, mutex %p", static_cast<const void*>(w->cond),
                   static_cast<const void*>(w->mutex));
}

int cond_wait(Process& p, const char* name, pthread_cond_t* c, pthread_mutex_t* m,
              SimTime deadline) {
  FiberCall call(p, name);
  const int rank = p.owner();
  SyncObject* mo = find_sync(rank, m);
  if (!mo || mo->holder != p.id()) return EPERM;  // the caller must hold the mutex
  FiberWaiter w{p.id()};
  SyncObject& co = sync_entry(rank, c);
  co.waiters.push_back(&w);  // before the mutex is released: no signal can be missed
  release_mutex(call, m);
  CondWait ctx{c, m};
  const bool signaled = wait_granted(call, co, w, WaitReason{name, &describe_cond, &ctx}, deadline);
  if (!signaled) drop_if_idle(rank, c);
  acquire_mutex(call, m, SimTime::max());
  return signaled ? 0 : ETIMEDOUT;
}

// Wakes one waiting fiber (or all); a real thread waiting on `c` (OpenMP's) is signaled too.
int cond_signal(Process& p, pthread_cond_t* c, bool all) {
  FiberCall call(p, all ? "pthread_cond_broadcast" : "pthread_cond_signal");
  if (SyncObject* co = find_sync(p.owner(), c)) {
    int granted = grant_first(*co);
    while (all && granted >= 0) granted = grant_first(*co);
    drop_if_idle(p.owner(), c);
  }
  return all ? real_cond_broadcast(c) : real_cond_signal(c);
}

struct BarrierWait {
  const pthread_barrier_t* barrier;
  const SyncObject* state;
};

std::string describe_barrier(const void* ctx) {
  const auto* w = static_cast<const BarrierWait*>(ctx);
  return strprintf("barrier %p, %u of %u threads arrived", static_cast<const void*>(w->barrier),
                   w->state->arrived, w->state->count);
}

int barrier_wait(Process& p, pthread_barrier_t* b) {
  FiberCall call(p, "pthread_barrier_wait");
  SyncObject* o = find_sync(p.owner(), b);
  if (!o || o->count == 0)
    fatal(1, strprintf("[t=%s %s] pthread_barrier_wait: barrier %p was not initialized by this "
                       "rank's threads (call pthread_barrier_init inside the rank)",
                       call.sched.engine().now().to_string().c_str(), p.name().c_str(),
                       static_cast<void*>(b)));
  if (++o->arrived == o->count) {  // the last one in releases the others
    o->arrived = 0;
    ++o->generation;
    while (grant_first(*o) >= 0) {
    }
    return PTHREAD_BARRIER_SERIAL_THREAD;
  }
  FiberWaiter w{p.id()};
  o->waiters.push_back(&w);
  BarrierWait ctx{b, o};
  if (!wait_granted(call, *o, w, WaitReason{"pthread_barrier_wait", &describe_barrier, &ctx},
                    SimTime::max()))
    --o->arrived;
  return 0;
}

}  // namespace
}  // namespace simmpi::mpi

using namespace simmpi::mpi;
using simmpi::runtime::Process;
using simmpi::runtime::SimTime;

extern "C" {

__attribute__((visibility("default"))) int pthread_mutex_lock(pthread_mutex_t* m) noexcept {
  Process* p = fiber_caller(__builtin_return_address(0));
  if (!p) return real_mutex_lock(m);
  FiberCall call(*p, "pthread_mutex_lock");
  return acquire_mutex(call, m, SimTime::max());
}

__attribute__((visibility("default"))) int pthread_mutex_trylock(pthread_mutex_t* m) noexcept {
  Process* p = fiber_caller(__builtin_return_address(0));
  if (!p) return real_mutex_trylock(m);
  FiberCall call(*p, "pthread_mutex_trylock");
  return try_acquire_mutex(call, m);
}

__attribute__((visibility("default"))) int pthread_mutex_timedlock(
    pthread_mutex_t* m, const timespec* abstime) noexcept {
  Process* p = fiber_caller(__builtin_return_address(0));
  if (!p) return real_mutex_timedlock(m, abstime);
  FiberCall call(*p, "pthread_mutex_timedlock");
  return acquire_mutex(call, m, deadline_of(*abstime, CLOCK_REALTIME));
}

__attribute__((visibility("default"))) int pthread_mutex_unlock(pthread_mutex_t* m) noexcept {
  Process* p = fiber_caller(__builtin_return_address(0));
  if (!p) return real_mutex_unlock(m);
  FiberCall call(*p, "pthread_mutex_unlock");
  return release_mutex(call, m);
}

__attribute__((visibility("default"))) int pthread_cond_wait(pthread_cond_t* c,
                                                             pthread_mutex_t* m) {
  Process* p = fiber_caller(__builtin_return_address(0));
  if (!p) return real_cond_wait(c, m);
  return cond_wait(*p, "pthread_cond_wait", c, m, SimTime::max());
}

__attribute__((visibility("default"))) int pthread_cond_timedwait(pthread_cond_t* c,
                                                                  pthread_mutex_t* m,
                                                                  const timespec* abstime) {
  Process* p = fiber_caller(__builtin_return_address(0));
  if (!p) return real_cond_timedwait(c, m, abstime);
  return cond_wait(*p, "pthread_cond_timedwait", c, m, deadline_of(*abstime, cond_clock(c)));
}

__attribute__((visibility("default"))) int pthread_cond_clockwait(pthread_cond_t* c,
                                                                  pthread_mutex_t* m,
                                                                  clockid_t clock,
                                                                  const timespec* abstime) {
  Process* p = fiber_caller(__builtin_return_address(0));
  if (!p) return real_cond_clockwait(c, m, clock, abstime);
  return cond_wait(*p, "pthread_cond_clockwait", c, m, deadline_of(*abstime, clock));
}

__attribute__((visibility("default"))) int pthread_cond_signal(pthread_cond_t* c) noexcept {
  Process* p = fiber_caller(__builtin_return_address(0));
  return p ? cond_signal(*p, c, false) : real_cond_signal(c);
}

__attribute__((visibility("default"))) int pthread_cond_broadcast(pthread_cond_t* c) noexcept {
  Process* p = fiber_caller(__builtin_return_address(0));
  return p ? cond_signal(*p, c, true) : real_cond_broadcast(c);
}

// The fibers' barrier needs its count: recorded here, for the rank that initializes it.
__attribute__((visibility("default"))) int pthread_barrier_init(pthread_barrier_t* b,
                                                                const pthread_barrierattr_t* attr,
                                                                unsigned count) noexcept {
  int err = real_barrier_init(b, attr, count);
  Process* p = fiber_caller(__builtin_return_address(0));
  if (err || !p) return err;
  SyncObject& o = sync_entry(p->owner(), b);
  if (!o.waiters.empty()) return EBUSY;
  o = SyncObject{};
  o.count = count;
  return 0;
}

__attribute__((visibility("default"))) int pthread_barrier_destroy(pthread_barrier_t* b) noexcept {
  if (Process* p = fiber_caller(__builtin_return_address(0))) {
    SyncObject* o = find_sync(p->owner(), b);
    if (o && !o->waiters.empty()) return EBUSY;
    if (o) {
      o->count = 0;
      drop_if_idle(p->owner(), b);
    }
  }
  return real_barrier_destroy(b);
}

__attribute__((visibility("default"))) int pthread_barrier_wait(pthread_barrier_t* b) noexcept {
  Process* p = fiber_caller(__builtin_return_address(0));
  return p ? barrier_wait(*p, b) : real_barrier_wait(b);
}

}  // extern "C"
