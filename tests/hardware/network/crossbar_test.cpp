// SPDX-License-Identifier: Apache-2.0
// The crossbar is a topology of the flow model: messages that meet at a NIC share its link
// max-min fairly (before the flow model it served them one at a time, first come first served).
#include "hardware/network/crossbar.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "flow_test_util.hpp"

namespace simmpi::hardware {
namespace {

using testing::Deliveries;

struct Fixture {
  runtime::Engine e;
  FlowNetwork net{e, std::make_unique<Crossbar>(4, 12.5e9), testing::base_config()};
  Deliveries d{&e, {}};
};

}  // namespace

TEST(Crossbar, OneMessageTakesLatencyPlusSizeOverBandwidth) {
  Fixture f;
  f.net.transfer(0, 1, 12500, f.d.next());  // 1 us of wire time
  testing::run(f.e);
  EXPECT_EQ(f.d.ps, std::vector<std::int64_t>{600000 + 1000000});
  EXPECT_EQ(f.net.latency(0, 3).ps(), 600000) << "NICs (500 ns) plus one switch (100 ns)";
}

TEST(Crossbar, MessagesFromOneNicShareItsLink) {
  Fixture f;
  f.net.transfer(0, 1, 12500, f.d.next());
  f.net.transfer(0, 2, 12500, f.d.next());
  testing::run(f.e);
  // Each gets half of the injection link: 2 us of wire time for both.
  std::vector<std::int64_t> expected = {2600000, 2600000};
  EXPECT_EQ(f.d.ps, expected);
}

TEST(Crossbar, IncastSharesTheEjectionLink) {
  Fixture f;
  f.net.transfer(1, 0, 12500, f.d.next());
  f.net.transfer(2, 0, 12500, f.d.next());
  f.net.transfer(3, 0, 12500, f.d.next());
  testing::run(f.e);
  std::vector<std::int64_t> expected = {3600000, 3600000, 3600000};
  EXPECT_EQ(f.d.ps, expected);
}

TEST(Crossbar, DisjointPairsDoNotInterfere) {
  Fixture f;
  f.net.transfer(0, 1, 12500, f.d.next());
  f.net.transfer(2, 3, 12500, f.d.next());
  testing::run(f.e);
  std::vector<std::int64_t> expected = {1600000, 1600000};
  EXPECT_EQ(f.d.ps, expected);
}

TEST(Crossbar, LateArrivalSlowsTheFirstFlowFromThenOn) {
  // A (12,500 B) alone for 0.5 us sends 6,250 B; then A and B share 6.25 B/ns: A's other
  // 6,250 B take 1 us (wire done at 1.5 us); B has 6,250 B left at 1.5 us and runs alone at
  // 12.5 B/ns for 0.5 us (wire done at 2.0 us). Each adds 600 ns of latency.
  Fixture f;
  f.net.transfer(0, 1, 12500, f.d.next());
  testing::DelayedTransfer b{&f.net, 0, 2, 12500, f.d.next()};
  f.e.schedule(runtime::SimTime::from_ns(500), Action{&testing::DelayedTransfer::start, &b, 0});
  testing::run(f.e);
  std::vector<std::int64_t> expected = {2100000, 2600000};
  EXPECT_EQ(f.d.ps, expected);
}

TEST(Crossbar, RoutesCrossOneSwitch) {
  Crossbar x(3, 1e9);
  std::vector<LinkId> r;
  x.route(2, 0, RouteContext{}, r);
  EXPECT_EQ(r.size(), 2u);
  EXPECT_TRUE(testing::is_connected(x, 2, 0, r)) << x.link_name(r[0]) << " " << x.link_name(r[1]);
}

}  // namespace simmpi::hardware
