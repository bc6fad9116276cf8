// SPDX-License-Identifier: Apache-2.0
// Host time of the simulator's own heavy phases (the network's max-min solve), so that the note
// on uncharged compute (runtime.host_time = ignore) tells the simulator's work from the ranks'.
// Counted in time-stamp-counter ticks: timing a phase costs two reads (~20-40 ns), which only a
// phase that takes microseconds when it matters can afford, and a phase that is cheap (a flow
// alone on its links never reaches the solver) is not timed at all.
#pragma once

#include <cstdint>

namespace simmpi::runtime {

class HeavyPhase {
 public:
  HeavyPhase() : start_(__builtin_ia32_rdtsc()) {}
  ~HeavyPhase() { ticks_ += __builtin_ia32_rdtsc() - start_; }
  HeavyPhase(const HeavyPhase&) = delete;
  HeavyPhase& operator=(const HeavyPhase&) = delete;

  // TSC ticks spent in heavy phases by this process so far (one thread runs the simulation),
  // and the TSC now: a caller converts ticks to seconds with the TSC's ticks over a stretch of
  // its own wall clock.
  static std::uint64_t total_ticks() { return ticks_; }
  static std::uint64_t now_ticks() { return __builtin_ia32_rdtsc(); }

 private:
  static inline std::uint64_t ticks_ = 0;
  std::uint64_t start_;
};

}  // namespace simmpi::runtime
