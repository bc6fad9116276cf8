// SPDX-License-Identifier: Apache-2.0
// The first network model: every node on one non-blocking switch. Contention exists only at the
// NICs: each node's injection link and ejection link carries one message at a time, in the
// order messages reach it (FIFO serialization).
//
// A message of S bytes that finds both links free takes
//     nic_latency + hop_latency + S / link_bw
// (cut-through: the switch forwards while the NIC still injects). Otherwise it starts when its
// injection link frees, and its tail leaves the ejection link S / link_bw after that link frees.
#pragma once

#include <vector>

#include "hardware/network/network.hpp"
#include "runtime/config/config.hpp"

namespace simmpi::hardware {

class Crossbar final : public Network {
 public:
  Crossbar(runtime::Engine& engine, int nodes, const runtime::Config& config);
  int node_count() const override { return static_cast<int>(injection_free_.size()); }
  SimTime latency(int src_node, int dst_node) const override;
  void transfer(int src_node, int dst_node, std::uint64_t bytes, Action delivered) override;

 private:
  runtime::Engine& engine_;
  double link_Bps_;
  SimTime latency_;
  std::vector<SimTime> injection_free_;  // when each node's injection link is next idle
  std::vector<SimTime> ejection_free_;
};

}  // namespace simmpi::hardware
