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
  peak_ = std::max(peak_, proportional_set_bytes());
  last_s_ = host_wall_seconds();
}

void MemoryPeak::sample_if_due(double interval_s) {
  if (host_wall_seconds() - last_s_ >= interval_s) sample();
}

}  // namespace simmpi::runtime
