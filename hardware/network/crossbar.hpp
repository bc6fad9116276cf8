// SPDX-License-Identifier: Apache-2.0
// The simplest topology: every node on one non-blocking switch. Each node has an injection link
// (node 2n) and an ejection link (2n + 1) of network.link_bw; the switch itself never limits,
// so contention exists only at the NICs, where concurrent messages share the link max-min
// fairly. A route crosses one switch.
#pragma once

#include "hardware/network/topology.hpp"

namespace simmpi::hardware {

class Crossbar final : public Topology {
 public:
  Crossbar(int nodes, double link_Bps) : nodes_(nodes), link_Bps_(link_Bps) {}
  int node_count() const override { return nodes_; }
  int link_count() const override { return 2 * nodes_; }
  double link_bw_Bps(LinkId) const override { return link_Bps_; }
  std::vector<CapacityRun> capacity_runs() const override {
    return {CapacityRun{0, link_count(), link_Bps_}};
  }
  std::string link_name(LinkId link) const override;
  void route(int src, int dst, const RouteContext& ctx, std::vector<LinkId>& out) const override;
  int route_links(int, int) const override { return 2; }  // injection and ejection
  bool has_fixed_routes() const override { return true; }

 private:
  int nodes_;
  double link_Bps_;
};

}  // namespace simmpi::hardware
