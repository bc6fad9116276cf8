/* SPDX-License-Identifier: Apache-2.0 */
/* MPI_Alltoall of BYTES per pair (default 4096), repeated REPS times (default 1): the workload
 * of the network benchmark "1,024 nodes of a 2-level fat-tree in under 60 s of wall time".
 * Usage: alltoall_bench [BYTES [REPS]]. Prints the simulated time of the exchanges. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int bytes = argc > 1 ? atoi(argv[1]) : 4096;
  int reps = argc > 2 ? atoi(argv[2]) : 1;
  char* out = malloc((size_t)bytes * (size_t)n);
  char* in = malloc((size_t)bytes * (size_t)n);
  for (int p = 0; p < n; ++p) memset(out + (long)p * bytes, (char)(rank + p), (size_t)bytes);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int r = 0; r < reps; ++r)
    MPI_Alltoall(out, bytes, MPI_CHAR, in, bytes, MPI_CHAR, MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0;
  int ok = 1;
  for (int p = 0; p < n; ++p) ok &= in[(long)p * bytes] == (char)(p + rank);
  int all_ok = 1;
  MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("bench=alltoall ranks=%d bytes=%d reps=%d sim_s=%.9f data=%s\n", n, bytes, reps, t,
           all_ok ? "ok" : "WRONG");
  free(out);
  free(in);
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
