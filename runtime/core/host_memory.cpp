// SPDX-License-Identifier: Apache-2.0
// Reading the proportional set size.
#include "runtime/core/host_memory.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "runtime/core/host_clock.hpp"

namespace simmpi::runtime {

std::uint64_t proportional_set_bytes() {
  std::FILE* f = std::fopen("/proc/self/smaps_rollup", "r");
  if (!f) return 0;
  char line[256];
  unsigned long long kib = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "Pss: %llu kB", &kib) == 1) break;
  std::fclose(f);
  return kib * 1024;
}

void MemoryPeak::sample() {
  const double start = host_wall_seconds();
  peak_ = std::max(peak_, proportional_set_bytes());
  last_s_ = host_wall_seconds();
  cost_s_ = last_s_ - start;
}

void MemoryPeak::sample_if_due(double interval_s) {
  // A sample walks the page tables: with thousands of folded mappings that took a tenth of a
  // second, so the samples are spaced to cost at most 2% of the wall time.
  if (host_wall_seconds() - last_s_ >= std::max(interval_s, 50.0 * cost_s_)) sample();
}

}  // namespace simmpi::runtime
