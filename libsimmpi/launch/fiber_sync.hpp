// SPDX-License-Identifier: Apache-2.0
// Mutexes, condition variables, barriers and semaphores among the fibers of a rank.
//
// A synchronization object that a fiber waits on, or that a fiber holds (a mutex), has an entry
// in one table, keyed by (rank, address): with the copying privatizer every rank's copy of a
// global mutex has the same address. The entry queues the waiting fibers first come, first
// served, and a mutex or semaphore is handed to the first of them on release, so waits are
// fair and a run is the same every time. The object's own memory keeps what the C library keeps
// (a mutex's lock word, a semaphore's count), so real threads (OpenMP's) and fibers can use the
// same object at different times, and pthread_mutex_trylock and sem_getvalue keep working.
// Entries go away when nobody holds or waits (barriers keep theirs until destroyed).
#pragma once

#include <pthread.h>

#include <deque>

#include "libsimmpi/launch/fiber_threads.hpp"

namespace simmpi::mpi {

struct FiberWaiter {
  int process = -1;
  bool granted = false;  // what it waits for was handed to it (or, rwlocks: try again)
};

struct SyncObject {
  int holder = -1;  // a mutex: the process holding it
  int depth = 0;    // times its holder locked it (recursive mutexes)
  std::deque<FiberWaiter*> waiters;
  unsigned count = 0;  // a barrier: threads it waits for, arrived so far, rounds completed
  unsigned arrived = 0;
  unsigned generation = 0;
};

// The entry of (rank, address), or nullptr.
SyncObject* find_sync(int rank, const void* address);
SyncObject& sync_entry(int rank, const void* address);
// Removes the entry when nobody holds it or waits on it and it is not a barrier.
void drop_if_idle(int rank, const void* address);

// Blocks the call's fiber, already queued on `o`, until it is granted (true) or until `deadline`
// (false, and it is no longer queued). A thread whose rank ends meanwhile ends here.
bool wait_granted(FiberCall& call, SyncObject& o, FiberWaiter& w, const runtime::WaitReason& why,
                  runtime::SimTime deadline);
// Grants the first waiter of `o` and wakes it now: its process id, or -1 when nobody waits.
int grant_first(SyncObject& o);

// pthread_mutex_trylock for the call's fiber: 0 or EBUSY (or the C library's error).
int try_acquire_mutex(FiberCall& call, pthread_mutex_t* m);
// Locks `m` for the call's fiber, waiting until `deadline` (ETIMEDOUT) as pthread_mutex_lock
// does. May yield.
int acquire_mutex(FiberCall& call, pthread_mutex_t* m, runtime::SimTime deadline);
// Unlocks `m`, handing it to the first fiber waiting for it. Never yields.
int release_mutex(FiberCall& call, pthread_mutex_t* m);

}  // namespace simmpi::mpi
