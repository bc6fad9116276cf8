// SPDX-License-Identifier: Apache-2.0
#include "hardware/network/dragonfly.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "flow_test_util.hpp"
#include "hardware/network/net_stats.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

using testing::Deliveries;

// Balanced a = 2p = 2h: a = 4, p = 2, h = 2, g = a*h + 1 = 9 groups, 72 nodes.
runtime::Config balanced(const char* routing) {
  runtime::Config c = testing::base_config();
  c.set("network.topology=dragonfly");
  c.set("network.dragonfly.routers=4");
  c.set("network.dragonfly.terminals=2");
  c.set("network.dragonfly.global_links=2");
  c.set(std::string("network.dragonfly.routing=") + routing);
  c.set("network.stats=true");
  return c;
}

struct WorstCase {
  std::int64_t last_ps;
  double first_global_bytes;  // carried by the global link from group 0 to group 1
};

// Adversarial traffic (Kim et al. section 4.1): every node of group i sends to the node at the
// same place in group i + 1.
WorstCase worst_case(const char* routing, std::uint64_t bytes, const char* chunk = "0B") {
  runtime::Config c = balanced(routing);
  c.set(std::string("network.chunk_size=") + chunk);
  runtime::Engine e;
  auto topo = Dragonfly::from_config(c);
  LinkId g01 = topo->global_link(0, 1);
  FlowNetwork net(e, std::move(topo), c);
  Deliveries d{&e, {}};
  for (int s = 0; s < 72; ++s) net.transfer(s, (s + 8) % 72, bytes, d.next());
  testing::run(e);
  return WorstCase{d.last(), net.stats()->link_bytes(g01)};
}

}  // namespace

TEST(Dragonfly, BalancedShapeSizes) {
  auto t = Dragonfly::from_config(balanced("minimal"));
  EXPECT_EQ(t->node_count(), 72);
  // 72 x 2 NIC links, 9 groups x 4 x 3 local, 9 groups x 8 global.
  EXPECT_EQ(t->link_count(), 144 + 108 + 72);
}

TEST(Dragonfly, MinimalRoutesHaveAtMostOneGlobalHop) {
  auto t = Dragonfly::from_config(balanced("minimal"));
  std::vector<LinkId> r;
  auto length = [&](int s, int d) {
    r.clear();
    t->route(s, d, RouteContext{}, r);
    EXPECT_TRUE(testing::is_connected(*t, s, d, r)) << s << "->" << d;
    return r.size();
  };
  EXPECT_EQ(length(0, 1), 2u) << "same router";
  EXPECT_EQ(length(0, 2), 3u) << "same group: one local hop";
  for (int d = 8; d < 72; ++d) EXPECT_LE(length(0, d), 5u) << "local, global, local";
}

TEST(Dragonfly, EveryRouteIsConnected) {
  for (const char* routing : {"minimal", "valiant", "ugal"}) {
    auto t = Dragonfly::from_config(balanced(routing));
    std::vector<LinkId> r;
    for (int s = 0; s < 72; ++s)
      for (int d = 0; d < 72; ++d) {
        if (s == d) continue;
        r.clear();
        t->route(s, d, RouteContext{static_cast<std::uint64_t>(s * 77 + d), nullptr}, r);
        ASSERT_TRUE(testing::is_connected(*t, s, d, r)) << routing << " " << s << "->" << d;
        ASSERT_LE(r.size(), 7u);
      }
  }
}

TEST(Dragonfly, WorstCaseTrafficMinimalIsBottleneckedOnOneGlobalLink) {
  // The 8 nodes of a group all cross the single global link to the next group: 8 x S on one
  // link, B/8 each, so the transfer phase lasts 8 S / B = 640 us for S = 1 MB at 12.5 GB/s.
  WorstCase w = worst_case("minimal", 1000000);
  EXPECT_EQ(w.first_global_bytes, 8e6);
  EXPECT_GE(w.last_ps, 640000000);
  EXPECT_LE(w.last_ps, 640000000 + 2000000) << "plus at most a few hops of latency";
}

TEST(Dragonfly, WorstCaseTrafficValiantRoughlyHalvesTheTime) {
  // Each flow crosses two global links of a random intermediate group, never the congested
  // one. A group's global links then carry about 16/7 flows each (ideal: about 2 S / B, and
  // never below the 2 S / B that 72 flows x 2 global hops on 72 links need). Per-flow choices
  // collide (balls in bins), so the slowest flow takes longer; chunks of 20 KB, each routed
  // afresh, average the collisions out. Measured: 0.63 and 0.49 of the minimal time.
  WorstCase minimal = worst_case("minimal", 1000000);
  WorstCase valiant = worst_case("valiant", 1000000);
  EXPECT_EQ(valiant.first_global_bytes, 0.0) << "the adversarial link is never an intermediate hop";
  EXPECT_GE(valiant.last_ps, 160000000);
  EXPECT_LE(valiant.last_ps, minimal.last_ps * 65 / 100);
  WorstCase chunked = worst_case("valiant", 1000000, "20KB");
  EXPECT_GE(chunked.last_ps, 160000000);
  EXPECT_LE(chunked.last_ps, minimal.last_ps * 55 / 100);
}

TEST(Dragonfly, UgalAvoidsTheCongestedGlobalLink) {
  // The first flows of a group take the minimal path; once its global link carries a few, the
  // Valiant path looks cheaper. Measured: 0.50 of the minimal time.
  WorstCase minimal = worst_case("minimal", 1000000);
  WorstCase ugal = worst_case("ugal", 1000000);
  EXPECT_GT(ugal.first_global_bytes, 0.0) << "some flows still go minimal";
  EXPECT_LT(ugal.first_global_bytes, 8e6);
  EXPECT_LE(ugal.last_ps, minimal.last_ps * 55 / 100);
}

TEST(Dragonfly, UgalStaysMinimalOnBenignTraffic) {
  // Each node sends to its neighbour on the same router: minimal is one switch and nothing is
  // shared, so UGAL never detours.
  runtime::Config c = balanced("ugal");
  runtime::Engine e;
  FlowNetwork net(e, Dragonfly::from_config(c), c);
  Deliveries d{&e, {}};
  for (int s = 0; s < 72; ++s) net.transfer(s, s ^ 1, 12500, d.next());
  testing::run(e);
  EXPECT_EQ(d.last(), 600000 + 1000000);
}

TEST(Dragonfly, ImpossibleShapeIsAConfigError) {
  runtime::Config c = balanced("minimal");
  c.set("network.dragonfly.groups=10");  // a*h + 1 = 9
  try {
    Dragonfly::from_config(c);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("network.dragonfly.groups = 10"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("at most a*h + 1 = 9 groups"), std::string::npos)
        << e.what();
  }
  c.set("network.dragonfly.groups=2");
  c.set("network.dragonfly.global_links=0");
  EXPECT_THROW(Dragonfly::from_config(c), ConfigError) << "two groups and no global links";
}

TEST(Dragonfly, FewerGroupsGetParallelGlobalLinks) {
  // g = 5 with a*h = 8: each pair of groups has 2 global links; minimal routing spreads flows
  // over both copies, so every route is still connected.
  runtime::Config c = balanced("minimal");
  c.set("network.dragonfly.groups=5");
  auto t = Dragonfly::from_config(c);
  EXPECT_EQ(t->node_count(), 40);
  std::vector<LinkId> r;
  for (std::uint64_t salt = 0; salt < 8; ++salt) {
    r.clear();
    t->route(0, 39, RouteContext{salt, nullptr}, r);
    EXPECT_TRUE(testing::is_connected(*t, 0, 39, r));
  }
}

}  // namespace simmpi::hardware
