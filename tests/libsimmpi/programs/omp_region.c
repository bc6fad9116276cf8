/* SPDX-License-Identifier: Apache-2.0 */
/* An OpenMP region is charged its critical path on node.cores_per_rank cores.
 *   omp_region THREADS BUSY_MS CORES
 * Each of the region's THREADS threads busy-loops for BUSY_MS of its own CPU time (measured with
 * the thread CPU clock, so the work does not depend on the host's load). With
 * runtime.host_time = measure and runtime.host_time_scale = 1, the simulated time across the
 * region must be max(longest thread, all threads' CPU time / CORES) within 5%: for 4 threads of
 * 20 ms, 40 ms on 2 cores and 20 ms on 4. A region run as the master thread's time alone (no
 * interposition) would read 20 ms on 2 cores; one run at its host wall time, whatever the host
 * has. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static double cpu_seconds(void) {
  struct timespec ts;
  syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &ts); /* the host's clock, not simulated */
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc < 4) return 2;
  int threads = atoi(argv[1]);
  double busy = atof(argv[2]) * 1e-3, cores = atof(argv[3]);
  double cpu[64] = {0};
  int team = 0;
  double t0 = MPI_Wtime();
#pragma omp parallel num_threads(threads)
  {
    volatile double sink = 0;
    double c0 = cpu_seconds(), c1;
    do {
      for (int i = 0; i < 1000; ++i) sink += i * 0.5;
      c1 = cpu_seconds();
    } while (c1 - c0 < busy);
    cpu[omp_get_thread_num()] = c1 - c0;
    if (omp_get_thread_num() == 0) team = omp_get_num_threads(); /* no barrier: see docs */
  }
  double simulated = MPI_Wtime() - t0;
  double longest = 0, total = 0;
  for (int i = 0; i < team; ++i) {
    longest = fmax(longest, cpu[i]);
    total += cpu[i];
  }
  double expected = fmax(longest, total / cores);
  double nominal = fmax(busy, threads * busy / cores);
  CHECK(team == threads, "the region ran %d threads, not %d", team, threads);
  CHECK(fabs(simulated - expected) <= 0.05 * expected,
        "%d threads, %.6f s of CPU in all, the longest %.6f s, on %g cores: simulated %.6f s, "
        "expected %.6f s",
        team, total, longest, cores, simulated, expected);
  CHECK(fabs(simulated - nominal) <= 0.05 * nominal, "simulated %.6f s, nominal %.6f s", simulated,
        nominal);
  return finish("omp_region");
}
