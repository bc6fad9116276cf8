/* SPDX-License-Identifier: Apache-2.0 */
/* Nonblocking collectives beyond "start, then wait at once" (collectives.c covers that):
 *  - they progress while the rank computes: an MPI_Iallreduce that finishes during a computation
 *    longer than it adds nothing to it, and completes when its blocking form would;
 *  - several are in flight on one communicator at once, with a blocking collective among them,
 *    completed in different orders on different ranks;
 *  - their buffers may be the rank's global variables (each rank has its own copy);
 *  - an active one cannot be freed. */
#include <math.h>
#include <stdlib.h>

#include "check.h"

static int rank, size;

static long long ps_now(void) {
  return llround(simmpi_now() * 1e12);
}

/* Computes (here: calls the clock, which costs mpi.poll_cost) until `until_ps`. */
static void compute_until(long long until_ps) {
  while (ps_now() < until_ps) MPI_Wtime();
}

/* Simulated duration of a blocking MPI_Allreduce of n doubles, the ranks starting together. */
static long long blocking_allreduce_ps(double* in, double* out, int n) {
  MPI_Barrier(MPI_COMM_WORLD);
  long long t0 = ps_now();
  MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  long long t = ps_now() - t0, longest;
  MPI_Allreduce(&t, &longest, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  return longest;
}

static void overlap(void) {
  enum { N = 4096 };
  double* in = malloc(N * sizeof(double));
  double* out = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i) in[i] = rank + i;
  long long alone = blocking_allreduce_ps(in, out, N);
  CHECK(size == 1 || alone > 0, "allreduce takes time");
  /* Polled to completion: it completes when the blocking form would (within one
   * poll of mpi.poll_cost = 50 ns). */
  MPI_Barrier(MPI_COMM_WORLD);
  long long t0 = ps_now();
  MPI_Request r;
  int flag = 0;
  MPI_Iallreduce(in, out, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
  while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  long long done = ps_now() - t0, latest;
  MPI_Allreduce(&done, &latest, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  CHECK(latest >= alone && latest <= alone + 50000,
        "polled iallreduce done after %lld ps, blocking %lld ps", latest, alone);
  /* Hidden behind a computation three times as long: waiting for it costs nothing more. */
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = ps_now();
  MPI_Iallreduce(in, out, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
  compute_until(t0 + 3 * alone);
  long long before_wait = ps_now();
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(ps_now() == before_wait, "the wait after the computation took %lld ps",
        ps_now() - before_wait);
  int ok = 1;
  for (int i = 0; i < N; ++i) ok &= out[i] == (double)size * (size - 1) / 2 + (double)size * i;
  CHECK(ok, "overlapped iallreduce result");
  free(in);
  free(out);
}

static void several_in_flight(void) {
  int root = size - 1;
  int b = rank == root ? 4242 : -1;
  long long v = rank + 1, sum = 0, blocking_sum = 0;
  int* send = malloc(size * sizeof(int));
  int* recv = malloc(size * sizeof(int));
  for (int i = 0; i < size; ++i) send[i] = rank * 100 + i;
  MPI_Request r[4];
  MPI_Ibcast(&b, 1, MPI_INT, root, MPI_COMM_WORLD, &r[0]);
  MPI_Iallreduce(&v, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &r[1]);
  MPI_Ialltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD, &r[2]);
  MPI_Allreduce(&v, &blocking_sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Ibarrier(MPI_COMM_WORLD, &r[3]);
  if (rank % 2) { /* odd ranks complete them in reverse order, even ones all at once */
    for (int i = 3; i >= 0; --i) MPI_Wait(&r[i], MPI_STATUS_IGNORE);
  } else {
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  }
  long long expect = (long long)size * (size + 1) / 2;
  CHECK(b == 4242, "ibcast in flight with others: %d", b);
  CHECK(sum == expect && blocking_sum == expect, "iallreduce %lld, allreduce %lld", sum,
        blocking_sum);
  int ok = 1;
  for (int i = 0; i < size; ++i) ok &= recv[i] == i * 100 + rank;
  CHECK(ok, "ialltoall in flight with others");
  for (int i = 0; i < 4; ++i) CHECK(r[i] == MPI_REQUEST_NULL, "request %d released", i);
  free(send);
  free(recv);
}

/* Globals are private per rank; the auxiliary process of a rank reads and writes that rank's. */
static int g_mine = -1, g_all[64];

static void global_buffers(void) {
  if (size > 64) return;
  g_mine = rank * 7;
  MPI_Request r;
  MPI_Iallgather(&g_mine, 1, MPI_INT, g_all, 1, MPI_INT, MPI_COMM_WORLD, &r);
  compute_until(ps_now() + 20000000); /* 20 us, during which other ranks' copies are live */
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  int ok = 1;
  for (int i = 0; i < size; ++i) ok &= g_all[i] == i * 7;
  CHECK(ok && g_mine == rank * 7, "iallgather into globals");
}

static void cannot_free_active(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Request r;
  int v = rank;
  MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
  if (rank != 0) { /* rank 0's broadcast may already be done; the others wait for data */
    int err = MPI_Request_free(&r);
    CHECK(err == MPI_ERR_REQUEST, "MPI_Request_free of an active ibcast returned %d", err);
  }
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(v == 0, "ibcast after the refused free");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  overlap();
  several_in_flight();
  global_buffers();
  cannot_free_active();
  return finish("nonblocking");
}
