// SPDX-License-Identifier: Apache-2.0
// The host memory this process really uses. The resident set size (getrusage's ru_maxrss)
// counts a page once per address it is mapped at, so folded memory (runtime/fold), whose one
// physical block is mapped thousands of times, would look thousands of times larger than it
// is. The proportional set size of /proc/self/smaps_rollup counts such a page once.
#pragma once

#include <cstdint>

namespace simmpi::runtime {

// Proportional set size of this process in bytes (0 when /proc cannot be read). Walks the page
// tables: milliseconds for gigabytes, so call it now and then, not per event.
std::uint64_t proportional_set_bytes();

// The largest proportional set size seen by sample().
class MemoryPeak {
 public:
  void sample();
  // Samples when at least `interval_s` of wall time passed since the last sample, and 50 times
  // the last sample's own duration.
  void sample_if_due(double interval_s);
  std::uint64_t peak_bytes() const { return peak_; }

 private:
  std::uint64_t peak_ = 0;
  double last_s_ = -1e300;
  double cost_s_ = 0;
};

}  // namespace simmpi::runtime
