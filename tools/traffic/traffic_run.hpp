// SPDX-License-Identifier: Apache-2.0
// One offered load on a fresh network: every endpoint is a source and a sink driven directly on
// hardware/network's FlowNetwork (no fibers, no MPI), so a source costs a few bytes and a
// message one flow.
//
// A source generates messages by its InjectionProcess and sends each as a flow of S bytes to the
// Pattern's destination, with at most `outstanding` of them leaving its NIC at once (a NIC's
// send queue; 0: no limit); the others wait, in generation order, in its source queue. A
// message's latency runs from its generation (the time it joins the source queue) to the
// arrival of its last byte, so it includes the source queue, as in BookSim (Dally and Towles,
// section 23.1). The source queue costs nothing to hold: the generation times are a pure
// function of the message index, so a source keeps only its next message's index and time.
//
// Phases: warm-up [0, warmup), measurement window [warmup, warmup + window), then drain: the
// sources generate nothing from the end of the window, and the run goes on until every message
// has arrived. Measured messages are those generated in the window (every one is delivered, so
// none is left out of the latency). Accepted throughput is the bytes that leave their sources
// during the window (FlowNetwork::unsent_bytes at both ends), over the window, per sending
// source, as a fraction of the injection bandwidth: what the network carries, counted exactly
// even when thousands of long-lived messages straddle the window's ends (counting arrivals
// instead would miscount by up to a window's worth of them: departures come in bunches when
// many messages share a bottleneck). Arrivals follow at the same rate, a route's latency later.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hardware/network/flow_network.hpp"
#include "runtime/core/engine.hpp"
#include "runtime/core/huge_page_allocator.hpp"
#include "tools/traffic/generation_calendar.hpp"
#include "tools/traffic/injection_process.hpp"
#include "tools/traffic/traffic_pattern.hpp"

namespace simmpi::runtime {
class Config;
}

namespace simmpi::traffic {

struct TrafficSettings {
  InjectionKind injection = InjectionKind::Poisson;
  double burst = 8;  // bursty: mean messages per burst
  std::uint64_t message_bytes = 0;
  int outstanding = 0;  // messages leaving a source's NIC at once; 0: no limit
  runtime::SimTime warmup;
  runtime::SimTime window;
};

struct LoadResult {
  double offered = 0;       // fraction of the injection bandwidth, per sending source
  double accepted = 0;      // the same, delivered in the window
  double accepted_Bps = 0;  // bytes/s delivered in the window, all sources together
  double mean_latency_s = 0;
  double p99_latency_s = 0;
  std::uint64_t measured = 0;     // messages generated in the window
  std::uint64_t flow_events = 0;  // messages started plus messages delivered, whole run
  runtime::SimTime end;           // simulated time once drained
  double wall_s = 0;              // host time of the simulation (not of building the network)
  double cpu_s = 0;               // and the CPU time it took (the same on an idle machine)
  std::vector<std::string> stats_files;  // written for network.stats
};

// The configured network's endpoint count and the bandwidth of a NIC's injection link (the
// first link of every route). Builds the topology; throws ConfigError for a bad one, or a
// crossbar without node.count.
struct Endpoints {
  int nodes;
  double injection_Bps;
};
Endpoints configured_endpoints(const runtime::Config& config);

class TrafficRun {
 public:
  // Builds the configured network (network.*, node.count for a crossbar, runtime.seed).
  TrafficRun(const runtime::Config& config, const Pattern& pattern, const TrafficSettings& settings,
             double load);
  ~TrafficRun();
  LoadResult run();

  int sending_sources() const { return sending_; }
  double injection_Bps() const { return injection_Bps_; }

 private:
  struct Source {
    std::int64_t next_ps = 0;     // generation time of message `next`
    std::uint32_t next = 0;       // index of the next message to leave
    std::uint16_t in_flight = 0;  // messages leaving its NIC (counted only under --outstanding)
    std::uint16_t waiting = 0;    // a wake-up at next_ps is scheduled
  };
  // The slot of a message generated outside the window: none.
  static constexpr std::uint32_t kUnmeasured = UINT32_MAX;
  bool nic_has_room(int src) const {
    return settings_.outstanding == 0 ||
           sources_[static_cast<std::size_t>(src)].in_flight < settings_.outstanding;
  }
  // Generations ahead whose source's state is asked for (each one miss among a million): they
  // come one or a few engine events apart, so four ahead gives the memory time to answer.
  static constexpr std::size_t kPrefetchAhead = 4;
  void prefetch_source(int src) const {
    if (src < 0) return;
    __builtin_prefetch(&sources_[static_cast<std::size_t>(src)]);
  }
  void start_due(int src);
  void send(int src);
  void wake_at_next(int src);
  void arm_generations();
  static void on_generations(void* self, std::uint64_t version);
  static void on_sent(void* self, std::uint64_t notice, runtime::SimTime arrival);
  static void on_window_edge(void* self, std::uint64_t end);

  const Pattern& pattern_;
  TrafficSettings settings_;
  double load_;
  runtime::Engine engine_;
  std::unique_ptr<hardware::FlowNetwork> net_;
  double injection_Bps_;  // before injection_, which is built from it
  InjectionProcess injection_;
  runtime::HugePageVector<Source> sources_;
  // The waiting sources' next generations; one engine event, at the earliest (a later one
  // armed before is superseded: its version is old).
  GenerationCalendar calendar_;
  std::int64_t armed_at_ps_ = INT64_MAX;
  std::uint64_t armed_version_ = 0;
  // The generation times of the measured messages in flight, by slot; slots are reused last freed
  // first, so the ones in use stay few lines.
  runtime::HugePageVector<std::int64_t> generated_ps_;
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::int64_t> latencies_ps_;  // of the measured messages
  std::int64_t window_start_ps_, stop_ps_;
  double given_bytes_ = 0;       // to FlowNetwork::transfer, so far
  double sent_at_edge_[2] = {};  // bytes sent by the window's start and end
  std::uint64_t flow_events_ = 0;
  int sending_ = 0;
};

}  // namespace simmpi::traffic
