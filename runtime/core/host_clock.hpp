// SPDX-License-Identifier: Apache-2.0
// The host's real clocks. The MPI layer replaces the program's clock_gettime/gettimeofday with
// simulated time, so the runtime reads the host through the system call directly.
#pragma once

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>

namespace simmpi::runtime {

inline std::int64_t host_clock_ns(clockid_t clock) {
  timespec ts{};
  syscall(SYS_clock_gettime, clock, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

inline double host_wall_seconds() {
  return host_clock_ns(CLOCK_MONOTONIC) * 1e-9;
}

}  // namespace simmpi::runtime
