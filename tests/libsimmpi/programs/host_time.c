/* SPDX-License-Identifier: Apache-2.0 */
/* Host-time measurement: each rank busy-loops for BUSY_MS of its own CPU time between two
 * MPI_Wtime calls. With runtime.host_time = measure the simulated interval must be that CPU time
 * times SCALE within 5%; with the default (ignore) it must be exactly one MPI_Wtime poll cost.
 *   host_time BUSY_MS SCALE     (SCALE 0: expect host time ignored; POLL_PS as third argument) */
#include <math.h>
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
  double busy = atof(argv[1]) * 1e-3, scale = atof(argv[2]);
  double poll = argc > 3 ? atof(argv[3]) * 1e-12 : 0;
  volatile double sink = 0;
  double t0 = MPI_Wtime();
  double c0 = cpu_seconds(), c1;
  do {
    for (int i = 0; i < 1000; ++i) sink += i * 0.5;
    c1 = cpu_seconds();
  } while (c1 - c0 < busy);
  double t1 = MPI_Wtime();
  double simulated = t1 - t0, measured = c1 - c0;
  if (scale > 0)
    CHECK(fabs(simulated - measured * scale) <= 0.05 * measured * scale,
          "busy %.6f s of CPU, scale %g: simulated %.6f s", measured, scale, simulated);
  else
    CHECK(llround(simulated * 1e12) == llround(poll * 1e12), "host time ignored, yet %.9f s passed",
          simulated);
  return finish("host_time");
}
