/* SPDX-License-Identifier: Apache-2.0 */
/* Programs for record-then-replay tests (replay_test.sh) of one-sided communication, one per
 * argument:
 *   fence    MPI_Win_create over the program's memory: MPI_Put to the next rank, MPI_Get from
 *            the previous one, MPI_Accumulate to rank 0, between fences with compute, checked
 *   lock     MPI_Win_allocate: exclusive and shared locks, MPI_Get_accumulate, MPI_Fetch_and_op
 *            (a counter every rank increments) and MPI_Compare_and_swap, MPI_Win_flush and
 *            _flush_local; MPI_Win_lock_all with MPI_Rput, MPI_Rget, MPI_Raccumulate and
 *            MPI_Rget_accumulate completed by Waitall, MPI_Win_flush_all and _flush_local_all
 *   pscw     MPI_Win_post, _start, _complete and _wait between neighbours on a ring, and an
 *            MPI_Win_allocate_shared window of the node's ranks with MPI_Win_shared_query,
 *            loads and stores, and MPI_Win_sync
 * Values are checked where the program decides something from them, so a run also tests MPI. */
#include <mpi.h>
#include <simmpi_compute.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void fail(const char* what) {
  fprintf(stderr, "replay_rma: rank %d: %s\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

static void fence(void) {
  enum { n = 20000 };
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double* mem = calloc(3 * n, sizeof(double));
  double *mine = calloc(n, sizeof(double)), *got = calloc(n / 2, sizeof(double));
  for (int i = 0; i < n; ++i) mine[i] = rank;
  MPI_Win w;
  MPI_Win_create(mem, 3 * n * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &w);
  for (int step = 0; step < 3; ++step) {
    MPI_Win_fence(step == 0 ? MPI_MODE_NOPRECEDE : 0, w);
    MPI_Put(mine, n / (step + 1), MPI_DOUBLE, next, 0, n / (step + 1), MPI_DOUBLE, w);
    MPI_Get(got, n / 2, MPI_DOUBLE, prev, n, n / 2, MPI_DOUBLE, w);
    MPI_Accumulate(mine, 100, MPI_DOUBLE, 0, 2 * n, 100, MPI_DOUBLE, MPI_SUM, w);
    SIMMPI_COMPUTE(2e6 * (1 + (rank + step) % 3), 1e5);
    MPI_Win_fence(0, w);
    if (mem[0] != prev) fail("the previous rank's put");
  }
  MPI_Win_fence(MPI_MODE_NOSUCCEED, w);
  MPI_Win_free(&w);
  free(mem), free(mine), free(got);
}

static void lock(void) {
  enum { n = 8000 };
  const int next = (rank + 1) % size;
  long long* base;
  MPI_Win w;
  MPI_Win_allocate(n * sizeof(long long), sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                   &w);
  memset(base, 0, n * sizeof(long long));
  MPI_Barrier(MPI_COMM_WORLD);
  long long* buf = calloc(2 * n, sizeof(long long));
  long long one = 1, old = -1, swapped = -1, compare = 0;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w);
  MPI_Fetch_and_op(&one, &old, MPI_LONG_LONG, 0, 0, MPI_SUM, w);
  MPI_Win_unlock(0, w);
  if (old < 0 || old >= size) fail("the counter");
  SIMMPI_COMPUTE(1e6 * (rank % 4 + 1), 0);
  MPI_Win_lock(MPI_LOCK_SHARED, next, 0, w);
  MPI_Get_accumulate(buf, 1000, MPI_LONG_LONG, buf + n, 1000, MPI_LONG_LONG, next, 10, 1000,
                     MPI_LONG_LONG, MPI_MAX, w);
  MPI_Win_flush_local(next, w);
  MPI_Compare_and_swap(&one, &compare, &swapped, MPI_LONG_LONG, next, n - 1, w);
  MPI_Win_flush(next, w);
  MPI_Put(buf, n / 2, MPI_LONG_LONG, next, n / 2, n / 2, MPI_LONG_LONG, w);
  MPI_Win_unlock(next, w);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, w);
  MPI_Request q[4];
  MPI_Rput(buf, 3000, MPI_LONG_LONG, next, 0, 3000, MPI_LONG_LONG, w, &q[0]);
  MPI_Rget(buf + n, 2000, MPI_LONG_LONG, (rank + size - 1) % size, 4000, 2000, MPI_LONG_LONG, w,
           &q[1]);
  MPI_Raccumulate(buf, 500, MPI_LONG_LONG, 0, 7000, 500, MPI_LONG_LONG, MPI_SUM, w, &q[2]);
  MPI_Rget_accumulate(NULL, 0, MPI_LONG_LONG, buf + n + 3000, 100, MPI_LONG_LONG, next, 5000, 100,
                      MPI_LONG_LONG, MPI_NO_OP, w, &q[3]);
  SIMMPI_COMPUTE(3e6, 0);
  MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
  MPI_Win_flush_local_all(w);
  MPI_Put(buf, 10, MPI_LONG_LONG, next, 6000, 10, MPI_LONG_LONG, w);
  MPI_Win_flush_all(w);
  MPI_Win_unlock_all(w);
  MPI_Win_free(&w);
  free(buf);
}

static void pscw(void) {
  enum { n = 10000 };
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double* base;
  MPI_Win w;
  MPI_Win_allocate(2 * n * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                   &w);
  double* out = calloc(n, sizeof(double));
  MPI_Group world, to, from;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &next, &to);
  MPI_Group_incl(world, 1, &prev, &from);
  for (int step = 0; step < 3; ++step) {
    MPI_Win_post(from, 0, w);
    MPI_Win_start(to, 0, w);
    MPI_Put(out, n / (step + 1), MPI_DOUBLE, next, 0, n / (step + 1), MPI_DOUBLE, w);
    SIMMPI_COMPUTE(1.5e6 * (1 + (rank + step) % 2), 0);
    MPI_Win_complete(w);
    MPI_Win_wait(w);
  }
  MPI_Group_free(&to), MPI_Group_free(&from), MPI_Group_free(&world);
  MPI_Win_free(&w);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int me;
  MPI_Comm_rank(node, &me);
  int* mine;
  MPI_Win_allocate_shared(1000 * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &w);
  MPI_Win_fence(0, w);
  mine[0] = me;
  MPI_Win_sync(w);
  MPI_Win_fence(0, w);
  int* first;
  MPI_Aint bytes;
  int unit;
  MPI_Win_shared_query(w, 0, &bytes, &unit, &first);
  if (first[0] != 0 || bytes != 1000 * (MPI_Aint)sizeof(int))
    fail("the shared window's first part");
  MPI_Win_free(&w);
  MPI_Comm_free(&node);
  free(out);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "fence"))
      fence();
    else if (!strcmp(argv[i], "lock"))
      lock();
    else if (!strcmp(argv[i], "pscw"))
      pscw();
    else {
      fprintf(stderr, "replay_rma: unknown part %s\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  MPI_Finalize();
  return 0;
}
