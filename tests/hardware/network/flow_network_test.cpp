// SPDX-License-Identifier: Apache-2.0
// Flows in time: closed forms of the stream model on small networks.
#include "hardware/network/flow_network.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "flow_test_util.hpp"
#include "hardware/network/crossbar.hpp"
#include "hardware/network/fat_tree.hpp"
#include "hardware/network/net_stats.hpp"
#include "hardware/seeded_random.hpp"

namespace simmpi::hardware {
namespace {

using testing::Deliveries;

std::unique_ptr<Topology> crossbar(int nodes) {
  return std::make_unique<Crossbar>(nodes, 12.5e9);
}

}  // namespace

TEST(FlowNetwork, LoneFlowTakesExactlyLatencyPlusTransferTime) {
  for (std::uint64_t bytes : {1ull, 999ull, 1000003ull, 123456789ull}) {
    runtime::Engine e;
    FlowNetwork net(e, crossbar(2), testing::base_config());
    Deliveries d{&e, {}};
    net.transfer(0, 1, bytes, d.next());
    testing::run(e);
    SimTime want =
        SimTime::from_ns(600) + runtime::transfer_time(static_cast<double>(bytes), 12.5e9);
    EXPECT_EQ(d.ps[0], want.ps()) << bytes << " bytes";
  }
}

// A flow alone on its links never reaches the max-min solver (FlowNetwork's fast path); these
// pin its times to the picosecond, written out by hand, so that no shortcut can move them.
TEST(FlowNetwork, LoneFlowTimesArePinnedToThePicosecond) {
  struct Case {
    std::uint64_t bytes;
    std::int64_t ps;  // 600 ns of latency + bytes / 12.5 GB/s
  } cases[] = {{8, 600640}, {1000003, 80600240}, {123456789, 9877143120}};
  for (const Case& c : cases) {
    runtime::Engine e;
    FlowNetwork net(e, crossbar(2), testing::base_config());
    Deliveries d{&e, {}};
    net.transfer(0, 1, c.bytes, d.next());
    EXPECT_EQ(net.solver().active_flows(), 0) << "a lone flow is not the solver's";
    testing::run(e);
    EXPECT_EQ(d.ps[0], c.ps) << c.bytes << " bytes";
  }
}

namespace {

// Flow A (0 -> 1, 1 MB) starts alone at t = 0; flow B (1 MB, from `b_src` to `b_dst`) joins one
// of A's links at 40 us, when A has sent half. From then on they share 12.5 GB/s: A's other
// 500 kB take 80 us, B's first 500 kB too, and B's last 500 kB go alone in 40 us. Returns the
// deliveries and the solver's flow count at 20 us and at 60 us.
struct Joined {
  std::vector<std::int64_t> ps;
  int solver_flows_alone = -1, solver_flows_shared = -1;
};
Joined join_lone_flow(int b_src, int b_dst) {
  runtime::Engine e;
  FlowNetwork net(e, crossbar(3), testing::base_config());
  Deliveries d{&e, {}};
  Joined j;
  struct Probe {
    FlowNetwork* net;
    int* out;
    static void read(void* self, std::uint64_t) {
      auto* p = static_cast<Probe*>(self);
      *p->out = p->net->solver().active_flows();
    }
  } alone{&net, &j.solver_flows_alone}, shared{&net, &j.solver_flows_shared};
  net.transfer(0, 1, 1000000, d.next());
  testing::DelayedTransfer b{&net, b_src, b_dst, 1000000, d.next()};
  e.schedule(SimTime::from_ns(20000), Action{&Probe::read, &alone, 0});
  e.schedule(SimTime::from_ns(40000), Action{&testing::DelayedTransfer::start, &b, 0});
  e.schedule(SimTime::from_ns(60000), Action{&Probe::read, &shared, 0});
  testing::run(e);
  j.ps = d.ps;
  return j;
}

}  // namespace

TEST(FlowNetwork, LoneFlowJoinedAtItsEjectionLinkIsHandedToTheSolver) {
  Joined j = join_lone_flow(2, 1);
  std::vector<std::int64_t> expected = {120600000, 160600000};
  EXPECT_EQ(j.ps, expected);
  EXPECT_EQ(j.solver_flows_alone, 0);
  EXPECT_EQ(j.solver_flows_shared, 2) << "the lone flow joined the solver with the newcomer";
}

TEST(FlowNetwork, LoneFlowJoinedAtItsInjectionLinkIsHandedToTheSolver) {
  Joined j = join_lone_flow(0, 2);
  std::vector<std::int64_t> expected = {120600000, 160600000};
  EXPECT_EQ(j.ps, expected);
  EXPECT_EQ(j.solver_flows_shared, 2);
}

TEST(FlowNetwork, FlowOnDisjointLinksStaysOutOfTheSolver) {
  runtime::Engine e;
  FlowNetwork net(e, crossbar(4), testing::base_config());
  Deliveries d{&e, {}};
  net.transfer(0, 1, 1000000, d.next());
  net.transfer(2, 3, 1000000, d.next());
  EXPECT_EQ(net.solver().active_flows(), 0);
  testing::run(e);
  std::vector<std::int64_t> expected = {80600000, 80600000};
  EXPECT_EQ(d.ps, expected);
}

TEST(FlowNetwork, LoneFlowOnALinkOfFractionalKBpsIsSolved) {
  // The solver compares caps and capacities in whole kB/s: a flow alone on a link of
  // 1,000,000.5 kB/s makes it tight, so the solver times it (at its cap all the same).
  runtime::Engine e;
  FlowNetwork net(e, std::make_unique<Crossbar>(2, 1.0000005e9), testing::base_config());
  Deliveries d{&e, {}};
  net.transfer(0, 1, 1000000, d.next());
  EXPECT_EQ(net.solver().active_flows(), 1);
  testing::run(e);
  SimTime want = SimTime::from_ns(600) + runtime::transfer_time(1000000.0, 1.0000005e9);
  EXPECT_EQ(d.ps[0], want.ps());
}

TEST(FlowNetwork, ZeroBytesTakeTheLatency) {
  runtime::Engine e;
  FlowNetwork net(e, crossbar(2), testing::base_config());
  Deliveries d{&e, {}};
  net.transfer(1, 0, 0, d.next());
  testing::run(e);
  EXPECT_EQ(d.ps[0], 600000);
}

TEST(FlowNetwork, SingleMessageMaximumCapsALoneFlow) {
  runtime::Config c = testing::base_config();
  c.set("network.flow_max_bw=5GB/s");  // below the 12.5 GB/s links
  runtime::Engine e;
  FlowNetwork net(e, crossbar(3), c);
  Deliveries d{&e, {}};
  net.transfer(0, 1, 10000, d.next());  // 2 us at 5 GB/s
  net.transfer(2, 1, 10000, d.next());  // shares the ejection link: 10 GB/s <= 12.5, no slowdown
  testing::run(e);
  std::vector<std::int64_t> expected = {2600000, 2600000};
  EXPECT_EQ(d.ps, expected);
}

TEST(FlowNetwork, SharedLinkIsWorkConserving) {
  // Incast of 12 flows of varied sizes starting at varied times while the ejection link is busy:
  // the link never idles, so the last byte leaves at t_first + total / bandwidth.
  runtime::Engine e;
  FlowNetwork net(e, crossbar(13), testing::base_config());
  Deliveries d{&e, {}};
  std::vector<testing::DelayedTransfer> later;
  later.reserve(12);
  double total = 0;
  for (int i = 1; i <= 12; ++i) {
    std::uint64_t bytes = 10000 + 3000 * static_cast<std::uint64_t>(i % 5);
    total += static_cast<double>(bytes);
    later.push_back(testing::DelayedTransfer{&net, i, 0, bytes, d.next()});
    e.schedule(SimTime::from_ns(50 * (i - 1)),
               Action{&testing::DelayedTransfer::start, &later.back(), 0});
  }
  testing::run(e);
  SimTime want = SimTime::from_ns(600) + runtime::transfer_time(total, 12.5e9);
  EXPECT_NEAR(static_cast<double>(d.last()), static_cast<double>(want.ps()), 20.0)
      << "within rounding of 12 rate changes";
}

TEST(FlowNetwork, ChunksOfALoneMessageAddUpToTheWholeTransfer) {
  runtime::Config c = testing::base_config();
  c.set("network.chunk_size=4KiB");
  runtime::Engine e;
  FlowNetwork net(e, crossbar(2), c);
  Deliveries d{&e, {}};
  net.transfer(0, 1, 100000, d.next());  // 24 full chunks and one of 1,696 B
  testing::run(e);
  SimTime want = SimTime::from_ns(600) + runtime::transfer_time(100000, 12.5e9);
  EXPECT_NEAR(static_cast<double>(d.ps[0]), static_cast<double>(want.ps()), 25.0)
      << "one picosecond of rounding per chunk at most";
}

TEST(FlowNetwork, ChunksAreReroutedWithRandomRouting) {
  // A 2-level tree with 4 core switches and random routing: the chunks of one message spread
  // over several up links, while without chunking one up link carries everything.
  runtime::Config c = testing::base_config();
  c.set("network.fat_tree.down=[2, 2]");
  c.set("network.fat_tree.up=[1, 4]");
  c.set("network.fat_tree.routing=random");
  c.set("network.stats=true");
  for (bool chunked : {false, true}) {
    if (chunked) c.set("network.chunk_size=1KiB");
    runtime::Engine e;
    FlowNetwork net(e, FatTree::from_config(c), c);
    Deliveries d{&e, {}};
    net.transfer(0, 2, 64 * 1024, d.next());
    testing::run(e);
    int used = 0;
    for (LinkId l = 0; l < net.topology().link_count(); ++l)
      if (net.topology().link_name(l).rfind("s1.0>s2.", 0) == 0 && net.stats()->link_bytes(l) > 0)
        ++used;
    EXPECT_EQ(used > 1, chunked) << used << " up links used, chunked=" << chunked;
  }
}

TEST(FlowNetwork, StatisticsCountBytesBusyTimeAndHops) {
  runtime::Config c = testing::base_config();
  c.set("network.stats=true");
  runtime::Engine e;
  FlowNetwork net(e, crossbar(3), c);
  Deliveries d{&e, {}};
  net.transfer(0, 1, 12500, d.next());  // alone on 0's injection link for 2 us (shared ejection)
  net.transfer(2, 1, 12500, d.next());
  testing::run(e);
  const NetStats& s = *net.stats();
  EXPECT_EQ(s.link_bytes(0), 12500.0) << "node 0 injection";
  EXPECT_EQ(s.link_bytes(3), 25000.0) << "node 1 ejection carries both";
  EXPECT_EQ(s.link_busy(3).ps(), 2000000) << "busy while either flow is on it";
  EXPECT_EQ(s.link_bytes(2), 0.0) << "node 1 sends nothing";
  ASSERT_EQ(s.hop_histogram().size(), 2u);
  EXPECT_EQ(s.hop_histogram()[1], 2u) << "two flows crossing one switch";
}

namespace {

// Messages between random pairs of 16 nodes (many pairs repeat) at random times: the delivery
// times.
struct RandomMessages {
  std::uint64_t count;
  std::uint64_t min_bytes, byte_span;  // sizes in [min_bytes, min_bytes + byte_span)
  std::int64_t ns_span;                // start times in [0, ns_span) ns
};

std::vector<std::int64_t> deliveries_on(std::unique_ptr<Topology> t, const runtime::Config& c,
                                        RandomMessages m) {
  runtime::Engine e;
  FlowNetwork net(e, std::move(t), c);
  Deliveries d{&e, {}};
  std::vector<testing::DelayedTransfer> later;
  later.reserve(m.count);
  for (std::uint64_t i = 0; i < m.count; ++i) {
    auto src = static_cast<int>(below(mix64(i, 1), 16));
    auto dst =
        static_cast<int>((static_cast<std::uint64_t>(src) + 1 + below(mix64(i, 2), 15)) % 16);
    later.push_back({&net, src, dst, m.min_bytes + below(mix64(i, 3), m.byte_span), d.next()});
    e.schedule(SimTime::from_ns(static_cast<std::int64_t>(
                   below(mix64(i, 4), static_cast<std::uint64_t>(m.ns_span)))),
               Action{&testing::DelayedTransfer::start, &later.back(), 0});
  }
  testing::run(e);
  return d.ps;
}

}  // namespace

TEST(FlowNetwork, SameInputsGiveTheSameTimesBitForBit) {
  auto run_once = [] {
    runtime::Config c = testing::base_config();
    c.set("network.topology=fat_tree");
    c.set("network.fat_tree.down=[4, 4]");
    c.set("network.fat_tree.up=[1, 2]");
    c.set("network.fat_tree.routing=random");
    c.set("network.flow_max_bw=9GB/s");
    return deliveries_on(FatTree::from_config(c), c, {200, 1000, 100000, 20000});
  };
  std::vector<std::int64_t> a = run_once(), b = run_once();
  EXPECT_EQ(a, b);
  EXPECT_EQ(std::count(a.begin(), a.end(), -1), 0) << "every transfer delivered";
}

namespace {

// A topology that routes as `base` does but does not say its routes are fixed: the network then
// routes every message afresh, as it did before it kept a pair's route.
class RoutedEachTime final : public Topology {
 public:
  explicit RoutedEachTime(std::unique_ptr<Topology> base) : base_(std::move(base)) {}
  int node_count() const override { return base_->node_count(); }
  int link_count() const override { return base_->link_count(); }
  double link_bw_Bps(LinkId l) const override { return base_->link_bw_Bps(l); }
  std::string link_name(LinkId l) const override { return base_->link_name(l); }
  void route(int src, int dst, const RouteContext& ctx, std::vector<LinkId>& out) const override {
    base_->route(src, dst, ctx, out);
  }

 private:
  std::unique_ptr<Topology> base_;
};

}  // namespace

// Where routes are fixed (D-mod-K), the network keeps each pair's route, latency and lone rate
// after its first message; every time must be the one of routing each message afresh.
TEST(FlowNetwork, KeptRoutesGiveTheTimesOfRoutingEachMessage) {
  runtime::Config c = testing::base_config();
  c.set("network.fat_tree.down=[4, 4]");
  c.set("network.fat_tree.up=[1, 2]");
  c.set("network.fat_tree.routing=dmodk");
  c.set("network.flow_max_bw=9GB/s");
  ASSERT_TRUE(FatTree::from_config(c)->has_fixed_routes());
  const RandomMessages messages{300, 1, 200000, 40000};  // most pairs send more than once
  std::vector<std::int64_t> kept = deliveries_on(FatTree::from_config(c), c, messages);
  std::vector<std::int64_t> routed =
      deliveries_on(std::make_unique<RoutedEachTime>(FatTree::from_config(c)), c, messages);
  EXPECT_EQ(kept, routed);
  EXPECT_EQ(std::count(kept.begin(), kept.end(), -1), 0) << "every transfer delivered";
  c.set("network.fat_tree.routing=random");
  EXPECT_FALSE(FatTree::from_config(c)->has_fixed_routes()) << "random routes are drawn per flow";
}

// The lone flow's time, pinned as above, for a pair's first message (routed) and for its next
// ones (its route kept), and the latency a probe is told.
TEST(FlowNetwork, LoneFlowTimesArePinnedWhenThePairsRouteIsKept) {
  runtime::Engine e;
  FlowNetwork net(e, crossbar(2), testing::base_config());
  EXPECT_EQ(net.latency(0, 1).ps(), 600000);
  Deliveries d{&e, {}};
  for (int i = 0; i < 3; ++i) {
    net.transfer(0, 1, 8, d.next());
    testing::run(e);
  }
  EXPECT_EQ(net.latency(0, 1).ps(), 600000);
  // Each starts when the last one has left its source (the engine's last event), 640 ps apart.
  std::vector<std::int64_t> expected = {600640, 601280, 601920};
  EXPECT_EQ(d.ps, expected);
}

}  // namespace simmpi::hardware
