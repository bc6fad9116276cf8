// SPDX-License-Identifier: Apache-2.0
// The compute trap: with runtime.host_time = ignore the ranks' own code costs no simulated time,
// which is right for a program that only communicates and wrong for one that computes between
// its calls. A run's host CPU goes to the ranks' own code, to the simulator's heavy phases (the
// network's max-min solve, timed by HeavyPhase) and to the simulator's work per event (a few
// microseconds, tools/bench). Not per switch: a clock read on every switch would cost every run.
#pragma once

#include <cstdint>

namespace simmpi::runtime {

struct RunCpu {
  double process_s = 0;       // host CPU time of the whole run
  double heavy_phases_s = 0;  // of which in the simulator's heavy phases
  std::uint64_t events = 0;   // events the engine processed
};

// The host CPU seconds per event outside the heavy phases when they show that the ranks' own
// code computed (at least 0.5 s and 50 us an event: ten times what the simulator needs), else 0.
double uncharged_us_per_event(const RunCpu& run);

}  // namespace simmpi::runtime
