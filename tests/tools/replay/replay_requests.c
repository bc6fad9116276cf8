/* SPDX-License-Identifier: Apache-2.0 */
/* Programs for record-then-replay tests (replay_test.sh) of partitioned communication and
 * generalized requests, one per argument:
 *   partitioned  a ring exchange on partitioned requests (MPI_Psend_init of 8 partitions to the
 *                next rank, MPI_Precv_init of 4 from the previous one), started by MPI_Startall
 *                over steps, the partitions marked ready by MPI_Pready, MPI_Pready_range and
 *                MPI_Pready_list between computations, completed by MPI_Waitall, then freed
 *   poll         the same, the receiver polling MPI_Parrived until its first partition is
 *                there (the number of polls depends on the platform)
 *   generalized  generalized requests (MPI_Grequest_start) completed by the program itself
 *                (MPI_Grequest_complete) after compute, waited for alone, with MPI_Waitall among
 *                messages, one freed before it completed, one cancelled
 * Values are checked where the program decides something from them, so a run also tests MPI. */
#include <mpi.h>
#include <simmpi_compute.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void ring(int poll) {
  enum { parts = 8, count = 2000 };
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double *out = calloc(parts * count, sizeof(double)), *in = calloc(parts * count, sizeof(double));
  MPI_Request q[2];
  MPI_Psend_init(out, parts, count, MPI_DOUBLE, next, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &q[0]);
  MPI_Precv_init(in, parts / 2, 2 * count, MPI_DOUBLE, prev, 7, MPI_COMM_WORLD, MPI_INFO_NULL,
                 &q[1]);
  for (int step = 0; step < 3; ++step) {
    MPI_Startall(2, q);
    for (int p = 0; p < parts; ++p) out[p * count] = rank * 100 + step;
    SIMMPI_COMPUTE(1e6 * (1 + (rank + step) % 3), 1e5);
    MPI_Pready(0, q[0]);
    MPI_Pready_range(1, 3, q[0]);
    SIMMPI_COMPUTE(2e6, 0);
    const int rest[4] = {7, 5, 4, 6};
    MPI_Pready_list(4, rest, q[0]);
    if (poll) {
      int flag = 0;
      while (!flag) MPI_Parrived(q[1], 0, &flag);
    }
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    if (in[0] != prev * 100 + step) {
      fprintf(stderr, "replay_requests: rank %d: step %d: wrong data\n", rank, step);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
  }
  MPI_Request_free(&q[0]), MPI_Request_free(&q[1]);
  free(out), free(in);
}

static int completed_calls;

static int query(void* state, MPI_Status* status) {
  (void)state;
  MPI_Status_set_elements(status, MPI_BYTE, 0);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED, status->MPI_TAG = MPI_UNDEFINED;
  ++completed_calls;
  return MPI_SUCCESS;
}
static int release(void* state) {
  (void)state;
  return MPI_SUCCESS;
}
static int cancel(void* state, int complete) {
  (void)state, (void)complete;
  return MPI_SUCCESS;
}

static void generalized(void) {
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  char out[5000] = {0}, in[5000];
  MPI_Request g[3], q[3];
  for (int i = 0; i < 3; ++i) MPI_Grequest_start(query, release, cancel, NULL, &g[i]);
  MPI_Irecv(in, sizeof in, MPI_CHAR, prev, 1, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(out, sizeof out, MPI_CHAR, next, 1, MPI_COMM_WORLD, &q[1]);
  SIMMPI_COMPUTE(2e6 * (rank % 3 + 1), 0);
  MPI_Grequest_complete(g[0]);
  MPI_Wait(&g[0], MPI_STATUS_IGNORE);
  MPI_Request freed = g[1];
  MPI_Request_free(&g[1]); /* freed first: completing it releases it */
  SIMMPI_COMPUTE(1e6, 0);
  MPI_Grequest_complete(freed);
  MPI_Cancel(&g[2]);
  MPI_Grequest_complete(g[2]);
  q[2] = g[2];
  MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
  if (completed_calls != 2) {
    fprintf(stderr, "replay_requests: rank %d: %d queries\n", rank, completed_calls);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "partitioned") || !strcmp(argv[i], "poll")) {
      ring(!strcmp(argv[i], "poll"));
    } else if (!strcmp(argv[i], "generalized")) {
      generalized();
    } else {
      fprintf(stderr, "replay_requests: unknown part %s\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  MPI_Finalize();
  return 0;
}
