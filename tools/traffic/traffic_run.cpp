// SPDX-License-Identifier: Apache-2.0
// Sources, sinks and the measurement of one offered load.
#include "tools/traffic/traffic_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>

#include "hardware/network/topology_factory.hpp"
#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::traffic {
namespace {

using runtime::SimTime;

int crossbar_nodes(const runtime::Config& config) {
  int nodes = 0;
  if (!hardware::has_own_size(config)) {
    nodes = static_cast<int>(config.integer("node.count"));
    if (nodes < 2)
      throw ConfigError(
          strprintf("node.count = %d (%s): a crossbar's size comes from node.count; "
                    "give at least 2, e.g. --set node.count=64",
                    nodes, config.origin("node.count").c_str()));
  }
  return nodes;
}

// The bandwidth of a NIC's injection link: the first link of every route.
double injection_bandwidth(const hardware::Topology& topology) {
  std::vector<hardware::LinkId> route;
  topology.route(0, 1, hardware::RouteContext{}, route);
  return topology.link_bw_Bps(route.front());
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace

Endpoints configured_endpoints(const runtime::Config& config) {
  std::unique_ptr<hardware::Topology> t = hardware::make_topology(config, crossbar_nodes(config));
  return Endpoints{t->node_count(), injection_bandwidth(*t)};
}

TrafficRun::TrafficRun(const runtime::Config& config, const Pattern& pattern,
                       const TrafficSettings& settings, double load)
    : pattern_(pattern),
      settings_(settings),
      load_(load),
      net_(std::make_unique<hardware::FlowNetwork>(
          engine_, hardware::make_topology(config, crossbar_nodes(config)), config)),
      injection_Bps_(injection_bandwidth(net_->topology())),
      injection_(settings.injection, static_cast<double>(settings.message_bytes) / injection_Bps_,
                 load, settings.burst, static_cast<std::uint64_t>(config.integer("runtime.seed"))),
      calendar_((settings.warmup + settings.window).ps(),
                static_cast<std::size_t>(net_->node_count()),
                net_->node_count() * (settings.warmup + settings.window).seconds() /
                    injection_.mean_gap_s()) {
  window_start_ps_ = settings.warmup.ps();
  stop_ps_ = (settings.warmup + settings.window).ps();
  // Scheduled first, so they run before anything else at their instants.
  engine_.schedule(settings.warmup, runtime::Action{&TrafficRun::on_window_edge, this, 0});
  engine_.schedule(SimTime::from_ps(stop_ps_),
                   runtime::Action{&TrafficRun::on_window_edge, this, 1});
  int nodes = net_->node_count();
  sources_.resize(static_cast<std::size_t>(nodes));
  for (int s = 0; s < nodes; ++s) {
    if (!pattern_.sends(s)) continue;  // a fixed pattern maps it to itself
    ++sending_;
    Source& src = sources_[static_cast<std::size_t>(s)];
    src.next_ps = injection_.gap(s, 0).ps();
    if (src.next_ps < stop_ps_) wake_at_next(s);
  }
  arm_generations();
  // Messages in flight at once: about the load times the latency in message times, which is
  // about 2 below saturation (a hint: more still fit). The network's tables and ours are then
  // allocated once instead of doubling (copies and fresh pages) during the run.
  const double per_source =
      std::min(2 * load, settings.outstanding > 0 ? settings.outstanding : 1e9);
  const auto in_flight = static_cast<std::size_t>(sending_ * per_source) + 1;
  net_->expect_flows(in_flight);
  generated_ps_.reserve(in_flight);
  // And the measured messages' latencies: the window's generations.
  latencies_ps_.reserve(static_cast<std::size_t>(
      sending_ * load * settings.window.seconds() * injection_Bps_ /
      static_cast<double>(std::max<std::uint64_t>(settings.message_bytes, 1))));
}

TrafficRun::~TrafficRun() = default;

void TrafficRun::wake_at_next(int src) {
  Source& s = sources_[static_cast<std::size_t>(src)];
  s.waiting = 1;
  calendar_.add(s.next_ps, src);
}

void TrafficRun::arm_generations() {
  if (calendar_.empty() || calendar_.top_ps() >= armed_at_ps_) return;
  armed_at_ps_ = calendar_.top_ps();
  engine_.schedule(SimTime::from_ps(armed_at_ps_),
                   runtime::Action{&TrafficRun::on_generations, this, ++armed_version_});
}

// The sources whose next message is generated now; then, while the next generation comes before
// every event in the engine's queue, that one too, the clock moved to it: the engine would run it
// next anyway, and a generation is then one engine event fewer (about half of them at a million
// endpoints). One at the time of another event goes through the queue, which orders the two.
void TrafficRun::on_generations(void* self, std::uint64_t version) {
  auto* r = static_cast<TrafficRun*>(self);
  if (version != r->armed_version_) return;  // superseded by an earlier generation
  std::int64_t now = r->engine_.now().ps();
  // (armed_at_ps_ stays meanwhile: the sources' next generations, all later, arm nothing.)
  for (;;) {
    while (!r->calendar_.empty() && r->calendar_.top_ps() <= now) {
      const int src = r->calendar_.pop();
      r->prefetch_source(r->calendar_.src_ahead(kPrefetchAhead));
      r->sources_[static_cast<std::size_t>(src)].waiting = 0;
      r->start_due(src);
    }
    if (r->calendar_.empty()) break;
    const std::int64_t next = r->calendar_.top_ps();
    if (next >= r->engine_.next_time().ps()) break;
    r->engine_.advance_to(SimTime::from_ps(next));
    now = next;
  }
  r->armed_at_ps_ = INT64_MAX;
  r->arm_generations();
}

// Sends what the source queue holds as far as the NIC takes it, then waits for the next
// generation unless the NIC is full (a departure calls this again).
void TrafficRun::start_due(int src) {
  Source& s = sources_[static_cast<std::size_t>(src)];
  const std::int64_t now = engine_.now().ps();
  while (nic_has_room(src) && s.next_ps <= now && s.next_ps < stop_ps_) send(src);
  if (!s.waiting && nic_has_room(src) && s.next_ps < stop_ps_) {
    wake_at_next(src);
    arm_generations();
  }
}

void TrafficRun::send(int src) {
  Source& s = sources_[static_cast<std::size_t>(src)];
  std::uint32_t measured = kUnmeasured;
  if (s.next_ps >= window_start_ps_ && s.next_ps < stop_ps_) {
    if (free_slots_.empty()) {
      SIMMPI_ASSERT(generated_ps_.size() < kUnmeasured, "2^32 - 1 measured messages in flight");
      measured = static_cast<std::uint32_t>(generated_ps_.size());
      generated_ps_.push_back(s.next_ps);
    } else {
      measured = free_slots_.back();
      free_slots_.pop_back();
      generated_ps_[measured] = s.next_ps;
    }
  }
  int dst = pattern_.destination(src, s.next);
  SIMMPI_ASSERT(s.next < std::numeric_limits<std::uint32_t>::max(),
                "source %d generated 2^32 messages", src);
  ++s.next;
  s.next_ps += injection_.gap(src, s.next).ps();
  if (settings_.outstanding != 0) ++s.in_flight;
  ++flow_events_;
  given_bytes_ += static_cast<double>(settings_.message_bytes);
  // What on_sent needs rides in the notice: no per-message record to look up.
  const std::uint64_t notice = static_cast<std::uint64_t>(src) << 32 | measured;
  net_->transfer(src, dst, settings_.message_bytes,
                 hardware::ArrivalNotice{&TrafficRun::on_sent, this, notice});
}

// Told when the message's last byte leaves the source (FlowNetwork's ArrivalNotice), with the
// time it will arrive.
void TrafficRun::on_sent(void* self, std::uint64_t notice, SimTime arrival) {
  auto* r = static_cast<TrafficRun*>(self);
  const auto src = static_cast<int>(notice >> 32);
  // Asked for first, read last: the source's line and the slot are a miss each, in parallel.
  if (r->settings_.outstanding != 0)
    __builtin_prefetch(&r->sources_[static_cast<std::size_t>(src)]);
  const auto measured = static_cast<std::uint32_t>(notice);
  if (measured != kUnmeasured) {
    r->latencies_ps_.push_back(arrival.ps() - r->generated_ps_[measured]);
    r->free_slots_.push_back(measured);
  }
  ++r->flow_events_;
  if (r->settings_.outstanding == 0) return;
  --r->sources_[static_cast<std::size_t>(src)].in_flight;
  r->start_due(src);
}

void TrafficRun::on_window_edge(void* self, std::uint64_t end) {
  auto* r = static_cast<TrafficRun*>(self);
  r->sent_at_edge_[end] = r->given_bytes_ - r->net_->unsent_bytes();
}

LoadResult TrafficRun::run() {
  auto t0 = std::chrono::steady_clock::now();
  double cpu0 = cpu_seconds();
  while (engine_.step()) {
  }
  LoadResult out;
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.cpu_s = cpu_seconds() - cpu0;
  out.stats_files = net_->finish();
  out.offered = load_;
  double window_s = settings_.window.seconds();
  out.accepted_Bps = (sent_at_edge_[1] - sent_at_edge_[0]) / window_s;
  out.accepted = sending_ > 0 ? out.accepted_Bps / (sending_ * injection_Bps_) : 0.0;
  out.measured = latencies_ps_.size();
  out.flow_events = flow_events_;
  out.end = engine_.now();
  if (latencies_ps_.empty()) {
    out.mean_latency_s = out.p99_latency_s = std::numeric_limits<double>::quiet_NaN();
    return out;
  }
  long double sum = 0;
  for (std::int64_t l : latencies_ps_) sum += static_cast<long double>(l);
  out.mean_latency_s =
      static_cast<double>(sum / static_cast<long double>(latencies_ps_.size())) * 1e-12;
  // The 99th percentile by the nearest-rank rule: the ceil(0.99 n)-th smallest.
  auto rank = static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(latencies_ps_.size())));
  auto nth =
      latencies_ps_.begin() + static_cast<std::ptrdiff_t>(std::max<std::size_t>(rank, 1) - 1);
  std::nth_element(latencies_ps_.begin(), nth, latencies_ps_.end());
  out.p99_latency_s = static_cast<double>(*nth) * 1e-12;
  return out;
}

}  // namespace simmpi::traffic
