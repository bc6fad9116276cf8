// SPDX-License-Identifier: Apache-2.0
// network.topology -> Topology.
#include "hardware/network/topology_factory.hpp"

#include "hardware/network/crossbar.hpp"
#include "hardware/network/dragonfly.hpp"
#include "hardware/network/fat_tree.hpp"
#include "hardware/network/torus.hpp"
#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

std::string list_value(const runtime::Config& c, const char* key) {
  std::string s = "[";
  for (std::int64_t v : c.integer_list(key)) s += (s.size() > 1 ? ", " : "") + std::to_string(v);
  return strprintf("%s = %s] (%s)", key, s.c_str(), c.origin(key).c_str());
}

}  // namespace

std::unique_ptr<Topology> make_topology(const runtime::Config& config, int nodes) {
  const std::string& t = config.text("network.topology");
  if (t == "crossbar")
    return std::make_unique<Crossbar>(nodes, config.bandwidth_Bps("network.link_bw"));
  if (t == "fat_tree") return FatTree::from_config(config);
  if (t == "dragonfly") return Dragonfly::from_config(config);
  if (t == "torus") return Torus::from_config(config);
  SIMMPI_ASSERT(false, "network.topology=%s passed the registry's choices", t.c_str());
  return nullptr;
}

bool has_own_size(const runtime::Config& config) {
  return config.text("network.topology") != "crossbar";
}

std::string size_parameters(const runtime::Config& c) {
  const std::string& t = c.text("network.topology");
  if (t == "fat_tree") return list_value(c, "network.fat_tree.down");
  if (t == "torus")
    return list_value(c, "network.torus.dims") +
           strprintf(" with network.torus.terminals = %lld",
                     static_cast<long long>(c.integer("network.torus.terminals")));
  if (t == "dragonfly")
    return strprintf("network.dragonfly.routers = %lld, terminals = %lld, groups = %lld",
                     static_cast<long long>(c.integer("network.dragonfly.routers")),
                     static_cast<long long>(c.integer("network.dragonfly.terminals")),
                     static_cast<long long>(c.integer("network.dragonfly.groups")));
  return "node.count";
}

}  // namespace simmpi::hardware
