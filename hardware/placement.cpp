// SPDX-License-Identifier: Apache-2.0
// The four placement policies. The file format follows the task-mapping files of MARS-style
// studies: node numbers in order, line k hosting the k-th group of ranks_per_node ranks.
#include "hardware/placement.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>

#include "hardware/seeded_random.hpp"
#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

// A random sample of `count` slots out of `slots` in random order: the first `count` steps of a
// Fisher-Yates shuffle over a virtual array, so memory is O(count) even on a huge machine.
std::vector<std::int64_t> random_slots(std::int64_t count, std::int64_t slots, std::uint64_t seed) {
  std::unordered_map<std::int64_t, std::int64_t> moved;  // looked up only, never iterated
  auto at = [&](std::int64_t i) {
    auto it = moved.find(i);
    return it == moved.end() ? i : it->second;
  };
  std::vector<std::int64_t> out(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    auto j = i + static_cast<std::int64_t>(below(mix64(seed, static_cast<std::uint64_t>(i)),
                                                 static_cast<std::uint64_t>(slots - i)));
    std::int64_t vi = at(i), vj = at(j);
    out[static_cast<std::size_t>(i)] = vj;
    moved[j] = vi;
  }
  return out;
}

// Node numbers listed in the file, in order; each exists and appears once.
std::vector<int> read_node_list(const std::string& path, const std::string& origin, int nodes) {
  std::string what = "node.placement_file = \"" + path + "\" (" + origin + ")";
  if (path.empty())
    throw ConfigError(
        "node.placement = file needs node.placement_file, a file of node numbers "
        "(one per line)");
  std::ifstream in(path);
  if (!in) throw ConfigError(what + ": cannot be read (" + std::strerror(errno) + ")");
  std::vector<int> list;
  std::map<int, int> first_line;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    line = line.substr(0, line.find('#'));
    std::istringstream words(line);
    std::string w;
    while (words >> w) {
      char* end = nullptr;
      long v = std::strtol(w.c_str(), &end, 10);
      std::string at = strprintf("%s:%d: ", path.c_str(), n);
      if (*end != '\0') throw ConfigError(at + "\"" + w + "\" is not a node number (" + what + ")");
      if (v < 0 || v >= nodes)
        throw ConfigError(at + strprintf("node %ld does not exist: the machine has nodes 0 to "
                                         "%d (%s)",
                                         v, nodes - 1, what.c_str()));
      auto [it, fresh] = first_line.emplace(static_cast<int>(v), n);
      if (!fresh)
        throw ConfigError(at + strprintf("node %ld is listed again (first on line %d); each "
                                         "entry names a different node (%s)",
                                         v, it->second, what.c_str()));
      list.push_back(static_cast<int>(v));
    }
  }
  return list;
}

}  // namespace

std::vector<int> place_processes(int processes, int nodes, const runtime::Config& config) {
  auto per_node = static_cast<int>(config.integer("node.ranks_per_node"));
  int used = (processes + per_node - 1) / per_node;
  SIMMPI_ASSERT(used <= nodes, "%d processes need %d nodes of %d", processes, used, nodes);
  const std::string& policy = config.text("node.placement");
  std::vector<int> node_of(static_cast<std::size_t>(processes));
  if (policy == "round_robin") {
    for (int p = 0; p < processes; ++p) node_of[static_cast<std::size_t>(p)] = p % used;
  } else if (policy == "random") {
    auto seed = mix64(static_cast<std::uint64_t>(config.integer("runtime.seed")), 0x706c616365ULL);
    std::vector<std::int64_t> slots =
        random_slots(processes, static_cast<std::int64_t>(nodes) * per_node, seed);
    for (int p = 0; p < processes; ++p)
      node_of[static_cast<std::size_t>(p)] =
          static_cast<int>(slots[static_cast<std::size_t>(p)] / per_node);
  } else if (policy == "file") {
    const std::string path = config.path("node.placement_file");
    std::vector<int> list = read_node_list(path, config.origin("node.placement_file"), nodes);
    if (static_cast<int>(list.size()) < used)
      throw ConfigError(
          strprintf("node.placement_file = \"%s\": lists %zu nodes, but %d ranks at "
                    "node.ranks_per_node = %d need %d; add nodes to the file",
                    path.c_str(), list.size(), processes, per_node, used));
    for (int p = 0; p < processes; ++p)
      node_of[static_cast<std::size_t>(p)] = list[static_cast<std::size_t>(p / per_node)];
  } else {
    for (int p = 0; p < processes; ++p) node_of[static_cast<std::size_t>(p)] = p / per_node;
  }
  return node_of;
}

}  // namespace simmpi::hardware
