// SPDX-License-Identifier: Apache-2.0
// The burst clock: TSC for every burst, the thread CPU clock for long ones (see the header).
#include "runtime/host_time/burst_clock.hpp"

#include <x86intrin.h>

#include <algorithm>

#include "runtime/core/host_clock.hpp"

namespace simmpi::runtime {
namespace {

std::int64_t thread_cpu_ns() {
  return host_clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

}  // namespace

BurstClock::BurstClock(double tsc_hz) : ns_per_tick_(1e9 / tsc_hz) {
  // What the probes themselves add to a burst: the least of many back-to-back readings.
  std::uint64_t least_ticks = ~std::uint64_t{0};
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t a = __rdtsc();
    least_ticks = std::min<std::uint64_t>(least_ticks, __rdtsc() - a);
  }
  tsc_probe_ns_ = ticks_to_ns(least_ticks);
  std::int64_t least_cpu = INT64_MAX;
  for (int i = 0; i < 20; ++i) {
    const std::int64_t a = thread_cpu_ns();
    least_cpu = std::min(least_cpu, thread_cpu_ns() - a);
  }
  cpu_probe_ns_ = least_cpu;
  note_cpu_reading(__rdtsc(), thread_cpu_ns());
}

void BurstClock::note_cpu_reading(std::uint64_t tsc, std::int64_t cpu_ns) {
  last_tsc_ = tsc;
  last_cpu_ns_ = cpu_ns;
}

void BurstClock::start(BurstMarks& m) const {
  m.cpu_ns = m.long_bursts ? thread_cpu_ns() : -1;
  m.tsc = __rdtsc();  // after the system call, which is not the program's time
}

void BurstClock::pause(BurstMarks& m) {
  const std::uint64_t now = __rdtsc();
  const std::int64_t wall = ticks_to_ns(now - m.tsc);
  std::int64_t ns;
  if (m.cpu_ns >= 0) {
    const std::int64_t cpu = thread_cpu_ns();
    ns = cpu - m.cpu_ns - cpu_probe_ns_;
    note_cpu_reading(now, cpu);
  } else if (wall >= kLongBurstNs) {
    // No CPU reading at the start: scale the wall time by the share of wall time this thread
    // has had a CPU since the last reading (1 on an idle host).
    const std::int64_t cpu = thread_cpu_ns();
    const double wall_since = static_cast<double>(ticks_to_ns(now - last_tsc_));
    const double cpu_since = static_cast<double>(cpu - last_cpu_ns_);
    const double on_cpu = wall_since > 0 ? std::clamp(cpu_since / wall_since, 0.0, 1.0) : 1.0;
    ns = static_cast<std::int64_t>(static_cast<double>(wall) * on_cpu) - tsc_probe_ns_;
    note_cpu_reading(now, cpu);
  } else {
    ns = wall - tsc_probe_ns_;
  }
  m.sum_ns += std::max<std::int64_t>(ns, 0);
  m.wall_ns += wall;
  m.cpu_ns = -1;
}

std::int64_t BurstClock::stop(BurstMarks& m) {
  pause(m);
  const std::int64_t ns = m.sum_ns;
  m.long_bursts = m.wall_ns >= kLongBurstNs;
  m.sum_ns = m.wall_ns = 0;
  return ns;
}

}  // namespace simmpi::runtime
