/* SPDX-License-Identifier: Apache-2.0 */
/* Repeated MPI_Allreduce of a small vector, as iterative solvers do for dot products and norms.
 * Each rank contributes (rank + i) to element i; the result is checked on every rank.
 * Usage: allreduce_loop [iterations] [doubles] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iterations = argc > 1 ? atoi(argv[1]) : 100;
  int n = argc > 2 ? atoi(argv[2]) : 8;
  double* in = malloc(n * sizeof(double));
  double* out = malloc(n * sizeof(double));
  int errors = 0;
  double t0 = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < n; ++i) in[i] = rank + i + it;
    MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < n; ++i) {
      double expected = (double)size * (size - 1) / 2 + (double)size * (i + it);
      if (out[i] != expected) ++errors;
    }
  }
  double per_call = (MPI_Wtime() - t0) / iterations;
  int total = 0; /* significant at rank 0 only */
  MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("allreduce_loop: %d ranks, %d doubles, %d iterations, %.3f us per allreduce, %s\n", size,
           n, iterations, per_call * 1e6, total ? "WRONG RESULTS" : "results OK");
  free(in);
  free(out);
  MPI_Finalize();
  return total != 0;
}
