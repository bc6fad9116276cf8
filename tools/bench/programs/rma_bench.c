/* SPDX-License-Identifier: Apache-2.0 */
/* Host cost of one-sided communication against its two-sided twin, in one run (issue 20):
 *   1. an 8-byte MPI_Put + MPI_Win_flush from rank 0 to rank 1 (under MPI_Win_lock_all)
 *      against an 8-byte MPI_Send/MPI_Recv round trip between the same ranks (pingpong.h);
 *   2. a ring halo on every rank, 8 bytes to each neighbour: MPI_Put between fences against
 *      MPI_Irecv/MPI_Isend/MPI_Waitall.
 * Usage: rma_bench [ROUND_TRIPS [HALO_STEPS]]. Prints two lines a script can parse. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "host_clock.h"
#include "pingpong.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long n = argc > 1 ? atol(argv[1]) : 200000;
  long steps = argc > 2 ? atol(argv[2]) : 100;
  double buf = 1.0, halo[2] = {0, 0}, out = rank;
  MPI_Win win;
  MPI_Win_create(halo, sizeof halo, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);

  double pingpong = pingpong_host_seconds(n, &buf);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);
  double t0 = host_seconds();
  if (rank == 0)
    for (long i = 0; i < n; ++i) {
      MPI_Put(&buf, 1, MPI_DOUBLE, 1, 0, 1, MPI_DOUBLE, win);
      MPI_Win_flush(1, win);
    }
  double put_flush = host_seconds() - t0;
  MPI_Win_unlock_all(win);
  if (rank == 0)
    printf("bench=rma_put_flush round_trips=%ld pingpong_us=%.3f put_flush_us=%.3f ratio=%.3f\n", n,
           pingpong / n * 1e6, put_flush / n * 1e6, put_flush / pingpong);

  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = host_seconds();
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  for (long s = 0; s < steps; ++s) {
    MPI_Put(&out, 1, MPI_DOUBLE, right, 0, 1, MPI_DOUBLE, win);
    MPI_Put(&out, 1, MPI_DOUBLE, left, 1, 1, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
  }
  double fence = host_seconds() - t0;
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = host_seconds();
  for (long s = 0; s < steps; ++s) {
    MPI_Request r[4];
    MPI_Irecv(&halo[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&halo[1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Isend(&out, 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &r[2]);
    MPI_Isend(&out, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &r[3]);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  }
  double p2p = host_seconds() - t0;
  if (rank == 0)
    printf("bench=rma_halo ranks=%d steps=%ld fence_ms=%.3f p2p_ms=%.3f ratio=%.3f\n", size, steps,
           fence * 1e3, p2p * 1e3, fence / p2p);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
