// SPDX-License-Identifier: Apache-2.0
// Link load over time (see link_timeline.hpp).
#include "hardware/network/link_timeline.hpp"

#include <algorithm>

namespace simmpi::hardware {

void LinkTimeline::widen_to_cover(std::int64_t ps) {
  while (ps >= static_cast<std::int64_t>(kBins) * width_ps_) {
    for (std::vector<double>& b : bins_) {
      if (b.empty()) continue;
      for (std::size_t i = 0; i < kBins / 2; ++i) b[i] = b[2 * i] + b[2 * i + 1];
      std::fill(b.begin() + kBins / 2, b.end(), 0.0);
    }
    width_ps_ *= 2;
  }
}

void LinkTimeline::carried(const LinkId* links, int count, double bytes, runtime::SimTime from,
                           runtime::SimTime to) {
  if (bytes <= 0 || count == 0) return;
  widen_to_cover(to.ps());
  std::int64_t a = from.ps(), b = std::max(to.ps(), a + 1);  // an instant counts in its bin
  double per_ps = bytes / static_cast<double>(b - a);
  for (std::int64_t bin = a / width_ps_; bin * width_ps_ < b; ++bin) {
    std::int64_t lo = std::max(a, bin * width_ps_), hi = std::min(b, (bin + 1) * width_ps_);
    double share = per_ps * static_cast<double>(hi - lo);
    for (int i = 0; i < count; ++i) {
      std::vector<double>& v = bins_[static_cast<std::size_t>(links[i])];
      if (v.empty()) v.assign(kBins, 0.0);
      v[static_cast<std::size_t>(bin)] += share;
    }
  }
}

double LinkTimeline::bytes_between(LinkId l, runtime::SimTime from, runtime::SimTime to) const {
  const std::vector<double>& v = bins(l);
  double sum = 0;
  if (v.empty()) return sum;
  auto last = static_cast<std::size_t>(std::min<std::int64_t>(kBins - 1, to.ps() / width_ps_));
  for (auto i = static_cast<std::size_t>(from.ps() / width_ps_); i <= last && i < kBins; ++i)
    sum += v[i];
  return sum;
}

std::size_t LinkTimeline::bins_until(runtime::SimTime end) const {
  return static_cast<std::size_t>(std::min<std::int64_t>(
      kBins, std::max<std::int64_t>(1, (end.ps() + width_ps_ - 1) / width_ps_)));
}

}  // namespace simmpi::hardware
