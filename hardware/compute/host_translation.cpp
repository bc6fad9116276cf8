// SPDX-License-Identifier: Apache-2.0
// The three host-to-node ratios (the models are described in the header).
#include "hardware/compute/host_translation.hpp"

#include <algorithm>

namespace simmpi::hardware {

HostTranslation HostTranslation::between(const HostModel& host, const NodeSpec& node,
                                         int job_ranks) {
  HostTranslation t;
  t.clock = host.clock_hz / node.frequency_hz;
  t.flops = host.core_flops / (node.vector_frequency_hz * node.flops_per_cycle);
  // Every thread of every rank on a node streams at once: each gets its share.
  const double threads =
      static_cast<double>(std::max(1, std::min(job_ranks, node.ranks_per_node))) *
      node.rank_cores();
  const double per_core = std::min(node.core_memory_Bps, node.memory_Bps / threads);
  t.memory = host.core_memory_Bps / per_core;
  return t;
}

double HostTranslation::ratio(HostTimeBound b) const {
  switch (b) {
    case HostTimeBound::Clock:
      return clock;
    case HostTimeBound::Flops:
      return flops;
    case HostTimeBound::Memory:
      return memory;
  }
  return clock;
}

const char* bound_name(HostTimeBound b) {
  switch (b) {
    case HostTimeBound::Clock:
      return "clock";
    case HostTimeBound::Flops:
      return "flops";
    case HostTimeBound::Memory:
      return "memory";
  }
  return "clock";
}

}  // namespace simmpi::hardware
