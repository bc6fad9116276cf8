/* SPDX-License-Identifier: Apache-2.0 */
/* MPI from threads under MPI_THREAD_MULTIPLE: each rank starts THREADS pthreads, and thread t of
 * rank r talks to thread t of rank r^1 with tags of its own: a small eager message and a large
 * rendezvous one with blocking MPI_Send/MPI_Recv (both threads of a rank blocked in MPI at once;
 * odd ranks' threads MPI_Probe first), then an MPI_Sendrecv. Meanwhile the rank's own fiber
 * receives from its partner too. Every payload is checked, and so is each thread's return value
 * through pthread_join. */
#include <pthread.h>
#include <simmpi_compute.h>
#include <stdlib.h>

#include "check.h"

enum { THREADS = 2, BIG = 100000 };

static int rank, partner;

static int value(int from_rank, int thread, int i) {
  return from_rank * 1000003 + thread * 1009 + i;
}

static void exchange(int t, int count, int tag) {
  int* out = malloc(sizeof(int) * count);
  int* in = malloc(sizeof(int) * count);
  for (int i = 0; i < count; ++i) out[i] = value(rank, t, i);
  if (rank % 2 == 0) {
    SIMMPI_SLEEP(1e-5); /* the partner's thread waits in MPI_Probe by then */
    MPI_Send(out, count, MPI_INT, partner, tag, MPI_COMM_WORLD);
    MPI_Recv(in, count, MPI_INT, partner, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Status st;
    int probed = -1;
    MPI_Probe(partner, tag, MPI_COMM_WORLD, &st); /* wakes this thread, not the rank's fiber */
    MPI_Get_count(&st, MPI_INT, &probed);
    CHECK(probed == count, "thread %d: MPI_Probe saw %d ints, expected %d", t, probed, count);
    MPI_Recv(in, count, MPI_INT, partner, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(out, count, MPI_INT, partner, tag, MPI_COMM_WORLD);
  }
  int bad = 0;
  for (int i = 0; i < count; ++i) bad += in[i] != value(partner, t, i);
  CHECK(bad == 0, "thread %d: %d of %d ints from rank %d wrong (tag %d)", t, bad, count, partner,
        tag);
  free(out);
  free(in);
}

static void* thread_main(void* arg) {
  int t = (int)(long)arg;
  exchange(t, 16, 10 + t);
  exchange(t, BIG, 20 + t);
  int out = value(rank, t, -1), in = 0;
  MPI_Status st;
  MPI_Sendrecv(&out, 1, MPI_INT, partner, 30 + t, &in, 1, MPI_INT, partner, 30 + t, MPI_COMM_WORLD,
               &st);
  CHECK(in == value(partner, t, -1) && st.MPI_TAG == 30 + t && st.MPI_SOURCE == partner,
        "thread %d: MPI_Sendrecv got %d tag %d from %d", t, in, st.MPI_TAG, st.MPI_SOURCE);
  return (void*)(long)(100 + t);
}

int main(int argc, char** argv) {
  int provided, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(provided == MPI_THREAD_MULTIPLE, "provided %d", provided);
  CHECK(size % 2 == 0, "needs an even number of ranks, not %d", size);
  partner = rank ^ 1;
  pthread_t threads[THREADS];
  for (long t = 0; t < THREADS; ++t) pthread_create(&threads[t], NULL, thread_main, (void*)t);
  /* The rank's own fiber is in MPI too while its threads are. */
  int mine = rank, theirs = -1;
  MPI_Sendrecv(&mine, 1, MPI_INT, partner, 99, &theirs, 1, MPI_INT, partner, 99, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  CHECK(theirs == partner, "main fiber got %d from %d", theirs, partner);
  for (int t = 0; t < THREADS; ++t) {
    void* result = NULL;
    CHECK(pthread_join(threads[t], &result) == 0, "pthread_join(%d) failed", t);
    CHECK((long)result == 100 + t, "thread %d returned %ld", t, (long)result);
  }
  return finish("threads_p2p");
}
