// SPDX-License-Identifier: Apache-2.0
// Where synthetic traffic goes: the destination of a source's k-th message under the classic
// patterns of interconnect studies (Dally and Towles, "Principles and Practices of
// Interconnection Networks", 2004, section 3.2; Kim, Dally, Scott and Abts, ISCA 2008, for the
// dragonfly's worst case). With N endpoints and b = log2 N bits:
//   uniform          a destination drawn uniformly among the other N - 1, per message
//   permutation      a fixed random permutation with one cycle (Sattolo), so nobody sends to itself
//   bit_complement   d = ~s (N a power of two)
//   bit_reverse      d = s's b bits in reverse order (N a power of two)
//   transpose        s = (i, j) on an n x n grid -> (j, i) (N = n^2)
//   shuffle          d = s's bits rotated left by one (N a power of two)
//   tornado          halfway round less one, (c + ceil(k/2) - 1) mod k: on a torus in every
//                    dimension of the router coordinates (the terminal kept), else over N
//   neighbor         a router next to the source's (one step in a random dimension and
//                    direction, the terminal kept), per message; tori only
//   dragonfly_worst  a random node of the next group, group i -> i + 1 mod g; dragonflies only
//   all_to_all       the k-th message goes to s + 1 + (k mod (N - 1)): every other node in turn
//   hot_spot         the hot node with probability hot_fraction, else uniform
// Fixed patterns map some sources to themselves (bit_reverse's palindromes, transpose's
// diagonal...): those sources send nothing, and the tool says how many there are.
// Every random choice is a pure function of (seed, source, message index).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simmpi::runtime {
class Config;
}

namespace simmpi::traffic {

enum class PatternKind {
  Uniform,
  Permutation,
  BitComplement,
  BitReverse,
  Transpose,
  Shuffle,
  Tornado,
  Neighbor,
  DragonflyWorst,
  AllToAll,
  HotSpot
};

// What the patterns need to know of the network (read from the configuration).
struct NetworkShape {
  int nodes = 0;
  std::string topology;         // network.topology
  std::vector<int> torus_dims;  // torus: routers along each dimension
  int torus_terminals = 1;
  int group_nodes = 0;  // dragonfly: nodes per group (routers x terminals)
  int groups = 0;
  static NetworkShape from_config(const runtime::Config& config, int nodes);
};

// "--pattern NAME" -> kind; throws ConfigError listing the names.
PatternKind parse_pattern(const std::string& name);
const char* pattern_name(PatternKind kind);
// The names, comma-separated, for help and messages.
std::string pattern_names();

class Pattern {
 public:
  // Throws ConfigError naming --pattern (or --hot-node / --hot-fraction) when the pattern does
  // not fit the network: a power of two or a square endpoint count, a torus, a dragonfly.
  Pattern(PatternKind kind, const NetworkShape& shape, std::uint64_t seed, double hot_fraction,
          int hot_node);

  PatternKind kind() const { return kind_; }
  // Destination of source `src`'s message number `k`; `src` itself when `src` sends nothing
  // (only for fixed patterns, whatever k).
  int destination(int src, std::uint64_t k) const;
  // Whether `src` sends anything: destination(src, k) != src, for every k. Draws nothing for the
  // random patterns (a million endpoints' first draws were 2% of simmpi-traffic's instructions).
  bool sends(int src) const;

 private:
  std::uint64_t draw(int src, std::uint64_t k, std::uint64_t stream) const;
  int uniform(int src, std::uint64_t k, std::uint64_t stream) const;
  int tornado(int src) const;
  int neighbor(int src, std::uint64_t k) const;

  PatternKind kind_;
  NetworkShape shape_;
  std::uint64_t mixed_seed_;  // mix64(seed), the first step of every draw
  int bits_ = 0;              // log2 N when N is a power of two
  int side_ = 0;              // sqrt N when N is a square
  std::vector<int> perm_;
  double hot_fraction_;
  int hot_node_;
};

}  // namespace simmpi::traffic
