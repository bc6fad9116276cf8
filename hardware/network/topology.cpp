// SPDX-License-Identifier: Apache-2.0
// Link capacities in runs, found link by link for topologies that know no cheaper way.
#include "hardware/network/topology.hpp"

namespace simmpi::hardware {

std::vector<CapacityRun> capacity_runs_of(int link_count,
                                          const std::function<double(LinkId)>& link_Bps) {
  std::vector<CapacityRun> runs;
  for (LinkId l = 0; l < link_count; ++l) {
    const double c = link_Bps(l);
    // (NaN equals nothing: each such link is a run of its own, for the solver to reject.)
    if (!runs.empty() && runs.back().Bps == c)
      ++runs.back().count;
    else
      runs.push_back(CapacityRun{l, 1, c});
  }
  return runs;
}

std::vector<CapacityRun> Topology::capacity_runs() const {
  return capacity_runs_of(link_count(), [this](LinkId l) { return link_bw_Bps(l); });
}

}  // namespace simmpi::hardware
