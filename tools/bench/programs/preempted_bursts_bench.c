/* SPDX-License-Identifier: Apache-2.0 */
/* Short bursts of a fixed length, each between two MPI_Wtime calls, so the simulated interval is
 * exactly what the burst was charged (run with --set runtime.host_time=measure
 * --set runtime.host_time_scale=1). On a quiet host every burst is charged about the same; when
 * another process shares the core (taskset -c 0 for both), the host preempts some bursts for a
 * time slice, and the charges show whether the slice was charged to them.
 * Usage: preempted_bursts_bench LOOP_ITERATIONS BURSTS; prints the median, the mean, the largest
 * charge, and the bursts charged more than twice the median with what they were charged beyond
 * it in all. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int by_value(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  long loop = argc > 1 ? atol(argv[1]) : 2000, bursts = argc > 2 ? atol(argv[2]) : 100000;
  double* charged = malloc(bursts * sizeof(double));
  volatile double x = 1.0;
  for (long b = 0; b < bursts; b++) {
    double t0 = MPI_Wtime();
    for (long i = 0; i < loop; i++) x = x * 1.0000001 + 1e-9;
    charged[b] = MPI_Wtime() - t0;
  }
  double sum = 0;
  for (long b = 0; b < bursts; b++) sum += charged[b];
  qsort(charged, bursts, sizeof(double), by_value);
  double median = charged[bursts / 2], excess = 0;
  long over = 0;
  for (long b = 0; b < bursts; b++)
    if (charged[b] > 2 * median) over++, excess += charged[b] - median;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf(
        "preempted_bursts_bench bursts=%ld median_us=%.3f mean_us=%.3f max_us=%.1f "
        "over_2x_median=%ld their_excess_ms=%.3f\n",
        bursts, 1e6 * median, 1e6 * sum / bursts, 1e6 * charged[bursts - 1], over, 1e3 * excess);
  free(charged);
  MPI_Finalize();
  return 0;
}
