// SPDX-License-Identifier: Apache-2.0
// Shared helpers of the network tests: start flows on a FlowNetwork and record when each one is
// delivered.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hardware/network/flow_network.hpp"
#include "runtime/config/config.hpp"

namespace simmpi::hardware::testing {

// Delivery time (ps) of each transfer, indexed by the order transfers were started.
struct Deliveries {
  runtime::Engine* engine;
  std::vector<std::int64_t> ps;

  ArrivalNotice next() {
    ps.push_back(-1);
    return ArrivalNotice{&Deliveries::record, this, ps.size() - 1};
  }
  // The arrival is told when it is known, never after it.
  static void record(void* self, std::uint64_t i, SimTime arrival) {
    auto* d = static_cast<Deliveries*>(self);
    EXPECT_LE(d->engine->now(), arrival);
    d->ps[i] = arrival.ps();
  }
  std::int64_t last() const {
    std::int64_t m = -1;
    for (std::int64_t t : ps) m = t > m ? t : m;
    return m;
  }
};

inline void run(runtime::Engine& e) {
  while (e.step()) {
  }
}

// 100 Gb/s links (12.5 bytes/ns), 500 ns NICs, 100 ns per switch.
inline runtime::Config base_config() {
  runtime::Config c;
  c.set("network.link_bw=100Gbps");
  c.set("network.nic_latency=500ns");
  c.set("network.hop_latency=100ns");
  return c;
}

// Starts a transfer at a later simulated time.
struct DelayedTransfer {
  FlowNetwork* net;
  int src, dst;
  std::uint64_t bytes;
  ArrivalNotice arrived;
  static void start(void* self, std::uint64_t) {
    auto* d = static_cast<DelayedTransfer*>(self);
    d->net->transfer(d->src, d->dst, d->bytes, d->arrived);
  }
};

// Whether `route` is a chain from node src to node dst, read from the link names ("a>b", with an
// optional "#copy" or " global" suffix): each link leaves where the previous one arrived.
inline bool is_connected(const Topology& t, int src, int dst, const std::vector<LinkId>& route) {
  std::string at = "n" + std::to_string(src);
  for (LinkId l : route) {
    std::string name = t.link_name(l);
    name = name.substr(0, name.find_first_of("# "));
    auto gt = name.find('>');
    if (gt == std::string::npos || name.substr(0, gt) != at) return false;
    at = name.substr(gt + 1);
  }
  return at == "n" + std::to_string(dst);
}

}  // namespace simmpi::hardware::testing
