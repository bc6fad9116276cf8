/* SPDX-License-Identifier: Apache-2.0 */
/* MPI_Alltoall of BYTES per pair (default 4096), repeated REPS times (default 1): the workload
 * of the network benchmark "1,024 nodes of a 2-level fat-tree in under 60 s of wall time".
 * Usage: alltoall_bench [BYTES [REPS [SKEW_NS]]]. Prints the simulated time of the exchanges.
 *
 * SKEW_NS (default 0): before each MPI_Alltoall, every rank computes (simmpi_sleep) a time drawn
 * from [0, SKEW_NS) ns by a hash of its rank and the repetition, so that the ranks enter each
 * exchange a little apart. That is what the default measured host time does to this loop (each
 * rank's few instructions between two calls take a different host time: 10 ns to a few us), but
 * deterministic, so that the cost of ranks out of step can be profiled with
 * runtime.host_time=ignore and compared run to run (tools/bench/RESULTS.md, round 4 of the
 * all-to-all). */
#include <mpi.h>
#include <simmpi_compute.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fraction in [0, 1) from (rank, repetition): splitmix64's finalizer. */
static double skew_fraction(int rank, int rep) {
  uint64_t x = ((uint64_t)(uint32_t)rank << 32 | (uint32_t)rep) + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return (double)(x >> 11) / 9007199254740992.0; /* 2^53 */
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  int bytes = argc > 1 ? atoi(argv[1]) : 4096;
  int reps = argc > 2 ? atoi(argv[2]) : 1;
  double skew_ns = argc > 3 ? atof(argv[3]) : 0;
  char* out = malloc((size_t)bytes * (size_t)n);
  char* in = malloc((size_t)bytes * (size_t)n);
  for (int p = 0; p < n; ++p) memset(out + (long)p * bytes, (char)(rank + p), (size_t)bytes);
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int r = 0; r < reps; ++r) {
    if (skew_ns > 0) simmpi_sleep(skew_ns * 1e-9 * skew_fraction(rank, r));
    MPI_Alltoall(out, bytes, MPI_CHAR, in, bytes, MPI_CHAR, MPI_COMM_WORLD);
  }
  double t = MPI_Wtime() - t0;
  int ok = 1;
  for (int p = 0; p < n; ++p) ok &= in[(long)p * bytes] == (char)(p + rank);
  int all_ok = 1;
  MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("bench=alltoall ranks=%d bytes=%d reps=%d skew_ns=%g sim_s=%.9f data=%s\n", n, bytes,
           reps, skew_ns, t, all_ok ? "ok" : "WRONG");
  free(out);
  free(in);
  MPI_Finalize();
  return all_ok ? 0 : 1;
}
