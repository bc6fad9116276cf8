// SPDX-License-Identifier: Apache-2.0
#include "hardware/network/fat_tree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

#include "flow_test_util.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

using testing::Deliveries;

FatTreeShape shape(std::vector<int> down, std::vector<int> up, std::vector<int> links = {}) {
  FatTreeShape s{down, up, links, {}};
  if (s.links.empty()) s.links.assign(down.size(), 1);
  s.level_Bps.assign(down.size(), 12.5e9);
  return s;
}

// Largest number of flows of the shift permutation s -> s + k that share one link.
int worst_sharing(const FatTree& t, int k) {
  std::vector<int> use(static_cast<std::size_t>(t.link_count()), 0);
  std::vector<LinkId> r;
  for (int s = 0; s < t.node_count(); ++s) {
    r.clear();
    t.route(s, (s + k) % t.node_count(), RouteContext{}, r);
    for (LinkId l : r) ++use[static_cast<std::size_t>(l)];
  }
  return *std::max_element(use.begin(), use.end());
}

// Time for every node to send `bytes` to node + k, all at once.
std::int64_t shift_time(const runtime::Config& c, int k, std::uint64_t bytes) {
  runtime::Engine e;
  FlowNetwork net(e, FatTree::from_config(c), c);
  Deliveries d{&e, {}};
  int n = net.node_count();
  for (int s = 0; s < n; ++s) net.transfer(s, (s + k) % n, bytes, d.next());
  testing::run(e);
  return d.last();
}

}  // namespace

TEST(FatTree, KAryNTreeSizes) {
  FatTree t(shape({4, 4, 4}, {1, 4, 4}), FatTree::Routing::DModK);
  EXPECT_EQ(t.node_count(), 64);
  // Level 1: 64 node links; level 2: 16 leaves x 4 parents; level 3: 16 x 4; each both ways.
  EXPECT_EQ(t.link_count(), 2 * (64 + 64 + 64));
}

TEST(FatTree, RoutesClimbOnlyToTheLowestCommonLevel) {
  FatTree t(shape({4, 4, 4}, {1, 4, 4}), FatTree::Routing::DModK);
  std::vector<LinkId> r;
  auto length = [&](int s, int d) {
    r.clear();
    t.route(s, d, RouteContext{}, r);
    EXPECT_TRUE(testing::is_connected(t, s, d, r)) << s << "->" << d;
    return r.size();
  };
  EXPECT_EQ(length(0, 3), 2u) << "same leaf: one switch";
  EXPECT_EQ(length(0, 4), 4u) << "same pod: three switches";
  EXPECT_EQ(length(0, 63), 6u) << "across the top: five switches";
}

// Every route is a connected up-down path, as long as route_links() says without routing.
TEST(FatTree, EveryRouteIsAConnectedUpDownPath) {
  for (auto routing : {FatTree::Routing::DModK, FatTree::Routing::Random}) {
    FatTree t(shape({3, 2, 4}, {2, 3, 2}, {1, 2, 1}), routing);
    std::vector<LinkId> r;
    for (int s = 0; s < t.node_count(); ++s)
      for (int d = 0; d < t.node_count(); ++d) {
        if (s == d) continue;
        r.clear();
        t.route(s, d, RouteContext{static_cast<std::uint64_t>(s * 131 + d), nullptr}, r);
        ASSERT_TRUE(testing::is_connected(t, s, d, r)) << s << "->" << d;
        ASSERT_EQ(t.route_links(s, d), static_cast<int>(r.size())) << s << "->" << d;
      }
  }
}

TEST(FatTree, DModKRoutesEveryShiftWithoutSharingOnFullTrees) {
  // Full trees: at each level up ports (w_i p_i) equal the down ports below (m_(i-1) p_(i-1)).
  std::vector<FatTreeShape> full = {
      shape({4, 4}, {1, 4}),                   // 2-level, 4-ary
      shape({4, 4, 4}, {1, 4, 4}),             // 4-ary 3-tree
      shape({3, 4, 2}, {1, 3, 4}),             // mixed radices
      shape({4, 6}, {1, 2}, {1, 2}),           // 4 up ports as 2 parents x 2 links
      shape({6, 3, 2}, {1, 3, 6}, {1, 2, 1}),  // parallel links at level 2 only
  };
  for (const FatTreeShape& s : full) {
    FatTree t(s, FatTree::Routing::DModK);
    for (int k = 1; k < t.node_count(); ++k)
      ASSERT_EQ(worst_sharing(t, k), 1) << "shift " << k << " on " << t.node_count() << " nodes";
  }
}

TEST(FatTree, RandomRoutingSharesLinksOnSomeShift) {
  FatTree t(shape({8, 8}, {1, 8}), FatTree::Routing::Random);
  int worst = 0;
  for (int k = 8; k < 64; k += 8) {
    std::vector<int> use(static_cast<std::size_t>(t.link_count()), 0);
    std::vector<LinkId> r;
    for (int s = 0; s < 64; ++s) {
      r.clear();
      t.route(s, (s + k) % 64, RouteContext{static_cast<std::uint64_t>(s + 1000 * k), nullptr}, r);
      for (LinkId l : r) worst = std::max(worst, ++use[static_cast<std::size_t>(l)]);
    }
  }
  EXPECT_GT(worst, 1) << "ECMP-like random choices collide (birthday paradox)";
}

TEST(FatTree, TaperedTreeSlowsAShiftByItsTaper) {
  // 4 leaves of 4 nodes. Full: 4 core switches; tapered 2:1: 2 core switches. The shift by 4
  // sends everything off-leaf: D-mod-K puts 2 flows on each of the 2 up links of a leaf.
  runtime::Config c = testing::base_config();
  c.set("network.fat_tree.down=[4, 4]");
  std::uint64_t bytes = 125000;  // 10 us at 12.5 GB/s
  std::int64_t latency = 500000 + 3 * 100000;
  std::int64_t full = shift_time(c, 4, bytes);
  c.set("network.fat_tree.up=[1, 2]");
  std::int64_t tapered = shift_time(c, 4, bytes);
  EXPECT_EQ(full, latency + 10000000);
  EXPECT_EQ(tapered, latency + 20000000);
  EXPECT_EQ(shift_time(c, 1, bytes), latency + 10000000)
      << "shift by 1: one node per leaf leaves it, no up link is shared";
}

TEST(FatTree, LevelBandwidthsApplyPerLevel) {
  runtime::Config c = testing::base_config();
  c.set("network.fat_tree.down=[2, 2]");
  c.set("network.fat_tree.level_bw=[100Gbps, 25GB/s]");
  auto t = FatTree::from_config(c);
  std::vector<LinkId> r;
  t->route(0, 3, RouteContext{}, r);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(t->link_bw_Bps(r[0]), 12.5e9);
  EXPECT_EQ(t->link_bw_Bps(r[1]), 25e9);
  EXPECT_EQ(t->link_bw_Bps(r[2]), 25e9);
  EXPECT_EQ(t->link_bw_Bps(r[3]), 12.5e9);
}

TEST(FatTree, ZeroLevelBandwidthFollowsLinkBandwidth) {
  runtime::Config c = testing::base_config();
  c.set("network.fat_tree.down=[2, 2]");
  c.set("network.link_bw=200Gbps");
  c.set("network.fat_tree.level_bw=[0bps, 25GB/s]");
  auto t = FatTree::from_config(c);
  std::vector<LinkId> r;
  t->route(0, 3, RouteContext{}, r);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(t->link_bw_Bps(r[0]), 25e9) << "level 1 given as 0bps: network.link_bw, 200 Gb/s";
  EXPECT_EQ(t->link_bw_Bps(r[1]), 25e9) << "level 2 as given";
}

TEST(FatTree, FronteraLayout) {
  runtime::Config c;
  c.set("network.fat_tree.down=[44, 182]");
  c.set("network.fat_tree.up=[1, 6]");
  c.set("network.fat_tree.links=[1, 3]");
  auto t = FatTree::from_config(c);
  EXPECT_EQ(t->node_count(), 8008);
  // 8,008 node links and 182 leaves x 18 uplinks, both ways.
  EXPECT_EQ(t->link_count(), 2 * (8008 + 182 * 18));
  std::vector<LinkId> r;
  t->route(0, 8007, RouteContext{}, r);
  EXPECT_EQ(r.size(), 4u);
  EXPECT_TRUE(testing::is_connected(*t, 0, 8007, r));
}

TEST(FatTree, BadParametersAreConfigErrors) {
  auto error_of = [](const char* key_value) {
    runtime::Config c;
    c.set("network.fat_tree.down=[4, 4]");
    c.set(key_value);
    try {
      FatTree::from_config(c);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of("network.fat_tree.level_bw=[100Gbps, fast]").find("fast\""),
            std::string::npos);
  EXPECT_NE(error_of("network.fat_tree.level_bw=[100Gbps]").find("1 bandwidths for a tree of 2"),
            std::string::npos);
  EXPECT_NE(error_of("network.fat_tree.up=[1, 4, 4]").find("network.fat_tree.up"),
            std::string::npos);
  EXPECT_NE(error_of("network.fat_tree.down=[]").find("1 to 16 levels"), std::string::npos);
}

}  // namespace simmpi::hardware
