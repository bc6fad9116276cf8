/* SPDX-License-Identifier: Apache-2.0 */
/* A distributed counter on rank 0: every rank takes TAKES tickets with MPI_Fetch_and_op under
 * MPI_Win_lock_all, flushing after each. The tickets of all ranks must be exactly 0 .. n*TAKES-1
 * and the counter n*TAKES. Prints the simulated time (the same inputs give the same time).
 *   rma_counter [TAKES] */
#include <stdlib.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int takes = argc > 1 ? atoi(argv[1]) : 4;
  long* counter;
  MPI_Win win;
  MPI_Win_allocate(rank == 0 ? sizeof(long) : 0, sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &counter, &win);
  if (rank == 0) *counter = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  long* tickets = malloc(sizeof(long) * takes);
  long one = 1;
  MPI_Win_lock_all(0, win);
  for (int k = 0; k < takes; ++k) {
    MPI_Fetch_and_op(&one, &tickets[k], MPI_LONG, 0, 0, MPI_SUM, win);
    MPI_Win_flush(0, win);
  }
  MPI_Win_unlock_all(win);
  double mine = MPI_Wtime() - t0, slowest = 0;
  MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  long* all = rank == 0 ? malloc(sizeof(long) * takes * size) : NULL;
  MPI_Gather(tickets, takes, MPI_LONG, all, takes, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    long n = (long)takes * size;
    char* seen = calloc(n, 1);
    int bad = 0;
    for (long i = 0; i < n; ++i) {
      if (all[i] < 0 || all[i] >= n || seen[all[i]])
        ++bad;
      else
        seen[all[i]] = 1;
    }
    CHECK(bad == 0, "%d tickets out of range or taken twice", bad);
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    CHECK(*counter == n, "counter %ld, expected %ld", *counter, n);
    MPI_Win_unlock(0, win);
    printf("rma_counter: %d ranks took %ld tickets in %.12f s simulated\n", size, n, slowest);
    free(seen);
    free(all);
  }
  free(tickets);
  MPI_Win_free(&win);
  return finish("rma_counter");
}
