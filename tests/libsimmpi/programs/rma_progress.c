/* SPDX-License-Identifier: Apache-2.0 */
/* Who serves one-sided operations at the target (mpi.rma.progress). Rank 1 sleeps 100 us while
 * rank 0 puts 8 bytes into its window and flushes:
 *   rma_progress hardware LATENCY     the flush ends 2L + S/B after the put (+ o_put, o_sync),
 *                                     whatever rank 1 does;
 *   rma_progress target_call LATENCY  the put waits for rank 1's next MPI call: the flush ends
 *                                     L (the acknowledgement) after rank 1 wakes.
 * Needs 2 ranks on different nodes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static long long ps_now(void) {
  return llround(simmpi_now() * 1e12);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int target_call = argc > 1 && !strcmp(argv[1], "target_call");
  long long lat = argc > 2 ? atoll(argv[2]) : 0;
  long long buf[2] = {0, 0}, x = 42, times[2] = {0, 0};
  MPI_Win win;
  MPI_Win_create(buf, sizeof buf, sizeof(long long), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_lock_all(0, win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    usleep(100);
    times[1] = ps_now(); /* back in MPI from here on */
  } else {
    times[0] = ps_now();
    MPI_Put(&x, 1, MPI_LONG_LONG, 1, 0, 1, MPI_LONG_LONG, win);
    MPI_Win_flush(1, win);
    times[1] = ps_now();
  }
  long long woke = 0;
  if (rank == 1) MPI_Send(&times[1], 1, MPI_LONG_LONG, 0, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Recv(&woke, 1, MPI_LONG_LONG, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long long took = times[1] - times[0];
    if (target_call)
      CHECK(times[1] == woke + lat,
            "flush ended at %lld ps, rank 1 woke at %lld: expected L = "
            "%lld after",
            times[1], woke, lat);
    else
      CHECK(times[1] < woke && took < 10 * lat, "flush took %lld ps (rank 1 woke at %lld)", took,
            woke);
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(rank != 1 || buf[0] == 42, "put: %lld", buf[0]);
  MPI_Win_free(&win);
  return finish("rma_progress");
}
