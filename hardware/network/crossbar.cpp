// SPDX-License-Identifier: Apache-2.0
// One switch, FIFO NIC links.
#include "hardware/network/crossbar.hpp"

namespace simmpi::hardware {

Crossbar::Crossbar(runtime::Engine& engine, int nodes, const runtime::Config& config)
    : engine_(engine),
      link_Bps_(config.bandwidth_Bps("network.link_bw")),
      latency_(config.time("network.nic_latency") + config.time("network.hop_latency")),
      injection_free_(static_cast<std::size_t>(nodes)),
      ejection_free_(static_cast<std::size_t>(nodes)) {}

SimTime Crossbar::latency(int, int) const { return latency_; }

void Crossbar::transfer(int src, int dst, std::uint64_t bytes, Action delivered) {
  SimTime wire = runtime::transfer_time(static_cast<double>(bytes), link_Bps_);
  SimTime& inj = injection_free_[static_cast<std::size_t>(src)];
  SimTime& ej = ejection_free_[static_cast<std::size_t>(dst)];
  SimTime start = runtime::max(engine_.now(), inj);
  inj = start + wire;
  SimTime arrival = runtime::max(start + latency_, ej) + wire;
  ej = arrival;
  engine_.schedule(arrival, delivered);
}

}  // namespace simmpi::hardware
