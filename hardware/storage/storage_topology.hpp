// SPDX-License-Identifier: Apache-2.0
// The network with the file system's servers on it (DESIGN.md, "I/O"): each server (an object
// storage target, or the metadata server) is one more endpoint of the topology, attached to the
// switch of a compute node, its gateway, by a link each way whose bandwidth is the server's own.
// A route to a server is the route to its gateway with the gateway's ejection link replaced by
// the server's link; a route from a server starts with the server's link and goes on as the
// gateway's route would. So I/O flows share the compute network's links with MPI traffic, cross
// as many switches as a message to the gateway does, and a server's bandwidth is shared max-min
// by the flows that reach it, like any link's.
#pragma once

#include <memory>
#include <vector>

#include "hardware/network/topology.hpp"

namespace simmpi::hardware {

class StorageTopology final : public Topology {
 public:
  // `servers` servers after the nodes of `base`, server i with bandwidth `server_Bps[i]` each
  // way, attached at evenly spread gateways (node (2i + 1) * nodes / (2 * servers)).
  StorageTopology(std::unique_ptr<Topology> base, const std::vector<double>& server_Bps);

  int node_count() const override { return base_nodes_ + servers(); }
  int link_count() const override { return base_links_ + 2 * servers(); }
  double link_bw_Bps(LinkId link) const override;
  std::vector<CapacityRun> capacity_runs() const override;  // the base's, then the servers'
  std::string link_name(LinkId link) const override;
  void route(int src, int dst, const RouteContext& ctx, std::vector<LinkId>& out) const override;
  int route_links(int src, int dst) const override;
  bool has_fixed_routes() const override { return base_->has_fixed_routes(); }

  int base_nodes() const { return base_nodes_; }
  int servers() const { return static_cast<int>(server_Bps_.size()); }
  // The network node of server `i`, and the compute node whose switch it hangs on.
  int server_node(int i) const { return base_nodes_ + i; }
  int gateway(int i) const;

 private:
  bool is_server(int node) const { return node >= base_nodes_; }
  LinkId server_in(int i) const { return base_links_ + 2 * i; }  // gateway switch -> server
  LinkId server_out(int i) const { return base_links_ + 2 * i + 1; }
  // The first link of every route from `node`, and the last of every route to it.
  LinkId injection(int node) const;
  LinkId ejection(int node) const;

  std::unique_ptr<Topology> base_;
  int base_nodes_;
  int base_links_;
  std::vector<double> server_Bps_;
  mutable std::vector<LinkId> scratch_;
};

}  // namespace simmpi::hardware
