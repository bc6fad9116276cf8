/* SPDX-License-Identifier: Apache-2.0 */
/* The MPI side of spine_bench: every rank calls MPI_Allreduce on 8 doubles ITERATIONS times,
 * timed with the host's clock (a raw system call, not redirected to simulated time).
 * Usage: allreduce_bench ITERATIONS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "host_clock.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long n = argc > 1 ? atol(argv[1]) : 100;
  double in[8], out[8];
  for (int i = 0; i < 8; ++i) in[i] = rank + i;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = host_seconds();
  for (long i = 0; i < n; ++i) MPI_Allreduce(in, out, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double wall = host_seconds() - t0;
  if (rank == 0)
    printf("iterations=%ld wall_s=%.6f result_ok=%d simulated_s=%.9f\n", n, wall,
           out[0] == (double)size * (size - 1) / 2, MPI_Wtime());
  MPI_Finalize();
  return 0;
}
