// SPDX-License-Identifier: Apache-2.0
// When a source generates its messages, for an offered load rho in (0, 1] of its injection
// bandwidth B with messages of S bytes: a mean gap of S / (rho B) between generations.
//   poisson  exponential gaps (a Poisson process), memoryless;
//   bursty   on/off: bursts of a geometric number of messages (mean `burst`) generated back to
//            back at the line rate (gap S / B), separated by exponential silences whose mean,
//            burst x (S / (rho B) - S / B), keeps the long-run rate at rho B / S. At rho = 1
//            the silences vanish and the source generates at the line rate.
// A gap is a pure function of (seed, source, message index), so a source needs no generator
// state: the generation time of its next message is all it keeps.
#pragma once

#include <cstdint>

#include "runtime/core/sim_time.hpp"

namespace simmpi::traffic {

enum class InjectionKind { Poisson, Bursty };

class InjectionProcess {
 public:
  // `line_gap_s` = S / B, the time one message takes at the injection bandwidth; `load` in (0, 1].
  InjectionProcess(InjectionKind kind, double line_gap_s, double load, double burst,
                   std::uint64_t seed);
  // The gap between the generations of messages k - 1 and k of `src` (k = 0: from time 0 to the
  // first message). Positive.
  runtime::SimTime gap(int src, std::uint64_t k) const;
  // The gaps' mean, S / (rho B): a source generates 1 / mean_gap_s() messages per second.
  double mean_gap_s() const { return mean_gap_s_; }

 private:
  // In (0, 1), from mix64(mix64(key, src), k); key = mix64(seed, stream), computed once.
  double uniform_open(int src, std::uint64_t k, std::uint64_t key) const;

  InjectionKind kind_;
  double line_gap_s_;
  double mean_gap_s_;
  double burst_;
  double silence_s_;         // bursty: mean silence between bursts
  std::uint64_t gap_key_;    // mix64(seed, the gaps' stream)
  std::uint64_t burst_key_;  // mix64(seed, the bursts' stream)
};

}  // namespace simmpi::traffic
