// SPDX-License-Identifier: Apache-2.0
// Placement of processes on nodes and the choice of the intra- or inter-node path.
#include "hardware/platform.hpp"

#include "hardware/network/crossbar.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

std::unique_ptr<Network> make_network(runtime::Engine& engine, int nodes,
                                      const runtime::Config& config) {
  const std::string& topology = config.text("network.topology");
  if (topology == "crossbar") return std::make_unique<Crossbar>(engine, nodes, config);
  SIMMPI_ASSERT(false, "network.topology=%s passed the registry's choices", topology.c_str());
  return nullptr;
}

}  // namespace

Platform* Platform::instance_ = nullptr;

Platform::~Platform() {
  if (instance_ == this) instance_ = nullptr;
}

Platform::Platform(runtime::Engine& engine, int processes, const runtime::Config& config)
    : engine_(engine),
      shm_latency_(config.time("node.shm_latency")),
      shm_Bps_(config.bandwidth_Bps("node.shm_bw")) {
  auto per_node = static_cast<int>(config.integer("node.ranks_per_node"));
  int needed = (processes + per_node - 1) / per_node;
  auto count = static_cast<int>(config.integer("node.count"));
  if (count != 0 && count < needed)
    throw ConfigError(strprintf("%d ranks at node.ranks_per_node=%d need %d nodes, but node.count "
                                "is %d (%s); raise node.count or node.ranks_per_node",
                                processes, per_node, needed, count,
                                config.origin("node.count").c_str()));
  nodes_ = count != 0 ? count : needed;
  node_of_.resize(static_cast<std::size_t>(processes));
  for (int p = 0; p < processes; ++p) node_of_[static_cast<std::size_t>(p)] = p / per_node;
  network_ = make_network(engine, nodes_, config);
  instance_ = this;
}

SimTime Platform::latency(int src, int dst) const {
  int a = node_of(src), b = node_of(dst);
  return a == b ? shm_latency_ : network_->latency(a, b);
}

void Platform::transfer(int src, int dst, std::uint64_t bytes, Action delivered) {
  int a = node_of(src), b = node_of(dst);
  if (a != b) {
    network_->transfer(a, b, bytes, delivered);
    return;
  }
  // Shared memory: one copy, no contention modeled yet.
  SimTime t = engine_.now() + shm_latency_ + runtime::transfer_time(static_cast<double>(bytes), shm_Bps_);
  engine_.schedule(t, delivered);
}

}  // namespace simmpi::hardware
