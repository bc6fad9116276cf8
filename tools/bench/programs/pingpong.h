/* SPDX-License-Identifier: Apache-2.0 */
/* The 8-byte ping-pong the benchmark programs time and measure others against (pingpong_bench,
 * rma_bench): after a barrier, ROUND_TRIPS MPI_Send/MPI_Recv round trips of *BUF between ranks
 * 0 and 1 (other ranks only enter the barrier). Returns the host seconds they took on the
 * calling rank (host_clock.h). */
#ifndef SIMMPI_BENCH_PINGPONG_H
#define SIMMPI_BENCH_PINGPONG_H

#include <mpi.h>

#include "host_clock.h"

static double pingpong_host_seconds(long round_trips, double* buf) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = host_seconds();
  for (long i = 0; i < round_trips; ++i) {
    if (rank == 0) {
      MPI_Send(buf, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
  }
  return host_seconds() - t0;
}

#endif
