/* SPDX-License-Identifier: Apache-2.0 */
/* The host's monotonic clock for the benchmark programs, read by a raw system call: simmpi
 * redirects clock_gettime to simulated time, and a benchmark times the host. */
#ifndef SIMMPI_BENCH_HOST_CLOCK_H
#define SIMMPI_BENCH_HOST_CLOCK_H

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double host_seconds(void) {
  struct timespec ts;
  syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif
