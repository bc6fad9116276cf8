// SPDX-License-Identifier: Apache-2.0
#include "hardware/network/crossbar.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace simmpi::hardware {
namespace {

struct Arrivals {
  runtime::Engine* engine;
  std::vector<std::int64_t> ps;
};
void arrived(void* a, std::uint64_t) {
  auto* x = static_cast<Arrivals*>(a);
  x->ps.push_back(x->engine->now().ps());
}

runtime::Config config() {
  runtime::Config c;
  c.set("network.link_bw=100Gbps");  // 12.5 bytes/ns
  c.set("network.nic_latency=500ns");
  c.set("network.hop_latency=100ns");
  return c;
}

}  // namespace

TEST(Crossbar, OneMessageTakesLatencyPlusSizeOverBandwidth) {
  runtime::Engine e;
  Crossbar net(e, 4, config());
  Arrivals a{&e, {}};
  net.transfer(0, 1, 12500, Action{arrived, &a, 0});  // 1 us of wire time
  while (e.step()) {
  }
  ASSERT_EQ(a.ps.size(), 1u);
  EXPECT_EQ(a.ps[0], 600000 + 1000000);
  EXPECT_EQ(net.latency(0, 3).ps(), 600000);
}

TEST(Crossbar, MessagesFromOneNicAreSerialized) {
  runtime::Engine e;
  Crossbar net(e, 4, config());
  Arrivals a{&e, {}};
  net.transfer(0, 1, 12500, Action{arrived, &a, 0});
  net.transfer(0, 2, 12500, Action{arrived, &a, 0});
  while (e.step()) {
  }
  std::vector<std::int64_t> expected = {1600000, 2600000};  // second starts when the first is out
  EXPECT_EQ(a.ps, expected);
}

TEST(Crossbar, IncastIsSerializedAtTheEjectionLink) {
  runtime::Engine e;
  Crossbar net(e, 4, config());
  Arrivals a{&e, {}};
  net.transfer(1, 0, 12500, Action{arrived, &a, 0});
  net.transfer(2, 0, 12500, Action{arrived, &a, 0});
  net.transfer(3, 0, 12500, Action{arrived, &a, 0});
  while (e.step()) {
  }
  std::vector<std::int64_t> expected = {1600000, 2600000, 3600000};
  EXPECT_EQ(a.ps, expected);
}

TEST(Crossbar, DisjointPairsDoNotInterfere) {
  runtime::Engine e;
  Crossbar net(e, 4, config());
  Arrivals a{&e, {}};
  net.transfer(0, 1, 12500, Action{arrived, &a, 0});
  net.transfer(2, 3, 12500, Action{arrived, &a, 0});
  while (e.step()) {
  }
  std::vector<std::int64_t> expected = {1600000, 1600000};
  EXPECT_EQ(a.ps, expected);
}

}  // namespace simmpi::hardware
