// SPDX-License-Identifier: Apache-2.0
// The topology that network.topology names, built from its own configuration keys.
#pragma once

#include <memory>
#include <string>

#include "hardware/network/topology.hpp"

namespace simmpi::runtime {
class Config;
}

namespace simmpi::hardware {

// Builds the configured topology. `nodes` sizes the topologies whose size is not a parameter of
// their own (the crossbar); the others have their own node count. Throws ConfigError naming the
// key when the parameters do not describe a network.
std::unique_ptr<Topology> make_topology(const runtime::Config& config, int nodes);

// Whether the configured topology's node count comes from its own parameters, and a phrase naming
// them for messages: "network.fat_tree.down = [32, 16] (default)".
bool has_own_size(const runtime::Config& config);
std::string size_parameters(const runtime::Config& config);

}  // namespace simmpi::hardware
