// SPDX-License-Identifier: Apache-2.0
// A value over time that a timeline draws as a graph beside the ranks (a link's utilization):
// `values[i]` holds from i * step to (i + 1) * step. Both timeline writers take the same tracks.
#pragma once

#include <string>
#include <vector>

#include "runtime/core/sim_time.hpp"

namespace simmpi::runtime {

struct CounterTrack {
  std::string name;
  SimTime step;
  std::vector<double> values;
};

}  // namespace simmpi::runtime
