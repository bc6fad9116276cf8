// SPDX-License-Identifier: Apache-2.0
// The destinations of simmpi-traffic's patterns and the gaps of its injection processes, by hand.
#include "tools/traffic/traffic_pattern.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

#include "hardware/seeded_random.hpp"
#include "runtime/core/error.hpp"
#include "tools/traffic/injection_process.hpp"

namespace simmpi::traffic {
namespace {

NetworkShape flat(int nodes) {
  NetworkShape s;
  s.nodes = nodes;
  s.topology = "fat_tree";
  return s;
}

NetworkShape torus(std::vector<int> dims, int terminals) {
  NetworkShape s;
  s.topology = "torus";
  s.torus_dims = dims;
  s.torus_terminals = terminals;
  s.nodes = terminals;
  for (int k : dims) s.nodes *= k;
  return s;
}

int dest(PatternKind kind, const NetworkShape& shape, int src, std::uint64_t k = 0) {
  return Pattern(kind, shape, 1, 0.1, 0).destination(src, k);
}

}  // namespace

TEST(TrafficPattern, BitPermutationsOf64Endpoints) {
  NetworkShape s = flat(64);
  EXPECT_EQ(dest(PatternKind::BitComplement, s, 0b000110), 0b111001);
  EXPECT_EQ(dest(PatternKind::BitReverse, s, 0b000110), 0b011000);
  EXPECT_EQ(dest(PatternKind::BitReverse, s, 0b101101), 0b101101);  // a palindrome: idle
  EXPECT_EQ(dest(PatternKind::Shuffle, s, 0b100110), 0b001101);
  // Transpose on the 8 x 8 grid: s = 8i + j -> 8j + i.
  EXPECT_EQ(dest(PatternKind::Transpose, s, 8 * 2 + 5), 8 * 5 + 2);
  // Tornado over 64 endpoints: halfway less one, s + 31.
  EXPECT_EQ(dest(PatternKind::Tornado, s, 40), (40 + 31) % 64);
}

TEST(TrafficPattern, TornadoAndNeighborWorkOnRouterCoordinates) {
  // 5 x 4 routers, 2 terminals each: node = 2 * (x + 5y) + t.
  NetworkShape s = torus({5, 4}, 2);
  auto node = [](int x, int y, int t) { return 2 * (x + 5 * y) + t; };
  // Tornado: x + ceil(5/2) - 1 = x + 2 mod 5, y + ceil(4/2) - 1 = y + 1 mod 4, terminal kept.
  EXPECT_EQ(dest(PatternKind::Tornado, s, node(4, 3, 1)), node(1, 0, 1));
  // Neighbor: one step in one dimension, terminal kept; over many messages all 4 appear.
  std::set<int> seen;
  for (std::uint64_t k = 0; k < 200; ++k)
    seen.insert(dest(PatternKind::Neighbor, s, node(0, 0, 1), k));
  EXPECT_EQ(seen, (std::set<int>{node(1, 0, 1), node(4, 0, 1), node(0, 1, 1), node(0, 3, 1)}));
}

TEST(TrafficPattern, RandomPatternsNeverSendToThemselves) {
  NetworkShape s = flat(50);
  Pattern perm(PatternKind::Permutation, s, 7, 0, 0);
  std::set<int> targets;
  for (int src = 0; src < 50; ++src) {
    EXPECT_NE(perm.destination(src, 0), src);
    targets.insert(perm.destination(src, 3));
    for (std::uint64_t k = 0; k < 20; ++k) {
      EXPECT_NE(dest(PatternKind::Uniform, s, src, k), src);
      EXPECT_NE(dest(PatternKind::AllToAll, s, src, k), src);
    }
  }
  EXPECT_EQ(targets.size(), 50u);  // a permutation
  // All-to-all visits every other endpoint once in N - 1 messages.
  std::set<int> visited;
  for (std::uint64_t k = 0; k < 49; ++k) visited.insert(dest(PatternKind::AllToAll, s, 3, k));
  EXPECT_EQ(visited.size(), 49u);
}

// sends() draws nothing for the random patterns and asks destination() for the others: the two
// agree on every source.
TEST(TrafficPattern, SendsIsWhetherTheDestinationIsAnother) {
  for (PatternKind kind :
       {PatternKind::Uniform, PatternKind::Permutation, PatternKind::BitComplement,
        PatternKind::BitReverse, PatternKind::Transpose, PatternKind::Shuffle, PatternKind::Tornado,
        PatternKind::AllToAll, PatternKind::HotSpot}) {
    Pattern p(kind, flat(64), 5, 0.3, 9);
    for (int src = 0; src < 64; ++src)
      for (std::uint64_t k = 0; k < 3; ++k)
        EXPECT_EQ(p.sends(src), p.destination(src, k) != src) << pattern_name(kind) << " " << src;
  }
  Pattern still(PatternKind::Neighbor, torus({1, 1}, 4), 5, 0, 0);  // no dimension to move in
  EXPECT_FALSE(still.sends(2));
  Pattern moving(PatternKind::Neighbor, torus({4, 1}, 2), 5, 0, 0);
  EXPECT_TRUE(moving.sends(2));
}

// The uniform draw as the pattern's header defines it, written out: a destination is a pure
// function of (seed, source, message index), and a faster computation must give the same one.
TEST(TrafficPattern, UniformDrawIsTheDocumentedFunction) {
  using hardware::below;
  using hardware::mix64;
  const std::uint64_t seed = 12345, n = 1000;
  Pattern p(PatternKind::Uniform, flat(static_cast<int>(n)), seed, 0, 0);
  for (int src : {0, 1, 998, 999})
    for (std::uint64_t k : {0ULL, 1ULL, 77ULL, 1ULL << 40}) {
      const std::uint64_t bits = mix64(mix64(mix64(seed, static_cast<std::uint64_t>(src)), k), 1);
      EXPECT_EQ(p.destination(src, k),
                static_cast<int>((static_cast<std::uint64_t>(src) + 1 + below(bits, n - 1)) % n));
    }
}

TEST(TrafficPattern, DragonflyWorstGoesToTheNextGroup) {
  NetworkShape s;
  s.topology = "dragonfly";
  s.group_nodes = 8;
  s.groups = 9;
  s.nodes = 72;
  for (int src = 0; src < 72; ++src)
    for (std::uint64_t k = 0; k < 10; ++k)
      EXPECT_EQ(dest(PatternKind::DragonflyWorst, s, src, k) / 8, (src / 8 + 1) % 9);
}

TEST(TrafficPattern, HotSpotSendsItsShareToTheHotNode) {
  Pattern p(PatternKind::HotSpot, flat(100), 3, 0.25, 42);
  int hot = 0, n = 20000;
  for (int k = 0; k < n; ++k) hot += p.destination(k % 100 == 42 ? 43 : k % 100, k) == 42;
  // 25% plus the uniform share 0.75/99; binomial standard deviation about 0.3%.
  EXPECT_NEAR(static_cast<double>(hot) / n, 0.25 + 0.75 / 99, 0.012);
}

TEST(TrafficPattern, InjectionGapsHaveTheOfferedMean) {
  const double line = 5.24288e-6;  // 64 KiB at 12.5 GB/s
  for (double load : {0.1, 0.5, 1.0}) {
    for (InjectionKind kind : {InjectionKind::Poisson, InjectionKind::Bursty}) {
      InjectionProcess p(kind, line, load, 8, 11);
      double sum = 0;
      const int n = 200000;
      for (int k = 0; k < n; ++k) sum += p.gap(k % 64, static_cast<std::uint64_t>(k)).seconds();
      EXPECT_NEAR(sum / n / (line / load), 1.0, 0.03) << "load " << load;
    }
  }
  // Bursty at load 1: every gap is the line rate's, exactly.
  InjectionProcess full(InjectionKind::Bursty, line, 1.0, 8, 11);
  for (std::uint64_t k = 1; k < 100; ++k)
    EXPECT_EQ(full.gap(3, k), runtime::SimTime::from_seconds(line));
}

TEST(TrafficPattern, MisfitsNameTheOption) {
  auto message = [](PatternKind kind, const NetworkShape& s) {
    try {
      Pattern(kind, s, 1, 0.1, 0);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(PatternKind::Shuffle, flat(24)),
            "--pattern shuffle: needs a power-of-two endpoint count; the network has 24");
  EXPECT_EQ(message(PatternKind::Neighbor, flat(64)),
            "--pattern neighbor: needs network.topology = torus (the network is a fat_tree)");
}

}  // namespace simmpi::traffic
