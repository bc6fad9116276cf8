// SPDX-License-Identifier: Apache-2.0
// The burst clock's member functions (see burst_clock.hpp), apart so that changing them rebuilds
// burst_clock.cpp and its test only.
#pragma once

#include <algorithm>
#include <utility>

#include "runtime/host_time/burst_clock.hpp"

namespace simmpi::runtime {

template <class Probes>
BasicBurstClock<Probes>::BasicBurstClock(double tsc_hz, Probes probes)
    : probes_(std::move(probes)),
      watching_(probes_.watches_departures()),
      ns_per_tick_(1e9 / tsc_hz) {
  // What the probes themselves add to a burst: the least of many back-to-back readings.
  std::uint64_t least_ticks = ~std::uint64_t{0};
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t a = probes_.ticks();
    least_ticks = std::min<std::uint64_t>(least_ticks, probes_.ticks() - a);
  }
  tsc_probe_ns_ = ticks_to_ns(least_ticks);
  std::int64_t least_cpu = INT64_MAX;
  for (int i = 0; i < 20; ++i) {
    const std::int64_t a = probes_.cpu_ns();
    least_cpu = std::min(least_cpu, probes_.cpu_ns() - a);
  }
  cpu_probe_ns_ = least_cpu;
  read_cpu(probes_.ticks());
}

template <class Probes>
std::int64_t BasicBurstClock<Probes>::read_cpu(std::uint64_t tsc) {
  if (watching_) probes_.mark_departures();  // before: a departure during the reading counts
  last_tsc_ = tsc;
  last_cpu_ns_ = probes_.cpu_ns();
  return last_cpu_ns_;
}

template <class Probes>
void BasicBurstClock<Probes>::start(BurstMarks& m) {
  if (m.long_bursts) {
    m.cpu_ns = read_cpu(probes_.ticks());
    m.tsc = probes_.ticks();  // after the system call, which is not the program's time
    return;
  }
  m.cpu_ns = -1;
  m.tsc = probes_.ticks();
  if (watching_ && probes_.has_left_cpu()) {
    // The thread left its CPU in the simulator's own code: a new base, so that the burst is
    // not charged that absence.
    read_cpu(m.tsc);
    m.tsc = probes_.ticks();
  }
}

template <class Probes>
std::int64_t BasicBurstClock<Probes>::departed_ns(const BurstMarks& m, std::uint64_t now) {
  // From the last reading to m.tsc the thread kept its CPU, so its CPU time then is that wall
  // time; the rest of the CPU time since the reading is the burst's. (The reading's system call
  // costs the same before its sample, counted in that wall time, as after it.)
  const std::int64_t before_ns = ticks_to_ns(m.tsc - last_tsc_);
  const std::int64_t base_cpu = last_cpu_ns_;
  return read_cpu(now) - base_cpu - before_ns - tsc_probe_ns_;
}

template <class Probes>
std::int64_t BasicBurstClock<Probes>::scaled_ns(std::uint64_t now, std::int64_t wall) {
  // The wall time scaled by the share of wall time this thread has had a CPU since the last
  // reading (1 on an idle host).
  const double wall_since = static_cast<double>(ticks_to_ns(now - last_tsc_));
  const std::int64_t base_cpu = last_cpu_ns_;
  const double cpu_since = static_cast<double>(read_cpu(now) - base_cpu);
  const double on_cpu = wall_since > 0 ? std::clamp(cpu_since / wall_since, 0.0, 1.0) : 1.0;
  return static_cast<std::int64_t>(static_cast<double>(wall) * on_cpu);
}

template <class Probes>
void BasicBurstClock<Probes>::pause(BurstMarks& m) {
  const std::uint64_t now = probes_.ticks();
  const std::int64_t wall = ticks_to_ns(now - m.tsc);
  std::int64_t ns;
  if (m.cpu_ns >= 0) {
    ns = read_cpu(now) - m.cpu_ns - cpu_probe_ns_;
  } else if (watching_) {
    ns = probes_.has_left_cpu() ? departed_ns(m, now) : wall - tsc_probe_ns_;
  } else if (wall >= kLongBurstNs) {
    ns = scaled_ns(now, wall) - tsc_probe_ns_;
  } else {
    ns = wall - tsc_probe_ns_;
  }
  m.sum_ns += std::max<std::int64_t>(ns, 0);
  m.cpu_ns = -1;
}

template <class Probes>
std::int64_t BasicBurstClock<Probes>::stop(BurstMarks& m) {
  pause(m);
  const std::int64_t ns = m.sum_ns;
  m.long_bursts = ns >= kLongBurstNs;  // its host time: a preempted short burst is not long
  m.sum_ns = 0;
  return ns;
}

}  // namespace simmpi::runtime
