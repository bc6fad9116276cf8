// SPDX-License-Identifier: Apache-2.0
// Placement of processes (MPI ranks) on the nodes of the machine, by node.placement: block,
// round-robin, random (seeded by runtime.seed) or from a file, node.ranks_per_node per node.
#pragma once

#include <vector>

namespace simmpi::runtime {
class Config;
}

namespace simmpi::hardware {

// The node of each of `processes` processes on a machine of `nodes` nodes (0 .. nodes-1), which
// has room for them (ceil(processes / ranks_per_node) <= nodes). Throws ConfigError for a
// placement file that cannot be read, names a node the machine lacks, repeats a node or lists too
// few nodes.
std::vector<int> place_processes(int processes, int nodes, const runtime::Config& config);

}  // namespace simmpi::hardware
