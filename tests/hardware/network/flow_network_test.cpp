// SPDX-License-Identifier: Apache-2.0
// Flows in time: closed forms of the stream model on small networks.
#include "hardware/network/flow_network.hpp"

#include <gtest/gtest.h>

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

TEST(FlowNetwork, SameInputsGiveTheSameTimesBitForBit) {
  auto run_once = [] {
    runtime::Config c = testing::base_config();
    c.set("network.topology=fat_tree");
    c.set("network.fat_tree.down=[4, 4]");
    c.set("network.fat_tree.up=[1, 2]");
    c.set("network.fat_tree.routing=random");
    c.set("network.flow_max_bw=9GB/s");
    runtime::Engine e;
    FlowNetwork net(e, FatTree::from_config(c), c);
    Deliveries d{&e, {}};
    std::vector<testing::DelayedTransfer> later;
    later.reserve(200);
    for (std::uint64_t i = 0; i < 200; ++i) {
      auto src = static_cast<int>(below(mix64(i, 1), 16));
      auto dst =
          static_cast<int>((static_cast<std::uint64_t>(src) + 1 + below(mix64(i, 2), 15)) % 16);
      later.push_back({&net, src, dst, 1000 + below(mix64(i, 3), 100000), d.next()});
      e.schedule(SimTime::from_ns(static_cast<std::int64_t>(below(mix64(i, 4), 20000))),
                 Action{&testing::DelayedTransfer::start, &later.back(), 0});
    }
    testing::run(e);
    return d.ps;
  };
  std::vector<std::int64_t> a = run_once(), b = run_once();
  EXPECT_EQ(a, b);
  EXPECT_EQ(std::count(a.begin(), a.end(), -1), 0) << "every transfer delivered";
}

}  // namespace simmpi::hardware
