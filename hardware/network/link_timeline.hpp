// SPDX-License-Identifier: Apache-2.0
// Bytes each link carried over time, for the heat map of link load in simmpi-report (MARS and
// CODES show link load as it changes; the totals of links.csv cannot). Flows send at piecewise
// constant rates, so the bytes of each stretch at one rate are exact and are spread over the
// time bins it overlaps. Bins start at 10 ns and double in width (neighbours merged) whenever
// the run outgrows kBins of them, so a run of any length ends with at most kBins bins and the
// memory is kBins doubles per link that carried anything.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hardware/network/topology.hpp"
#include "runtime/core/sim_time.hpp"

namespace simmpi::hardware {

class LinkTimeline {
 public:
  static constexpr std::size_t kBins = 256;

  explicit LinkTimeline(std::size_t links) : bins_(links) {}

  // `bytes` crossed each of `links` at a constant rate from `from` to `to`.
  void carried(const LinkId* links, int count, double bytes, runtime::SimTime from,
               runtime::SimTime to);

  runtime::SimTime bin_width() const { return runtime::SimTime::from_ps(width_ps_); }
  // The bytes of link `l` per bin (empty when it carried nothing).
  const std::vector<double>& bins(LinkId l) const { return bins_[static_cast<std::size_t>(l)]; }

  // Bytes link `l` carried in the bins that overlap [from, to] (bin resolution).
  double bytes_between(LinkId l, runtime::SimTime from, runtime::SimTime to) const;
  // How many bins cover the run up to `end` (at least one, at most kBins).
  std::size_t bins_until(runtime::SimTime end) const;

 private:
  void widen_to_cover(std::int64_t ps);

  std::int64_t width_ps_ = 10'000;  // 10 ns
  std::vector<std::vector<double>> bins_;
};

}  // namespace simmpi::hardware
