// SPDX-License-Identifier: Apache-2.0
#include "hardware/network/torus.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "flow_test_util.hpp"

namespace simmpi::hardware {
namespace {

TorusShape shape(std::vector<int> dims, bool wrap, int terminals = 1) {
  return TorusShape{dims, wrap, terminals, 12.5e9};
}

// Manhattan distance between routers a and b of a k_0 x k_1 x ... grid, the short way round in
// each dimension when `wrap`.
int manhattan(const std::vector<int>& dims, bool wrap, int a, int b) {
  int sum = 0;
  for (int k : dims) {
    int d = std::abs(a % k - b % k);
    sum += wrap ? std::min(d, k - d) : d;
    a /= k;
    b /= k;
  }
  return sum;
}

}  // namespace

TEST(Torus, RoutesHaveTheManhattanHopCountWithWrapAround) {
  for (bool wrap : {true, false}) {
    std::vector<int> dims = {5, 4, 3};
    Torus t(shape(dims, wrap));
    std::vector<LinkId> r;
    for (int s = 0; s < 60; ++s)
      for (int d = 0; d < 60; ++d) {
        if (s == d) continue;
        r.clear();
        t.route(s, d, RouteContext{}, r);
        int hops = manhattan(dims, wrap, s, d);
        ASSERT_EQ(static_cast<int>(r.size()), hops + 2) << s << "->" << d << " wrap=" << wrap;
        ASSERT_EQ(t.routers_crossed(s, d), hops + 1);
        ASSERT_TRUE(testing::is_connected(t, s, d, r)) << s << "->" << d;
      }
  }
}

TEST(Torus, WrapAroundTakesTheShortWay) {
  Torus ring(shape({8}, true));
  std::vector<LinkId> r;
  ring.route(0, 7, RouteContext{}, r);
  ASSERT_EQ(r.size(), 3u) << "one step backwards over the wrap link";
  EXPECT_EQ(ring.link_name(r[1]), "r(0)>r(7) d0-");
  Torus line(shape({8}, false));
  r.clear();
  line.route(0, 7, RouteContext{}, r);
  EXPECT_EQ(r.size(), 9u) << "a mesh has no wrap link: seven steps";
}

TEST(Torus, DimensionOrderGoesAlongDimensionZeroFirst) {
  Torus t(shape({4, 4}, true));
  std::vector<LinkId> r;
  t.route(0, 5, RouteContext{}, r);  // (0,0) -> (1,1)
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(t.link_name(r[1]), "r(0,0)>r(1,0) d0+");
  EXPECT_EQ(t.link_name(r[2]), "r(1,0)>r(1,1) d1+");
}

TEST(Torus, SeveralNodesShareARouter) {
  Torus t(shape({4}, true, 2));
  EXPECT_EQ(t.node_count(), 8);
  std::vector<LinkId> r;
  t.route(0, 1, RouteContext{}, r);
  EXPECT_EQ(r.size(), 2u) << "same router";
  r.clear();
  t.route(0, 7, RouteContext{}, r);
  EXPECT_EQ(r.size(), 3u) << "router 0 to router 3: one wrap step";
  EXPECT_TRUE(testing::is_connected(t, 0, 7, r));
}

TEST(Torus, OppositeDirectionsAreSeparateLinks) {
  // Nodes 0 and 1 of a 2-router ring exchange at once: each direction has its own link, so both
  // messages run at full speed.
  runtime::Config c = testing::base_config();
  runtime::Engine e;
  FlowNetwork net(e, std::make_unique<Torus>(shape({2}, true)), c);
  testing::Deliveries d{&e, {}};
  net.transfer(0, 1, 12500, d.next());
  net.transfer(1, 0, 12500, d.next());
  testing::run(e);
  std::vector<std::int64_t> expected = {500000 + 200000 + 1000000, 500000 + 200000 + 1000000};
  EXPECT_EQ(d.ps, expected);
}

}  // namespace simmpi::hardware
