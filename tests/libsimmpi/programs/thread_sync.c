/* SPDX-License-Identifier: Apache-2.0 */
/* pthread synchronization among a rank's threads, which are fibers of the rank: each phase
 * starts THREADS threads that contend for a mutex, a condition variable, a barrier, semaphores
 * and a read-write lock, yielding (sched_yield, or an MPI call) inside their critical sections so
 * that the fibers really interleave, and checks the totals. The state is in globals, so every
 * rank checks its own copy. Also: recursive and error-checking mutexes, trylock, a timed wait
 * that times out after the simulated time it asked for, pthread_exit, and a detached thread left
 * waiting when its rank ends. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <time.h>

#include "check.h"

enum { THREADS = 4, ROUNDS = 50, ITEMS = 200, SLOTS = 4 };

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static int counter, contended;

/* A yield inside the critical section: without mutual exclusion updates would be lost. */
static void yield(int i) {
  if (i % 2)
    sched_yield();
  else
    MPI_Wtime();
}

static void* count(void* arg) {
  for (int i = 0; i < ROUNDS; ++i) {
    if (pthread_mutex_trylock(&mutex) == EBUSY) {
      ++contended; /* not under the mutex, but fibers never run at once */
      pthread_mutex_lock(&mutex);
    }
    int v = counter;
    yield(i);
    counter = v + 1;
    pthread_mutex_unlock(&mutex);
  }
  return arg;
}

/* A bounded buffer: thread 0 produces 1..ITEMS then one 0 per consumer; the others consume. */
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER, not_full = PTHREAD_COND_INITIALIZER;
static int ring[SLOTS], head, used;
static long consumed_sum;

static void put(int v) {
  pthread_mutex_lock(&mutex);
  while (used == SLOTS) pthread_cond_wait(&not_full, &mutex);
  ring[(head + used++) % SLOTS] = v;
  pthread_cond_signal(&not_empty);
  pthread_mutex_unlock(&mutex);
}

static int take(void) {
  pthread_mutex_lock(&mutex);
  while (used == 0) pthread_cond_wait(&not_empty, &mutex);
  int v = ring[head];
  head = (head + 1) % SLOTS;
  --used;
  pthread_cond_broadcast(&not_full);
  pthread_mutex_unlock(&mutex);
  return v;
}

static void* produce_consume(void* arg) {
  if ((long)arg == 0) {
    for (int v = 1; v <= ITEMS; ++v) put(v);
    for (int c = 1; c < THREADS; ++c) put(0);
    return NULL;
  }
  for (int v; (v = take()) != 0;) {
    sched_yield();
    pthread_mutex_lock(&mutex);
    consumed_sum += v;
    pthread_mutex_unlock(&mutex);
  }
  return NULL;
}

static pthread_barrier_t barrier;
static int slot[THREADS], barrier_errors, serial_returns;

static void* rounds(void* arg) {
  int t = (int)(long)arg;
  for (int r = 1; r <= ROUNDS; ++r) {
    slot[t] = r;
    if (t == r % THREADS) sched_yield(); /* a different latecomer each round */
    if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD) ++serial_returns;
    for (int u = 0; u < THREADS; ++u) barrier_errors += slot[u] != r;
    pthread_barrier_wait(&barrier);
  }
  return NULL;
}

static sem_t ping, pong;
static int volleys;

static void* ping_pong(void* arg) {
  for (int i = 0; i < ROUNDS; ++i) {
    if ((long)arg % 2) {
      sem_wait(&ping);
      ++volleys;
      sem_post(&pong);
    } else {
      sem_post(&ping);
      sem_wait(&pong);
    }
  }
  return NULL;
}

static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static int guarded;

static void* read_write(void* arg) {
  for (int i = 0; i < ROUNDS; ++i) {
    if ((long)arg % 2) {
      pthread_rwlock_wrlock(&rwlock);
      int v = guarded;
      yield(i);
      guarded = v + 1;
    } else {
      pthread_rwlock_rdlock(&rwlock);
      yield(i);
    }
    pthread_rwlock_unlock(&rwlock);
  }
  return NULL;
}

static void run_phase(void* (*fn)(void*)) {
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; ++i) pthread_create(&t[i], NULL, fn, (void*)i);
  for (int i = 0; i < THREADS; ++i) pthread_join(t[i], NULL);
}

static void* try_recursive(void* arg) {
  *(int*)arg = pthread_mutex_trylock(&mutex);
  if (*(int*)arg == 0) pthread_mutex_unlock(&mutex);
  return NULL;
}

/* A recursive mutex locked twice stays held by its fiber until unlocked twice; an
 * error-checking one refuses a second lock. */
static void check_mutex_kinds(void) {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&mutex, &attr);
  CHECK(pthread_mutex_lock(&mutex) == 0 && pthread_mutex_lock(&mutex) == 0, "recursive locks");
  int seen[3];
  pthread_t t;
  for (int i = 0; i < 3; ++i) {
    pthread_create(&t, NULL, try_recursive, &seen[i]);
    pthread_join(t, NULL);
    if (i < 2) pthread_mutex_unlock(&mutex);
  }
  CHECK(seen[0] == EBUSY && seen[1] == EBUSY && seen[2] == 0,
        "another thread's trylock while locked twice, once, never: %d %d %d", seen[0], seen[1],
        seen[2]);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&mutex, &attr);
  pthread_mutex_lock(&mutex);
  CHECK(pthread_mutex_lock(&mutex) == EDEADLK, "an error-checking mutex locked twice");
  pthread_mutex_unlock(&mutex);
  pthread_mutexattr_destroy(&attr);
}

/* Nobody signals: the wait ends at its deadline, 1 ms of simulated time later. */
static void check_timed_wait(void) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline); /* simulated time, as MPI_Wtime */
  deadline.tv_nsec += 1000000;
  if (deadline.tv_nsec >= 1000000000) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000;
  }
  double t0 = MPI_Wtime();
  pthread_mutex_lock(&mutex);
  int err = pthread_cond_timedwait(&not_empty, &mutex, &deadline);
  pthread_mutex_unlock(&mutex);
  double waited = MPI_Wtime() - t0;
  CHECK(err == ETIMEDOUT && waited >= 0.99e-3 && waited < 1.1e-3,
        "pthread_cond_timedwait: %d after %.9f s", err, waited);
}

/* pthread_exit from deep inside a thread started by a thread: its value reaches the joiner. */
static void leave(void* arg) {
  pthread_exit((char*)arg + 1);
}

static void* exits_early(void* arg) {
  leave(arg);
  return NULL;
}

static void* starts_one(void* arg) {
  pthread_t t;
  void* result = NULL;
  pthread_create(&t, NULL, exits_early, arg);
  pthread_join(t, &result);
  return result;
}

static void check_exit(void) {
  static char base[4];
  pthread_t t;
  void* result = NULL;
  pthread_create(&t, NULL, starts_one, base);
  pthread_join(t, &result);
  CHECK(result == base + 1, "pthread_exit's value: %p, expected %p", result, (void*)(base + 1));
}

/* A detached thread still waiting when its rank ends ends with it: no deadlock report. */
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

static void* waits_forever(void* arg) {
  pthread_mutex_lock(&mutex);
  for (;;) pthread_cond_wait(&never, &mutex);
  return arg;
}

static void leave_waiter_behind(void) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t t;
  pthread_create(&t, &attr, waits_forever, NULL);
  pthread_attr_destroy(&attr);
  sched_yield(); /* it starts waiting */
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  run_phase(count);
  CHECK(counter == THREADS * ROUNDS, "mutex: counter %d, expected %d", counter, THREADS * ROUNDS);
  CHECK(contended > 0, "mutex: the threads never contended");
  run_phase(produce_consume);
  CHECK(consumed_sum == ITEMS * (ITEMS + 1L) / 2, "condition variables: consumed %ld",
        consumed_sum);
  pthread_barrier_init(&barrier, NULL, THREADS);
  run_phase(rounds);
  pthread_barrier_destroy(&barrier);
  CHECK(barrier_errors == 0 && serial_returns == ROUNDS, "barrier: %d errors, %d serial",
        barrier_errors, serial_returns);
  sem_init(&ping, 0, 0);
  sem_init(&pong, 0, 0);
  run_phase(ping_pong);
  CHECK(volleys == ROUNDS * THREADS / 2, "semaphores: %d volleys", volleys);
  run_phase(read_write);
  CHECK(guarded == ROUNDS * THREADS / 2, "read-write lock: %d", guarded);
  check_mutex_kinds();
  check_timed_wait();
  check_exit();
  leave_waiter_behind();
  return finish("thread_sync");
}
