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
  p.transfer(0, 1, 10000, Action{[](void* x, std::uint64_t) {
                                   auto* d = static_cast<Done*>(x);
                                   d->at = d->e->now().ps();
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

}  // namespace simmpi::hardware
