// SPDX-License-Identifier: Apache-2.0
// Routes to and from the file system's servers, on any compute topology.
#include "hardware/storage/storage_topology.hpp"

#include "runtime/core/error.hpp"

namespace simmpi::hardware {

StorageTopology::StorageTopology(std::unique_ptr<Topology> base,
                                 const std::vector<double>& server_Bps)
    : base_(std::move(base)),
      base_nodes_(base_->node_count()),
      base_links_(base_->link_count()),
      server_Bps_(server_Bps) {}

int StorageTopology::gateway(int i) const {
  return static_cast<int>((2LL * i + 1) * base_nodes_ / (2LL * servers()));
}

double StorageTopology::link_bw_Bps(LinkId link) const {
  if (link < base_links_) return base_->link_bw_Bps(link);
  return server_Bps_[static_cast<std::size_t>((link - base_links_) / 2)];
}

std::vector<CapacityRun> StorageTopology::capacity_runs() const {
  std::vector<CapacityRun> runs = base_->capacity_runs();
  for (int i = 0; i < servers(); ++i)
    runs.push_back(CapacityRun{server_in(i), 2, server_Bps_[static_cast<std::size_t>(i)]});
  return runs;
}

std::string StorageTopology::link_name(LinkId link) const {
  if (link < base_links_) return base_->link_name(link);
  int i = (link - base_links_) / 2;
  std::string server = "server" + std::to_string(i);
  std::string gw = "switch(n" + std::to_string(gateway(i)) + ")";
  return (link - base_links_) % 2 == 0 ? gw + ">" + server : server + ">" + gw;
}

// Every route starts with the source's injection link and ends with the destination's ejection
// link (topology.hpp), so any route tells them; a one-node network has a route to nowhere, and
// its node reaches its switch by link 0 and back by link 1 (the crossbar's numbering, the only
// topology of one node).
LinkId StorageTopology::injection(int node) const {
  if (base_nodes_ < 2) return 0;
  scratch_.clear();
  base_->route(node, node == 0 ? 1 : 0, RouteContext{}, scratch_);
  return scratch_.front();
}

LinkId StorageTopology::ejection(int node) const {
  if (base_nodes_ < 2) return 1;
  scratch_.clear();
  base_->route(node == 0 ? 1 : 0, node, RouteContext{}, scratch_);
  return scratch_.back();
}

void StorageTopology::route(int src, int dst, const RouteContext& ctx,
                            std::vector<LinkId>& out) const {
  SIMMPI_ASSERT(!(is_server(src) && is_server(dst)), "route between servers %d and %d", src, dst);
  if (!is_server(src) && !is_server(dst)) {
    base_->route(src, dst, ctx, out);
    return;
  }
  if (is_server(dst)) {
    int i = dst - base_nodes_, gw = gateway(i);
    if (src == gw) {
      out.push_back(injection(src));
    } else {
      base_->route(src, gw, ctx, out);
      out.pop_back();  // the gateway's ejection link: the server hangs on the same switch
    }
    out.push_back(server_in(i));
    return;
  }
  int i = src - base_nodes_, gw = gateway(i);
  out.push_back(server_out(i));
  if (dst == gw) {
    out.push_back(ejection(dst));
    return;
  }
  std::size_t at = out.size();
  base_->route(gw, dst, ctx, out);
  out.erase(out.begin() + static_cast<std::ptrdiff_t>(at));  // the gateway's injection link
}

int StorageTopology::route_links(int src, int dst) const {
  if (!is_server(src) && !is_server(dst)) return base_->route_links(src, dst);
  int i = (is_server(dst) ? dst : src) - base_nodes_;
  int other = is_server(dst) ? src : dst;
  if (other == gateway(i)) return 2;
  return base_->route_links(is_server(dst) ? src : gateway(i), is_server(dst) ? gateway(i) : dst);
}

}  // namespace simmpi::hardware
