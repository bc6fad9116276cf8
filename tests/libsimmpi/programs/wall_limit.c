/* SPDX-License-Identifier: Apache-2.0 */
/* A program that never ends in practice: it spins on MPI_Wtime until 300 s of simulated time
 * have passed (as MPICH's init/timeout does), which takes far longer on the host. Run with a
 * wall limit (runtime.wall_limit or MPIEXEC_TIMEOUT), it is stopped with exit status 124. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const double t0 = MPI_Wtime();
  while (MPI_Wtime() - t0 < 300) {
  }
  printf("wall_limit: the loop ended\n");
  MPI_Finalize();
  return 0;
}
