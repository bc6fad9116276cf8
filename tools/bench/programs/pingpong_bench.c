/* SPDX-License-Identifier: Apache-2.0 */
/* The MPI side of spine_bench: an 8-byte ping-pong between ranks 0 and 1 (pingpong.h), timed with
 * the host's clock (a raw system call, which simmpi does not redirect to simulated time). Built
 * with -DGLOBAL_BYTES=N it carries N bytes of extra globals, which privatization must swap; with
 * -DWITH_LIBRARIES it uses three shared libraries of 4 KiB of data each, swapped too.
 * Usage: pingpong_bench ROUND_TRIPS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pingpong.h"

#ifndef GLOBAL_BYTES
#define GLOBAL_BYTES 0
#endif
char extra_globals[GLOBAL_BYTES + 1] = {1}; /* in .data: its pages are really there */
#ifdef WITH_LIBRARIES
char* globals_a(void);
char* globals_b(void);
char* globals_c(void);
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  double buf = extra_globals[0];
#ifdef WITH_LIBRARIES
  buf += globals_a()[0] + globals_b()[0] + globals_c()[0] - 3;
#endif
  double wall = pingpong_host_seconds(n, &buf);
  if (rank == 0) printf("round_trips=%ld wall_s=%.6f\n", n, wall);
  MPI_Finalize();
  return 0;
}
