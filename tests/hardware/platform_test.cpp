// SPDX-License-Identifier: Apache-2.0
#include "hardware/platform.hpp"

#include <gtest/gtest.h>

#include "runtime/core/error.hpp"

namespace simmpi::hardware {

TEST(Platform, BlockPlacementWithRanksPerNode) {
  runtime::Engine e;
  runtime::Config c;
  c.set("node.ranks_per_node=4");
  Platform p(e, 10, c);
  EXPECT_EQ(p.node_count(), 3);
  EXPECT_EQ(p.node_of(0), 0);
  EXPECT_EQ(p.node_of(3), 0);
  EXPECT_EQ(p.node_of(4), 1);
  EXPECT_EQ(p.node_of(9), 2);
}

TEST(Platform, IntraNodeMessagesUseSharedMemory) {
  runtime::Engine e;
  runtime::Config c;
  c.set("node.ranks_per_node=2");
  c.set("node.shm_latency=200ns");
  c.set("node.shm_bw=10GB/s");
  Platform p(e, 4, c);
  EXPECT_EQ(p.latency(0, 1).ps(), 200000);
  EXPECT_NE(p.latency(0, 2).ps(), 200000);
  struct Done {
    runtime::Engine* e;
    std::int64_t at = -1;
  } d{&e};
  p.transfer(0, 1, 10000,
             ArrivalNotice{[](void* x, std::uint64_t, SimTime arrival) {
                             auto* d = static_cast<Done*>(x);
                             d->at = arrival.ps();
                           },
                           &d, 0});
  while (e.step()) {
  }
  EXPECT_EQ(d.at, 200000 + 1000000);  // 10 kB at 10 GB/s = 1 us
}

TEST(Platform, TooFewNodesIsAConfigError) {
  runtime::Engine e;
  runtime::Config c;
  c.set("node.count=2");
  try {
    Platform p(e, 5, c);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& err) {
    EXPECT_NE(std::string(err.what()).find("need 5 nodes, but node.count is 2"), std::string::npos)
        << err.what();
  }
}

TEST(Platform, TopologyTooSmallForTheRanksIsAConfigError) {
  runtime::Engine e;
  runtime::Config c;
  c.set("network.topology=fat_tree");
  c.set("network.fat_tree.down=[4, 4]");
  try {
    Platform p(e, 17, c);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& err) {
    std::string what = err.what();
    EXPECT_NE(what.find("network.topology = fat_tree has 16 nodes (network.fat_tree.down = [4, 4]"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("17 ranks at node.ranks_per_node=1 need 17"), std::string::npos) << what;
  }
  c.set("node.count=20");
  EXPECT_THROW(Platform(e, 4, c), ConfigError) << "node.count beyond the tree's 16 nodes";
}

TEST(Platform, FixedSizeTopologyGivesTheMachineSize) {
  runtime::Engine e;
  runtime::Config c;
  c.set("network.topology=torus");
  c.set("network.torus.dims=[4, 4]");
  c.set("node.placement=random");
  Platform p(e, 6, c);
  EXPECT_EQ(p.node_count(), 16) << "ranks are placed on the whole torus";
  for (int r = 0; r < 6; ++r) EXPECT_LT(p.node_of(r), 16);
}

TEST(Platform, FatTreeLatencyCountsSwitchHops) {
  runtime::Engine e;
  runtime::Config c;
  c.set("network.topology=fat_tree");
  c.set("network.fat_tree.down=[2, 2]");
  c.set("network.hop_latency=90ns");
  c.set("network.nic_latency=500ns");
  Platform p(e, 4, c);
  EXPECT_EQ(p.latency(0, 1).ps(), 590000) << "same leaf: one switch";
  EXPECT_EQ(p.latency(0, 2).ps(), 770000) << "leaf, core, leaf";
}

}  // namespace simmpi::hardware
