// SPDX-License-Identifier: Apache-2.0
// Dragonfly (Kim, Dally, Scott and Abts, "Technology-driven, highly-scalable dragonfly
// topology", ISCA 2008): g groups of a routers; each router has p nodes, a link to each of the
// a - 1 other routers of its group, and h global links. The a*h global ports of a group are
// spread over the other groups in the consecutive arrangement: port j of group G leads to group
// G + 1 + (j mod (g - 1)), copy floor(j / (g - 1)), so each pair of groups has
// floor(a*h / (g - 1)) global links (exactly one when g = a*h + 1; the balanced form is
// a = 2p = 2h). Ports beyond the last whole copy stay unused.
//
// Routing (Kim et al., section 4):
//   minimal  at most one local, one global and one local hop; the global link to the
//            destination group is one of the copies, chosen per flow;
//   valiant  minimal to a random intermediate group (neither source nor destination), then
//            minimal to the destination; traffic within a group stays minimal;
//   ugal     per flow, the minimal or the Valiant path, whichever has the smaller
//            hops x bottleneck load, the load of a link being (flows on it + 1) / bandwidth
//            (UGAL-G with flows standing in for queue occupancy, evaluated at injection).
// Control messages (no load information) take the minimal route under ugal.
#pragma once

#include <memory>

#include "hardware/network/topology.hpp"

namespace simmpi::runtime {
class Config;
}

namespace simmpi::hardware {

struct DragonflyShape {
  int a = 8;   // routers per group
  int p = 4;   // nodes per router
  int h = 4;   // global links per router
  int g = 33;  // groups, at most a*h + 1
  double terminal_Bps = 0, local_Bps = 0, global_Bps = 0;
};

class Dragonfly final : public Topology {
 public:
  enum class Routing { Minimal, Valiant, Ugal };

  Dragonfly(const DragonflyShape& shape, Routing routing);
  // Reads network.dragonfly.* and network.link_bw; throws ConfigError naming the key for an
  // impossible shape (g > a*h + 1, no global links between groups).
  static std::unique_ptr<Dragonfly> from_config(const runtime::Config& config);

  int node_count() const override { return s_.a * s_.p * s_.g; }
  int link_count() const override { return static_cast<int>(global_base_) + s_.g * s_.a * s_.h; }
  double link_bw_Bps(LinkId link) const override;
  std::vector<CapacityRun> capacity_runs() const override;  // terminal, local, global links
  std::string link_name(LinkId link) const override;
  void route(int src, int dst, const RouteContext& ctx, std::vector<LinkId>& out) const override;

  // The global link from group `from` to group `to` (copy 0), for tests and statistics.
  LinkId global_link(int from, int to) const;

 private:
  struct Path {
    LinkId link[8];
    int n = 0;
    void add(LinkId l) { link[n++] = l; }
  };
  int group_of(int node) const { return node / (s_.a * s_.p); }
  int router_of(int node) const { return node / s_.p % s_.a; }
  LinkId local(int group, int from, int to) const;
  int port_to(int from_group, int to_group, int copy) const;
  int to_group(int group, int router, int target, int copy, Path& path) const;
  void minimal(int src, int dst, std::uint64_t salt, Path& path) const;
  void valiant(int src, int dst, std::uint64_t salt, Path& path) const;
  double cost(const Path& path, const LinkLoad& load) const;

  DragonflyShape s_;
  Routing routing_;
  int copies_;  // global links between each pair of groups
  std::int64_t local_base_, global_base_;
};

}  // namespace simmpi::hardware
