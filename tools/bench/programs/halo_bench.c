/* SPDX-License-Identifier: Apache-2.0 */
/* A halo exchange on a ring, the pattern of most stencil codes: each step every rank computes
 * (simmpi_sleep: lazily charged time, uneven across ranks), then posts MPI_Irecv from both
 * neighbours, MPI_Isend to both, and MPI_Waitall. Timed with the host's clock (a raw system
 * call, not redirected to simulated time). Shows what posting ahead (Scheduler::post_ahead)
 * saves: run it with two libsimmpi builds (LD_LIBRARY_PATH) and compare.
 * Usage: halo_bench STEPS [DOUBLES] */
#include <mpi.h>
#include <simmpi_compute.h>
#include <stdio.h>
#include <stdlib.h>

#include "host_clock.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long steps = argc > 1 ? atol(argv[1]) : 100;
  int doubles = argc > 2 ? atoi(argv[2]) : 512;
  double* halo = calloc(4 * (size_t)doubles, sizeof(double));
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = host_seconds();
  for (long s = 0; s < steps; ++s) {
    simmpi_sleep(1e-4 * (1 + rank % 7) / 4); /* uneven compute, so ranks drift apart */
    MPI_Request reqs[4];
    MPI_Irecv(halo, doubles, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(halo + doubles, doubles, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &reqs[1]);
    MPI_Isend(halo + 2 * doubles, doubles, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[2]);
    MPI_Isend(halo + 3 * doubles, doubles, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &reqs[3]);
    MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
  }
  double wall = host_seconds() - t0;
  if (rank == 0)
    printf("steps=%ld ranks=%d wall_s=%.3f simulated_s=%.9f\n", steps, size, wall, MPI_Wtime());
  free(halo);
  MPI_Finalize();
  return 0;
}
