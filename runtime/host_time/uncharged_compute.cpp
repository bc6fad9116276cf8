// SPDX-License-Identifier: Apache-2.0
// Whether a run's host CPU shows uncharged compute (see the header).
#include "runtime/host_time/uncharged_compute.hpp"

#include <algorithm>

namespace simmpi::runtime {

double uncharged_us_per_event(const RunCpu& run) {
  const double outside_s = run.process_s - run.heavy_phases_s;
  const double per_event_us = 1e6 * outside_s / std::max(1.0, static_cast<double>(run.events));
  return outside_s < 0.5 || per_event_us < 50 ? 0 : per_event_us;
}

}  // namespace simmpi::runtime
