// SPDX-License-Identifier: Apache-2.0
// Poisson and on/off generation gaps from counter-based random numbers.
#include "tools/traffic/injection_process.hpp"

#include <algorithm>
#include <cmath>

#include "hardware/seeded_random.hpp"

namespace simmpi::traffic {
namespace {

constexpr std::uint64_t kGapStream = 0x676170ULL;
constexpr std::uint64_t kBurstStream = 0x6275727374ULL;

}  // namespace

InjectionProcess::InjectionProcess(InjectionKind kind, double line_gap_s, double load, double burst,
                                   std::uint64_t seed)
    : kind_(kind),
      line_gap_s_(line_gap_s),
      mean_gap_s_(line_gap_s / load),
      burst_(burst),
      silence_s_(burst * (line_gap_s / load - line_gap_s)),
      gap_key_(hardware::mix64(seed, kGapStream)),
      burst_key_(hardware::mix64(seed, kBurstStream)) {}

// In (0, 1): never 0, so its logarithm is finite.
double InjectionProcess::uniform_open(int src, std::uint64_t k, std::uint64_t key) const {
  using hardware::mix64;
  std::uint64_t bits = mix64(mix64(key, static_cast<std::uint64_t>(src)), k);
  return (static_cast<double>(bits >> 11) + 0.5) * 0x1p-53;
}

runtime::SimTime InjectionProcess::gap(int src, std::uint64_t k) const {
  double s;
  if (kind_ == InjectionKind::Poisson) {
    s = -std::log(uniform_open(src, k, gap_key_)) * mean_gap_s_;
  } else {
    // Message k starts a new burst with probability 1 / burst (the first one always does).
    bool new_burst = k == 0 || uniform_open(src, k, burst_key_) * burst_ < 1.0;
    s = line_gap_s_;
    if (new_burst) s += -std::log(uniform_open(src, k, gap_key_)) * silence_s_;
  }
  return std::max(runtime::SimTime::from_ps(1), runtime::SimTime::from_seconds(s));
}

}  // namespace simmpi::traffic
