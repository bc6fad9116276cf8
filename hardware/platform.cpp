// SPDX-License-Identifier: Apache-2.0
// Placement of processes on nodes and the choice of the intra- or inter-node path.
#include "hardware/platform.hpp"

#include <algorithm>
#include <cstdio>

#include "hardware/compute/compute_model.hpp"
#include "hardware/network/flow_network.hpp"
#include "hardware/network/net_stats.hpp"
#include "hardware/network/topology_factory.hpp"
#include "hardware/placement.hpp"
#include "hardware/storage/storage_model.hpp"
#include "hardware/storage/storage_topology.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

// The machine's node count: node.count, else the topology's own size, else just enough nodes.
// Throws ConfigError when the ranks do not fit.
int machine_nodes(const runtime::Config& config, const Topology& topology, int processes) {
  auto per_node = static_cast<int>(config.integer("node.ranks_per_node"));
  int needed = (processes + per_node - 1) / per_node;
  auto count = static_cast<int>(config.integer("node.count"));
  if (count != 0 && count < needed)
    throw ConfigError(
        strprintf("%d ranks at node.ranks_per_node=%d need %d nodes, but node.count "
                  "is %d (%s); raise node.count or node.ranks_per_node",
                  processes, per_node, needed, count, config.origin("node.count").c_str()));
  int size = topology.node_count();
  if (has_own_size(config) && std::max(count, needed) > size) {
    std::string demand = count > needed ? strprintf("node.count is %d", count)
                                        : strprintf("%d ranks at node.ranks_per_node=%d need %d",
                                                    processes, per_node, needed);
    throw ConfigError(
        strprintf("network.topology = %s has %d nodes (%s), but %s; enlarge the "
                  "network or raise node.ranks_per_node",
                  config.text("network.topology").c_str(), size, size_parameters(config).c_str(),
                  demand.c_str()));
  }
  return count != 0 ? count : size;
}

}  // namespace

Platform* Platform::instance_ = nullptr;

void Platform::finish() {
  std::vector<std::string> paths = network_->finish();
  if (rank_matrix_) {
    rank_matrix_->write_csv(rank_matrix_path_, "rank");
    paths.push_back(rank_matrix_path_);
  }
  if (paths.empty()) return;
  std::string list;
  for (const std::string& p : paths) list += (list.empty() ? "" : ", ") + p;
  std::fprintf(stderr, "simmpi: network statistics in %s\n", list.c_str());
}

int Platform::configured_nodes(const runtime::Config& config) {
  auto count = static_cast<int>(config.integer("node.count"));
  if (count != 0 || !has_own_size(config)) return count;
  return make_topology(config, 1)->node_count();
}

Platform::~Platform() {
  if (instance_ == this) instance_ = nullptr;
}

Platform::Platform(runtime::Engine& engine, int processes, const runtime::Config& config,
                   int spare_processes)
    : engine_(engine),
      shm_latency_(config.time("node.shm_latency")),
      shm_Bps_(config.bandwidth_Bps("node.shm_bw")) {
  auto per_node = static_cast<int>(config.integer("node.ranks_per_node"));
  auto count = static_cast<int>(config.integer("node.count"));
  int needed = (processes + per_node - 1) / per_node;
  std::unique_ptr<Topology> topology = make_topology(config, std::max(count, needed));
  nodes_ = machine_nodes(config, *topology, processes);
  node_of_ = place_processes(processes, nodes_, config);
  std::vector<int> per_node_count(static_cast<std::size_t>(nodes_));
  for (int node : node_of_)
    if (++per_node_count[static_cast<std::size_t>(node)] > 1) node_shared_ = true;
  place_spares(per_node_count, per_node, spare_processes);
  StorageParams storage(config);
  auto with_storage = std::make_unique<StorageTopology>(std::move(topology), storage.server_Bps());
  const StorageTopology& storage_topology = *with_storage;
  network_ = std::make_unique<FlowNetwork>(engine, std::move(with_storage), config);
  storage_ = std::make_unique<StorageModel>(engine, *network_, storage_topology, storage);
  if (config.flag("network.stats") && config.text("network.stats_matrix") == "ranks") {
    rank_matrix_ = std::make_unique<TrafficMatrix>();
    rank_matrix_path_ = config.path("network.stats_prefix") + "matrix.csv";
  }
  compute_ = std::make_unique<ComputeModel>(config);
  instance_ = this;
}

void Platform::place_spares(const std::vector<int>& per_node_count, int per_node, int wanted) {
  for (int node = 0; node < nodes_; ++node) {
    if (per_node_count[static_cast<std::size_t>(node)] != 0) continue;
    free_slots_ += per_node;
    for (int k = 0; k < per_node && spare_processes_ < wanted; ++k, ++spare_processes_)
      node_of_.push_back(node);
  }
  // A spare that may share a node with another makes shared memory a possible path.
  if (spare_processes_ > 1 && per_node > 1) node_shared_ = true;
}

SimTime Platform::min_latency() const {
  return node_shared_ ? runtime::min(shm_latency_, network_->min_latency())
                      : network_->min_latency();
}

SimTime Platform::latency(int src, int dst) const {
  int a = node_of(src), b = node_of(dst);
  return a == b ? shm_latency_ : network_->latency(a, b);
}

SimTime Platform::alone_transfer(int src, int dst, std::uint64_t bytes) const {
  int a = node_of(src), b = node_of(dst);
  double bw = a == b ? shm_Bps_ : network_->alone_Bps(a, b);
  return bw > 0 ? runtime::transfer_time(static_cast<double>(bytes), bw) : SimTime();
}

std::string Platform::busiest_link(int src, int dst, SimTime from, SimTime to) const {
  int a = node_of(src), b = node_of(dst);
  return a == b ? std::string() : network_->busiest_link(a, b, from, to);
}

void Platform::transfer(int src, int dst, std::uint64_t bytes, ArrivalNotice arrived) {
  int a = node_of(src), b = node_of(dst);
  if (rank_matrix_) rank_matrix_->add(src, dst, bytes);
  if (a != b) {
    network_->transfer(a, b, bytes, arrived);
    return;
  }
  // Shared memory: one copy, no contention modeled yet.
  arrived(engine_.now() + shm_latency_ +
          runtime::transfer_time(static_cast<double>(bytes), shm_Bps_));
}

}  // namespace simmpi::hardware
