/* SPDX-License-Identifier: Apache-2.0 */
/* A real deadlock among a rank's threads: thread 1 locks a then b, thread 2 locks b then a, each
 * yielding in between, and the rank's own fiber joins them. The run must end with the deadlock
 * report naming each thread, the call and the mutex's holder (exit status 3), never hang.
 *   thread_deadlock        the two mutexes
 *   thread_deadlock spin   thread 1 spins on sched_yield for a flag nobody sets */
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

static volatile int flag;

static void* spin(void* arg) {
  while (!flag) sched_yield();
  return arg;
}

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;

static void* lock_two(void* arg) {
  pthread_mutex_t* first = arg ? &a : &b;
  pthread_mutex_t* second = arg ? &b : &a;
  pthread_mutex_lock(first);
  sched_yield();
  pthread_mutex_lock(second);
  pthread_mutex_unlock(second);
  pthread_mutex_unlock(first);
  return NULL;
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  pthread_t t1, t2;
  if (argc > 1 && !strcmp(argv[1], "spin")) {
    pthread_create(&t1, NULL, spin, NULL);
    pthread_join(t1, NULL);
  }
  pthread_create(&t1, NULL, lock_two, &a);
  pthread_create(&t2, NULL, lock_two, NULL);
  pthread_join(t1, NULL);
  pthread_join(t2, NULL);
  MPI_Finalize();
  return 0;
}
