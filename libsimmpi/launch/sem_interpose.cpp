// SPDX-License-Identifier: Apache-2.0
// POSIX semaphores, read-write locks and spin locks among a rank's fibers (see fiber_sync.hpp and
// sync_interpose.cpp): a fiber that would wait blocks itself, or, for a spin lock, polls like an
// MPI_Test loop; elsewhere each call forwards to the C library.
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

constinit RealFunction<int (*)(sem_t*)> real_sem_wait{"sem_wait"};
constinit RealFunction<int (*)(sem_t*)> real_sem_trywait{"sem_trywait"};
constinit RealFunction<int (*)(sem_t*, const timespec*)> real_sem_timedwait{"sem_timedwait"};
constinit RealFunction<int (*)(sem_t*)> real_sem_post{"sem_post"};
constinit RealFunction<int (*)(pthread_rwlock_t*)> real_rdlock{"pthread_rwlock_rdlock"};
constinit RealFunction<int (*)(pthread_rwlock_t*)> real_wrlock{"pthread_rwlock_wrlock"};
constinit RealFunction<int (*)(pthread_rwlock_t*)> real_tryrdlock{"pthread_rwlock_tryrdlock"};
constinit RealFunction<int (*)(pthread_rwlock_t*)> real_trywrlock{"pthread_rwlock_trywrlock"};
constinit RealFunction<int (*)(pthread_rwlock_t*)> real_rwlock_unlock{"pthread_rwlock_unlock"};
constinit RealFunction<int (*)(pthread_spinlock_t*)> real_spin_lock{"pthread_spin_lock"};
constinit RealFunction<int (*)(pthread_spinlock_t*)> real_spin_trylock{"pthread_spin_trylock"};

std::string describe_sem(const void* ctx) {
  return strprintf("semaphore %p, count 0", ctx);
}

// A post hands the unit straight to the first waiting fiber (the count stays 0), so waits are
// served in order.
int sem_wait_fiber(Process& p, const char* name, sem_t* s, SimTime deadline) {
  FiberCall call(p, name);
  if (real_sem_trywait(s) == 0) return 0;
  if (errno != EAGAIN) return -1;
  FiberWaiter w{p.id()};
  SyncObject& o = sync_entry(p.owner(), s);
  o.waiters.push_back(&w);
  if (wait_granted(call, o, w, WaitReason{name, &describe_sem, s}, deadline)) return 0;
  drop_if_idle(p.owner(), s);
  errno = ETIMEDOUT;
  return -1;
}

int sem_post_fiber(Process& p, sem_t* s) {
  FiberCall call(p, "sem_post");
  SyncObject* o = find_sync(p.owner(), s);
  if (o && grant_first(*o) >= 0) {
    drop_if_idle(p.owner(), s);
    return 0;
  }
  return real_sem_post(s);
}

std::string describe_rwlock(const void* ctx) {
  return strprintf("read-write lock %p", ctx);
}

// The lock's own word decides; a fiber that cannot take it waits for the next unlock and tries
// again (a writer holding it makes even its own thread's tries fail, as glibc's do).
int rwlock_fiber(Process& p, const char* name, pthread_rwlock_t* l,
                 RealFunction<int (*)(pthread_rwlock_t*)>& try_lock) {
  FiberCall call(p, name);
  for (;;) {
    int err = try_lock(l);
    if (err != EBUSY) return err;
    FiberWaiter w{p.id()};
    SyncObject& o = sync_entry(p.owner(), l);
    o.waiters.push_back(&w);
    wait_granted(call, o, w, WaitReason{name, &describe_rwlock, l}, SimTime::max());
  }
}

int rwlock_unlock_fiber(Process& p, pthread_rwlock_t* l) {
  FiberCall call(p, "pthread_rwlock_unlock");
  int err = real_rwlock_unlock(l);
  if (SyncObject* o = find_sync(p.owner(), l)) {
    while (grant_first(*o) >= 0) {  // every waiter tries again
    }
    drop_if_idle(p.owner(), l);
  }
  return err;
}

int spin_lock_fiber(Process& p, pthread_spinlock_t* l) {
  FiberCall call(p, "pthread_spin_lock");
  for (;;) {
    int err = real_spin_trylock(l);
    if (err != EBUSY) return err;
    World::get().charge_poll(false);
    if (is_cancelled(p)) end_cancelled(p);
  }
}

}  // namespace
}  // namespace simmpi::mpi

using namespace simmpi::mpi;
using simmpi::runtime::Process;
using simmpi::runtime::SimTime;

extern "C" {

__attribute__((visibility("default"))) int sem_wait(sem_t* s) {
  Process* p = fiber_caller(__builtin_return_address(0));
  return p ? sem_wait_fiber(*p, "sem_wait", s, SimTime::max()) : real_sem_wait(s);
}

__attribute__((visibility("default"))) int sem_timedwait(sem_t* s, const timespec* abstime) {
  Process* p = fiber_caller(__builtin_return_address(0));
  if (!p) return real_sem_timedwait(s, abstime);
  return sem_wait_fiber(*p, "sem_timedwait", s, deadline_of(*abstime, CLOCK_REALTIME));
}

__attribute__((visibility("default"))) int sem_trywait(sem_t* s) noexcept {
  Process* p = fiber_caller(__builtin_return_address(0));
  if (!p) return real_sem_trywait(s);
  FiberCall call(*p, "sem_trywait");  // what it finds depends on the others up to its time
  return real_sem_trywait(s);
}

__attribute__((visibility("default"))) int sem_post(sem_t* s) noexcept {
  Process* p = fiber_caller(__builtin_return_address(0));
  return p ? sem_post_fiber(*p, s) : real_sem_post(s);
}

__attribute__((visibility("default"))) int pthread_rwlock_rdlock(pthread_rwlock_t* l) noexcept {
  Process* p = fiber_caller(__builtin_return_address(0));
  return p ? rwlock_fiber(*p, "pthread_rwlock_rdlock", l, real_tryrdlock) : real_rdlock(l);
}

__attribute__((visibility("default"))) int pthread_rwlock_wrlock(pthread_rwlock_t* l) noexcept {
  Process* p = fiber_caller(__builtin_return_address(0));
  return p ? rwlock_fiber(*p, "pthread_rwlock_wrlock", l, real_trywrlock) : real_wrlock(l);
}

__attribute__((visibility("default"))) int pthread_rwlock_unlock(pthread_rwlock_t* l) noexcept {
  Process* p = fiber_caller(__builtin_return_address(0));
  return p ? rwlock_unlock_fiber(*p, l) : real_rwlock_unlock(l);
}

__attribute__((visibility("default"))) int pthread_spin_lock(pthread_spinlock_t* l) noexcept {
  Process* p = fiber_caller(__builtin_return_address(0));
  return p ? spin_lock_fiber(*p, l) : real_spin_lock(l);
}

}  // extern "C"
