/* SPDX-License-Identifier: Apache-2.0 */
/* The same work on every rank, between barriers: what each rank is charged for it as the rank
 * count grows (run with --set runtime.host_time_scale=1: simulated = measured host time). The
 * work reads MPI_Wtime right before and after, so the simulated interval is exactly the burst
 * charged for it. Two kinds of work:
 *   compute  dependent floating-point arithmetic on registers (no memory traffic)
 *   cache    passes over the rank's own 256 KiB array (in a core's L2 natively; evicted by the
 *            other ranks' arrays between two of a rank's bursts here)
 * Usage: own_time_bench compute|cache ITERATIONS; rank 0 prints the mean and the spread. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double compute_work(void) {
  double x = 1.0;
  for (int i = 0; i < 400000; i++) x = x * 1.0000001 + 1e-9;
  return x;
}

static double cache_work(double* a, int n) {
  double s = 0;
  for (int pass = 0; pass < 8; pass++)
    for (int i = 0; i < n; i++) s += a[i] * 1.5, a[i] += 1.0;
  return s;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int cache = argc > 1 && !strcmp(argv[1], "cache"), iterations = argc > 2 ? atoi(argv[2]) : 10;
  const int n = 256 * 1024 / sizeof(double);
  double* a = calloc(n, sizeof(double));
  volatile double sink = 0;
  double total = 0;
  for (int it = 0; it < iterations; it++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    sink += cache ? cache_work(a, n) : compute_work();
    total += MPI_Wtime() - t0;
  }
  double per = total / iterations, sum, lo, hi;
  MPI_Reduce(&per, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&per, &lo, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  MPI_Reduce(&per, &hi, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("own_time_bench %s ranks=%d mean_us=%.2f min_us=%.2f max_us=%.2f\n",
           cache ? "cache" : "compute", size, 1e6 * sum / size, 1e6 * lo, 1e6 * hi);
  free(a);
  MPI_Finalize();
  return 0;
}
