// SPDX-License-Identifier: Apache-2.0
// The stream-level network: every message, or each chunk of a large one, is a flow over the links
// of its route, and concurrent flows share the links max-min fairly (MaxMinSolver). Works for any
// Topology.
//
// Timeline of a message of S bytes from a to b (the approach of SimGrid's CM02 model, with the
// latency paid after the bandwidth phase rather than before):
//   t0   transfer(): the first chunk is routed and joins the sharing;
//   t1   its last byte leaves the source, at the rate the solver gives it (the rate changes
//        whenever a flow it shares a tight link with starts or ends); the next chunk, if any,
//        is routed afresh and starts at t1;
//   t1 + nic_latency + hop_latency x switches   the last byte arrives; `arrived` is told this
//        time at t1 (last chunk), since nothing can change it any more.
// A lone message on an idle network therefore takes exactly
//   nic_latency + hop_latency x switches + transfer_time(S, min(link_bw, flow_max_bw)).
//
// One engine event is pending for the earliest finish, tagged with a version so that a stale one
// (rates changed since) does nothing; the other finish times wait in a FinishQueue. All flows
// starting or ending in one simulated instant are solved together by one solve event at that
// instant.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "hardware/network/finish_queue.hpp"
#include "hardware/network/max_min_solver.hpp"
#include "hardware/network/network.hpp"
#include "hardware/network/topology.hpp"

namespace simmpi::runtime {
class Config;
}

namespace simmpi::hardware {

class NetStats;

class FlowNetwork final : public Network {
 public:
  // Reads network.hop_latency, nic_latency, flow_max_bw, chunk_size, stats*, runtime.seed.
  FlowNetwork(runtime::Engine& engine, std::unique_ptr<Topology> topology,
              const runtime::Config& config);
  ~FlowNetwork() override;

  int node_count() const override { return topology_->node_count(); }
  SimTime latency(int src_node, int dst_node) const override;
  SimTime min_latency() const override { return nic_latency_; }  // a route has >= 0 switches
  double alone_Bps(int src_node, int dst_node) const override;
  std::string busiest_link(int src_node, int dst_node, SimTime from, SimTime to) const override;
  std::vector<LinkSeries> busiest_link_load(SimTime end) const override;
  void transfer(int src_node, int dst_node, std::uint64_t bytes, ArrivalNotice arrived) override;
  std::vector<std::string> finish() override;

  const Topology& topology() const { return *topology_; }
  const MaxMinSolver& solver() const { return solver_; }
  // Bytes given to transfer() that have not left their source yet, as of now (the chunks not
  // started included): bytes sent by time T = bytes given before T - this at T, so a
  // throughput measurement counts what crossed the network in a window exactly, also when
  // messages straddle its ends. O(flows) per call.
  double unsent_bytes() const;
  // nullptr unless network.stats is on.
  const NetStats* stats() const { return stats_.get(); }

 private:
  struct Transfer {            // one per live flow, indexed by FlowId
    std::uint64_t left_bytes;  // of the message, after this chunk
    double chunk_bytes;        // 0 once the chunk is done: the slot holds no live flow
    double remaining;          // bytes of this chunk still to send, as of `last`
    double rate;               // bytes/s since `last`
    SimTime last;
    SimTime latency;
    std::uint64_t seq;
    ArrivalNotice arrived;
    int src, dst;
  };

  void start_chunk(int src, int dst, std::uint64_t bytes_left, ArrivalNotice arrived);
  void complete_chunk(FlowId f);
  void set_rate(FlowId f, double rate_Bps);
  void request_solve();
  void arm_completion();
  static void on_solve(void* self, std::uint64_t);
  static void on_completion(void* self, std::uint64_t version);
  SimTime route_latency(std::size_t links) const;
  // The route latency() and the statistics describe (the one a zero-byte probe takes).
  const std::vector<LinkId>& probe_route(int src, int dst) const;

  runtime::Engine& engine_;
  std::unique_ptr<Topology> topology_;
  MaxMinSolver solver_;
  FinishQueue queue_;
  std::vector<Transfer> transfers_;
  SimTime hop_latency_;
  SimTime nic_latency_;
  std::uint64_t chunk_bytes_;  // 0: a message is one flow
  std::uint64_t seed_;
  std::uint64_t next_seq_ = 0;
  std::uint64_t version_ = 0;
  SimTime armed_at_ = SimTime::max();
  bool solve_pending_ = false;
  std::vector<LinkId> route_;                // scratch of transfer()
  mutable std::vector<LinkId> probe_route_;  // scratch of latency()
  std::vector<LinkId> stats_route_;          // scratch of set_rate() for network.stats
  // latency()'s route lengths by node pair, direct-mapped, for topologies that cannot count a
  // route's links cheaply (Topology::route_links): MPI_Iprobe asks for them at every poll (the
  // lazy-poll horizon), and routing each time was a tenth of a run. A
  // pair's probe route does not change, so a hit is exact. Entries: key (src << 32 | dst) + 1,
  // 0 when empty, and the route's link count.
  struct LatencyEntry {
    std::uint64_t key = 0;
    std::size_t links = 0;
  };
  mutable std::vector<LatencyEntry> latency_cache_ = std::vector<LatencyEntry>(1 << 14);
  std::unique_ptr<NetStats> stats_;
};

}  // namespace simmpi::hardware
