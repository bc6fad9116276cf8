// SPDX-License-Identifier: Apache-2.0
// The fibers' synchronization table and mutexes (see fiber_sync.hpp).
#include "libsimmpi/launch/fiber_sync.hpp"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <unordered_map>

#include "libsimmpi/core/world.hpp"
#include "libsimmpi/launch/real_function.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

using runtime::SimTime;
using runtime::WaitReason;

constinit RealFunction<int (*)(pthread_mutex_t*)> real_trylock{"pthread_mutex_trylock"};
constinit RealFunction<int (*)(pthread_mutex_t*)> real_lock{"pthread_mutex_lock"};
constinit RealFunction<int (*)(pthread_mutex_t*)> real_unlock{"pthread_mutex_unlock"};

struct Key {
  int rank;
  const void* address;
  bool operator==(const Key&) const = default;
};

struct KeyHash {
  std::size_t operator()(const Key& k) const {
    return std::hash<const void*>()(k.address) ^ (static_cast<std::size_t>(k.rank) << 1);
  }
};

// Entries are nodes: a reference stays valid while others are added (a fiber keeps one while
// it waits).
std::unordered_map<Key, SyncObject, KeyHash>& table() {
  static std::unordered_map<Key, SyncObject, KeyHash> t;
  return t;
}

// glibc keeps the mutex type in the low bits of __kind (PTHREAD_MUTEX_KIND_MASK_NP).
int mutex_kind(const pthread_mutex_t* m) {
  return m->__data.__kind & 3;
}

const pid_t g_simulation_tid = static_cast<pid_t>(syscall(SYS_gettid));

struct MutexWait {
  int rank;
  const pthread_mutex_t* mutex;
};

std::string describe_mutex(const void* ctx) {
  const auto* w = static_cast<const MutexWait*>(ctx);
  const SyncObject* o = find_sync(w->rank, w->mutex);
  if (!o || o->holder < 0) return strprintf("mutex %p", static_cast<const void*>(w->mutex));
  return strprintf("mutex %p held by %s", static_cast<const void*>(w->mutex),
                   process_name(o->holder).c_str());
}

std::string describe_own_mutex(const void* ctx) {
  return strprintf("mutex %p, which this thread holds already", ctx);
}

// A fiber locks a normal mutex it holds: it waits forever, as a thread would; the deadlock
// report (or the deadline) ends the wait.
int wait_forever(FiberCall& call, pthread_mutex_t* m, SimTime deadline) {
  while (call.sched.engine().now() < deadline) {
    call.sched.block(WaitReason{call.process.current_call, &describe_own_mutex, m}, deadline);
    if (is_cancelled(call.process)) end_cancelled(call.process);
  }
  return ETIMEDOUT;
}

int relock(FiberCall& call, SyncObject& o, pthread_mutex_t* m, SimTime deadline) {
  switch (mutex_kind(m)) {
    case PTHREAD_MUTEX_RECURSIVE: {
      int err = real_trylock(m);  // counts the recursion (and refuses past its limit)
      if (err == 0) ++o.depth;
      return err;
    }
    case PTHREAD_MUTEX_ERRORCHECK:
      return EDEADLK;
    default:
      return wait_forever(call, m, deadline);
  }
}

// The lock word is set but no fiber holds the mutex. Held by another OS thread (an OpenMP
// worker): wait for it for real. Held by this one: locked outside the fibers' view (inside an
// MPI callback, or before the ranks started), to be unlocked the same way; poll for it like an
// MPI_Test loop, which ends in the deadlock report if nothing else can happen.
int acquire_held_outside(FiberCall& call, pthread_mutex_t* m) {
  if (m->__data.__owner != g_simulation_tid) return real_lock(m);
  for (;;) {
    World::get().charge_poll(false);
    if (is_cancelled(call.process)) end_cancelled(call.process);
    int err = real_trylock(m);
    if (err != EBUSY) return err;
  }
}

}  // namespace

SyncObject* find_sync(int rank, const void* address) {
  auto it = table().find(Key{rank, address});
  return it == table().end() ? nullptr : &it->second;
}

SyncObject& sync_entry(int rank, const void* address) {
  return table()[Key{rank, address}];
}

void drop_if_idle(int rank, const void* address) {
  auto it = table().find(Key{rank, address});
  if (it == table().end()) return;
  const SyncObject& o = it->second;
  if (o.holder < 0 && o.waiters.empty() && o.count == 0) table().erase(it);
}

bool wait_granted(FiberCall& call, SyncObject& o, FiberWaiter& w, const WaitReason& why,
                  SimTime deadline) {
  while (!w.granted) {
    if (call.sched.engine().now() >= deadline || is_cancelled(call.process)) {
      o.waiters.erase(std::find(o.waiters.begin(), o.waiters.end(), &w));
      if (is_cancelled(call.process)) end_cancelled(call.process);
      return false;
    }
    call.sched.block(why, deadline);
  }
  return true;
}

int grant_first(SyncObject& o) {
  if (o.waiters.empty()) return -1;
  FiberWaiter* w = o.waiters.front();
  o.waiters.pop_front();
  w->granted = true;
  runtime::Scheduler& s = *runtime::Scheduler::instance();
  s.wake(s.process(w->process), s.engine().now());
  return w->process;
}

int try_acquire_mutex(FiberCall& call, pthread_mutex_t* m) {
  const int rank = call.process.owner();
  SyncObject* o = find_sync(rank, m);
  if (o && o->holder >= 0) {
    if (o->holder != call.process.id() || mutex_kind(m) != PTHREAD_MUTEX_RECURSIVE) return EBUSY;
    int err = real_trylock(m);  // counts the recursion (and refuses past its limit)
    if (err == 0) ++o->depth;
    return err;
  }
  int err = real_trylock(m);
  if (err) return err;
  SyncObject& n = sync_entry(rank, m);
  n.holder = call.process.id();
  n.depth = 1;
  return 0;
}

int acquire_mutex(FiberCall& call, pthread_mutex_t* m, SimTime deadline) {
  const int rank = call.process.owner();
  SyncObject* o = find_sync(rank, m);
  if (o && o->holder == call.process.id()) return relock(call, *o, m, deadline);
  int err = try_acquire_mutex(call, m);
  if (err != EBUSY) return err;
  o = find_sync(rank, m);
  if (!o || o->holder < 0) {  // the lock word is set, yet no fiber holds it
    err = acquire_held_outside(call, m);
    if (err) return err;
    SyncObject& n = sync_entry(rank, m);
    n.holder = call.process.id();
    n.depth = 1;
    return 0;
  }
  MutexWait ctx{rank, m};
  FiberWaiter w{call.process.id()};
  o->waiters.push_back(&w);
  // Granted: the releasing fiber made this one the holder, leaving the lock word set.
  return wait_granted(call, *o, w, WaitReason{call.process.current_call, &describe_mutex, &ctx},
                      deadline)
             ? 0
             : ETIMEDOUT;
}

int release_mutex(FiberCall& call, pthread_mutex_t* m) {
  const int rank = call.process.owner();
  SyncObject* o = find_sync(rank, m);
  if (!o || o->holder < 0) return real_unlock(m);  // locked outside the fibers' view
  if (o->holder != call.process.id() && mutex_kind(m) != PTHREAD_MUTEX_NORMAL) return EPERM;
  if (o->depth > 1) {
    --o->depth;
    return real_unlock(m);
  }
  const int next = grant_first(*o);
  if (next >= 0) {  // handed over locked: the lock word's owner is this OS thread all along
    o->holder = next;
    o->depth = 1;
    return 0;
  }
  o->holder = -1;
  drop_if_idle(rank, m);
  return real_unlock(m);
}

}  // namespace simmpi::mpi
