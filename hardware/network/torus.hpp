// SPDX-License-Identifier: Apache-2.0
// Torus or mesh of any dimension (k_0 x k_1 x ... routers, `terminals` nodes on each), as in
// Blue Gene and Cray XT/Gemini machines. Every router has a + and a - link in each dimension
// (with wrap-around links on a torus). Routing is dimension-order (Dally and Seitz, "Deadlock-free
// message routing in multiprocessor interconnection networks", 1987): dimension 0 first, each
// dimension along its shorter way round (+ on a tie), so a route crosses the Manhattan distance
// (with wrap-around) plus one routers.
//
// Node n sits on router n / terminals; router coordinates are mixed radix, dimension 0 fastest.
#pragma once

#include <memory>
#include <vector>

#include "hardware/network/topology.hpp"

namespace simmpi::runtime {
class Config;
}

namespace simmpi::hardware {

struct TorusShape {
  std::vector<int> dims;
  bool wrap = true;
  int terminals = 1;
  double link_Bps = 0;
};

class Torus final : public Topology {
 public:
  explicit Torus(const TorusShape& shape);
  // Reads network.torus.* and network.link_bw.
  static std::unique_ptr<Torus> from_config(const runtime::Config& config);

  int node_count() const override { return routers_ * s_.terminals; }
  int link_count() const override { return static_cast<int>(router_base_) + routers_ * dims() * 2; }
  double link_bw_Bps(LinkId) const override { return s_.link_Bps; }
  std::vector<CapacityRun> capacity_runs() const override {
    return {CapacityRun{0, link_count(), s_.link_Bps}};
  }
  std::string link_name(LinkId link) const override;
  void route(int src, int dst, const RouteContext& ctx, std::vector<LinkId>& out) const override;
  bool has_fixed_routes() const override { return true; }  // dimension order

  // Routers on the dimension-order route, counting both ends: distance + 1.
  int routers_crossed(int src, int dst) const;

 private:
  int dims() const { return static_cast<int>(s_.dims.size()); }
  // Steps (signed: + or - direction) from coordinate a to b along dimension d.
  int steps(int d, int a, int b) const;

  TorusShape s_;
  int routers_;
  std::vector<int> stride_;
  std::int64_t router_base_;
};

}  // namespace simmpi::hardware
