// SPDX-License-Identifier: Apache-2.0
// Destinations of the synthetic traffic patterns, and the checks that a pattern fits the network.
#include "tools/traffic/traffic_pattern.hpp"

#include <array>
#include <cmath>
#include <utility>

#include "hardware/seeded_random.hpp"
#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::traffic {
namespace {

using hardware::below;
using hardware::mix64;

constexpr std::array<std::pair<const char*, PatternKind>, 11> kNames = {{
    {"uniform", PatternKind::Uniform},
    {"permutation", PatternKind::Permutation},
    {"bit_complement", PatternKind::BitComplement},
    {"bit_reverse", PatternKind::BitReverse},
    {"transpose", PatternKind::Transpose},
    {"shuffle", PatternKind::Shuffle},
    {"tornado", PatternKind::Tornado},
    {"neighbor", PatternKind::Neighbor},
    {"dragonfly_worst", PatternKind::DragonflyWorst},
    {"all_to_all", PatternKind::AllToAll},
    {"hot_spot", PatternKind::HotSpot},
}};

// Random streams of one message, apart from each other.
constexpr std::uint64_t kDestinationStream = 1;
constexpr std::uint64_t kHotStream = 2;
constexpr std::uint64_t kNeighborStream = 3;
constexpr std::uint64_t kPermutationSalt = 0x7065726dULL;

int log2_exact(int n) {
  int b = 0;
  while ((1 << b) < n) ++b;
  return (1 << b) == n ? b : -1;
}

int sqrt_exact(int n) {
  auto s = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
  return s * s == n ? s : -1;
}

}  // namespace

NetworkShape NetworkShape::from_config(const runtime::Config& c, int nodes) {
  NetworkShape s;
  s.nodes = nodes;
  s.topology = c.text("network.topology");
  if (s.topology == "torus") {
    for (std::int64_t k : c.integer_list("network.torus.dims"))
      s.torus_dims.push_back(static_cast<int>(k));
    s.torus_terminals = static_cast<int>(c.integer("network.torus.terminals"));
  } else if (s.topology == "dragonfly") {
    s.group_nodes = static_cast<int>(c.integer("network.dragonfly.routers") *
                                     c.integer("network.dragonfly.terminals"));
    s.groups = nodes / s.group_nodes;
  }
  return s;
}

PatternKind parse_pattern(const std::string& name) {
  for (const auto& [n, kind] : kNames)
    if (name == n) return kind;
  throw ConfigError("--pattern " + name + ": unknown pattern; choose one of " + pattern_names());
}

const char* pattern_name(PatternKind kind) {
  for (const auto& [n, k] : kNames)
    if (k == kind) return n;
  return "?";
}

std::string pattern_names() {
  std::string s;
  for (const auto& [n, kind] : kNames) s += (s.empty() ? "" : ", ") + std::string(n);
  return s;
}

Pattern::Pattern(PatternKind kind, const NetworkShape& shape, std::uint64_t seed,
                 double hot_fraction, int hot_node)
    : kind_(kind),
      shape_(shape),
      mixed_seed_(mix64(seed)),
      bits_(log2_exact(shape.nodes)),
      side_(sqrt_exact(shape.nodes)),
      hot_fraction_(hot_fraction),
      hot_node_(hot_node) {
  const int n = shape.nodes;
  const std::string what = std::string("--pattern ") + pattern_name(kind) + ": ";
  if (n < 2) throw ConfigError(what + "the network has fewer than 2 endpoints");
  bool power_of_two = kind == PatternKind::BitComplement || kind == PatternKind::BitReverse ||
                      kind == PatternKind::Shuffle;
  if (power_of_two && bits_ < 0)
    throw ConfigError(what +
                      strprintf("needs a power-of-two endpoint count; the network has %d", n));
  if (kind == PatternKind::Transpose && side_ < 0)
    throw ConfigError(what +
                      strprintf("needs a square endpoint count (n x n); the network has %d", n));
  if (kind == PatternKind::Neighbor && shape.topology != "torus")
    throw ConfigError(what + "needs network.topology = torus (the network is a " + shape.topology +
                      ")");
  if (kind == PatternKind::DragonflyWorst && (shape.topology != "dragonfly" || shape.groups < 2))
    throw ConfigError(what +
                      "needs network.topology = dragonfly with at least 2 groups (the "
                      "network is a " +
                      shape.topology + ")");
  if (kind == PatternKind::HotSpot) {
    if (!(hot_fraction >= 0 && hot_fraction <= 1))
      throw ConfigError(strprintf("--hot-fraction %g: a probability, in [0, 1]", hot_fraction));
    if (hot_node < 0 || hot_node >= n)
      throw ConfigError(
          strprintf("--hot-node %d: not an endpoint of the network, [0, %d)", hot_node, n));
  }
  if (kind == PatternKind::Permutation) {  // Sattolo's shuffle: a single cycle, no fixed point
    perm_.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) perm_[static_cast<std::size_t>(i)] = i;
    for (int i = n - 1; i > 0; --i) {
      auto j = static_cast<std::size_t>(
          below(mix64(seed ^ kPermutationSalt, static_cast<std::uint64_t>(i)),
                static_cast<std::uint64_t>(i)));
      std::swap(perm_[static_cast<std::size_t>(i)], perm_[j]);
    }
  }
}

// mix64(mix64(mix64(seed, src), k), stream), with mix64(seed, src) = mix64(mix64(seed) ^ src).
std::uint64_t Pattern::draw(int src, std::uint64_t k, std::uint64_t stream) const {
  return mix64(mix64(mix64(mixed_seed_ ^ static_cast<std::uint64_t>(src)), k), stream);
}

int Pattern::uniform(int src, std::uint64_t k, std::uint64_t stream) const {
  auto n = static_cast<std::uint64_t>(shape_.nodes);
  // src + 1 + [0, n - 1) < 2n: (...) mod n without a division.
  const std::uint64_t d = static_cast<std::uint64_t>(src) + 1 + below(draw(src, k, stream), n - 1);
  return static_cast<int>(d >= n ? d - n : d);
}

bool Pattern::sends(int src) const {
  switch (kind_) {
    case PatternKind::Uniform:
    case PatternKind::HotSpot:
    case PatternKind::DragonflyWorst:  // another group: at least 2 (checked)
    case PatternKind::AllToAll:
      return true;  // a destination among the others, whatever the draw
    default:        // fixed patterns, and neighbor on a torus with no dimension to move in
      return destination(src, 0) != src;
  }
}

int Pattern::tornado(int src) const {
  if (shape_.topology != "torus") {
    int n = shape_.nodes;
    return (src + (n + 1) / 2 - 1) % n;
  }
  int t = shape_.torus_terminals, router = src / t, out = 0, stride = 1;
  for (int k : shape_.torus_dims) {
    int c = router / stride % k;
    out += (c + (k + 1) / 2 - 1) % k * stride;
    stride *= k;
  }
  return out * t + src % t;
}

int Pattern::neighbor(int src, std::uint64_t k) const {
  int t = shape_.torus_terminals, router = src / t;
  int moving = 0;  // dimensions with a neighbour
  for (int d : shape_.torus_dims) moving += d > 1 ? 1 : 0;
  if (moving == 0) return src;
  std::uint64_t r = draw(src, k, kNeighborStream);
  auto pick = static_cast<int>(below(r, static_cast<std::uint64_t>(2 * moving)));
  int stride = 1;
  for (int d : shape_.torus_dims) {
    if (d > 1 && pick / 2 == 0) {
      int c = router / stride % d;
      int next = (c + (pick % 2 == 0 ? 1 : d - 1)) % d;
      return (router + (next - c) * stride) * t + src % t;
    }
    if (d > 1) pick -= 2;
    stride *= d;
  }
  return src;
}

int Pattern::destination(int src, std::uint64_t k) const {
  const int n = shape_.nodes;
  switch (kind_) {
    case PatternKind::Uniform:
      return uniform(src, k, kDestinationStream);
    case PatternKind::Permutation:
      return perm_[static_cast<std::size_t>(src)];
    case PatternKind::BitComplement:
      return (n - 1) ^ src;
    case PatternKind::BitReverse: {
      int d = 0;
      for (int i = 0; i < bits_; ++i) d |= (src >> i & 1) << (bits_ - 1 - i);
      return d;
    }
    case PatternKind::Transpose:
      return src % side_ * side_ + src / side_;
    case PatternKind::Shuffle:
      return bits_ == 0 ? src : ((src << 1) | (src >> (bits_ - 1))) & (n - 1);
    case PatternKind::Tornado:
      return tornado(src);
    case PatternKind::Neighbor:
      return neighbor(src, k);
    case PatternKind::DragonflyWorst: {
      int next_group = (src / shape_.group_nodes + 1) % shape_.groups;
      auto within = static_cast<int>(
          below(draw(src, k, kDestinationStream), static_cast<std::uint64_t>(shape_.group_nodes)));
      return next_group * shape_.group_nodes + within;
    }
    case PatternKind::AllToAll:
      return static_cast<int>(
          (static_cast<std::uint64_t>(src) + 1 + k % static_cast<std::uint64_t>(n - 1)) %
          static_cast<std::uint64_t>(n));
    case PatternKind::HotSpot: {
      double u = static_cast<double>(draw(src, k, kHotStream) >> 11) * 0x1p-53;
      if (u < hot_fraction_ && src != hot_node_) return hot_node_;
      return uniform(src, k, kDestinationStream);
    }
  }
  return src;
}

}  // namespace simmpi::traffic
