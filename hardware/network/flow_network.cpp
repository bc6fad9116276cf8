// SPDX-License-Identifier: Apache-2.0
// Flows in time: routing each chunk, turning rates into finish times, and the two engine events
// (solve at an instant, earliest finish).
#include "hardware/network/flow_network.hpp"

#include <algorithm>
#include <cstdio>

#include "hardware/network/net_stats.hpp"
#include "hardware/seeded_random.hpp"
#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"
#include "runtime/host_time/heavy_phase.hpp"

namespace simmpi::hardware {
namespace {

// Salts of control-message routes live apart from those of flows (which use the sequence).
constexpr std::uint64_t kProbeSalt = 0x70726f6265ULL;

}  // namespace

FlowNetwork::FlowNetwork(runtime::Engine& engine, std::unique_ptr<Topology> topology,
                         const runtime::Config& config)
    : engine_(engine),
      topology_(std::move(topology)),
      solver_(
          topology_->link_count(), topology_->capacity_runs(),
          [t = topology_.get()](LinkId l) { return t->link_bw_Bps(l); },
          config.bandwidth_Bps("network.flow_max_bw")),
      hop_latency_(config.time("network.hop_latency")),
      nic_latency_(config.time("network.nic_latency")),
      chunk_bytes_(config.size_bytes("network.chunk_size")),
      seed_(static_cast<std::uint64_t>(config.integer("runtime.seed"))) {
  if (config.flag("network.stats")) stats_ = std::make_unique<NetStats>(*topology_, config);
  if (topology_->has_fixed_routes()) {
    kept_routes_.reset(
        static_cast<KeptRoute*>(std::calloc(std::size_t{1} << kKeptRouteBits, sizeof(KeptRoute))));
    SIMMPI_ASSERT(kept_routes_ != nullptr, "allocating the table of kept routes");
  }
}

FlowNetwork::~FlowNetwork() = default;

SimTime FlowNetwork::route_latency(std::size_t links) const {
  return nic_latency_ + hop_latency_ * static_cast<std::int64_t>(links - 1);
}

const std::vector<LinkId>& FlowNetwork::probe_route(int src, int dst) const {
  const std::uint64_t pair =
      static_cast<std::uint64_t>(src) << 32 | static_cast<std::uint32_t>(dst);
  probe_route_.clear();
  RouteContext ctx{mix64(seed_ ^ kProbeSalt, pair), nullptr};
  topology_->route(src, dst, ctx, probe_route_);
  return probe_route_;
}

double FlowNetwork::alone_Bps(int src, int dst) const {
  double bw = 0;
  for (LinkId l : probe_route(src, dst)) {
    double b = topology_->link_bw_Bps(l);
    bw = bw == 0 ? b : std::min(bw, b);
  }
  return bw;
}

std::string FlowNetwork::busiest_link(int src, int dst, SimTime from, SimTime to) const {
  if (!stats_) return "";
  std::string best;
  double most = 0;
  for (LinkId l : probe_route(src, dst))
    if (double bytes = stats_->timeline().bytes_between(l, from, to); bytes > most)
      most = bytes, best = topology_->link_name(l);
  return best;
}

std::vector<LinkSeries> FlowNetwork::busiest_link_load(SimTime end) const {
  return stats_ ? stats_->busiest_link_load(end) : std::vector<LinkSeries>{};
}

SimTime FlowNetwork::latency(int src, int dst) const {
  if (kept_routes_ && kept_paused_ == 0) {  // a pair that sent lately (messages fill the table)
    const std::uint64_t key = pair_key(src, dst);
    if (const KeptRoute& k = kept_slot(key); k.key == key) return k.latency;
  }
  if (const int links = topology_->route_links(src, dst); links >= 0)
    return route_latency(static_cast<std::size_t>(links));
  const std::uint64_t pair =
      static_cast<std::uint64_t>(src) << 32 | static_cast<std::uint32_t>(dst);
  LatencyEntry& e = latency_cache_[mix64(pair, 0) & (latency_cache_.size() - 1)];
  if (e.key != pair + 1) e = LatencyEntry{pair + 1, probe_route(src, dst).size()};
  return route_latency(e.links);
}

void FlowNetwork::transfer(int src, int dst, std::uint64_t bytes, ArrivalNotice arrived) {
  SIMMPI_ASSERT(src != dst && src >= 0 && dst >= 0 && src < node_count() && dst < node_count(),
                "transfer between nodes %d and %d of %d", src, dst, node_count());
  if (stats_) stats_->message(src, dst, bytes);
  if (bytes == 0) {
    arrived(engine_.now() + latency(src, dst));
    return;
  }
  start_chunk(src, dst, bytes, arrived);
}

void FlowNetwork::expect_flows(std::size_t flows) {
  transfers_.reserve(flows);
  routes_.reserve_capacity(flows);
  queue_.reserve(flows);
  solver_.reserve(flows);
}

FlowNetwork::TransferId FlowNetwork::allocate_transfer(int hops) {
  TransferId id;
  if (!free_transfers_.empty()) {
    id = free_transfers_.back();
    free_transfers_.pop_back();
  } else {
    id = static_cast<TransferId>(transfers_.size());
    transfers_.emplace_back();
  }
  routes_.reserve(transfers_.size(), static_cast<std::size_t>(hops));
  return id;
}

FlowId FlowNetwork::add_to_solver(TransferId id) {
  Transfer& t = transfers_[static_cast<std::size_t>(id)];
  const LinkId* links = route(id);
  for (int i = 0; i < t.hops; ++i) solver_.prefetch(links[i]);
  t.flow = solver_.add_flow(links, t.hops);
  if (static_cast<std::size_t>(t.flow) >= flow_transfer_.size())
    flow_transfer_.resize(static_cast<std::size_t>(t.flow) + 1, kNoTransfer);
  flow_transfer_[static_cast<std::size_t>(t.flow)] = id;
  return t.flow;
}

void FlowNetwork::hand_over(TransferId id) {
  const FlowId f = add_to_solver(id);
  const double alone_rate = transfers_[static_cast<std::size_t>(id)].rate;
  SIMMPI_ASSERT(solver_.rate_Bps(f) == alone_rate,
                "a solo flow handed to the solver got %g B/s, not its %g B/s alone",
                solver_.rate_Bps(f), alone_rate);
}

double FlowNetwork::alone_cap_Bps(const LinkId* links, int hops) const {
  return std::min(solver_.flow_cap_Bps(), solver_.min_capacity_Bps(links, hops));
}

void FlowNetwork::start_chunk(int src, int dst, std::uint64_t bytes_left, ArrivalNotice arrived) {
  std::uint64_t chunk = chunk_bytes_ != 0 && bytes_left > chunk_bytes_ ? chunk_bytes_ : bytes_left;
  std::uint64_t seq = next_seq_++;
  const LinkId* path;
  int hops;
  const std::uint64_t key = pair_key(src, dst);
  KeptRoute* const slot = kept_for_message(key);
  KeptRoute* const kept = slot && slot->key == key ? slot : nullptr;
  if (kept) {
    path = kept->links;
    hops = kept->hops;
  } else {
    route_.clear();
    topology_->route(src, dst, RouteContext{mix64(seed_, seq), &occupancy_}, route_);
    path = route_.data();
    hops = static_cast<int>(route_.size());
    if (slot && hops <= kKeptLinks) {  // routes are fixed: every later message takes this one
      slot->key = key;
      slot->latency = route_latency(route_.size());
      slot->alone_Bps = -1;
      slot->hops = hops;
      std::copy(route_.begin(), route_.end(), slot->links);
    }
  }
  // Misses on the links' state, one per link at a million endpoints, overlap when asked for
  // together before the checks below, which branch on each.
  for (int i = 0; i < hops; ++i) solver_.prefetch(path[i]);
  const TransferId id = allocate_transfer(hops);
  LinkId* links = route(id);
  std::copy(path, path + hops, links);
  // Alone on every link: a solo flow (when the solver would give it its cap at once). Otherwise
  // the solo flows it meets join the solver first.
  bool alone = true;
  for (int i = 0; i < hops; ++i) {
    const std::int32_t word = solver_.link_word(links[i]);
    if (word < MaxMinSolver::kFree) {
      hand_over(solo_of(word));
      alone = false;
    } else if (word != MaxMinSolver::kFree) {  // the solver's flows
      alone = false;
    }
  }
  auto bytes = static_cast<double>(chunk);
  transfers_[static_cast<std::size_t>(id)] =
      Transfer{bytes_left - chunk,
               bytes,
               bytes,
               0.0,
               engine_.now(),
               kept ? kept->latency : route_latency(route_.size()),
               seq,
               arrived,
               src,
               dst,
               kSolo,
               hops};
  double rate;
  if (alone && solver_.is_slack_alone(links, hops)) {
    for (int i = 0; i < hops; ++i) solver_.mark_link(links[i], solo_mark(id));
    if (!kept) {
      rate = alone_cap_Bps(links, hops);
    } else {
      if (kept->alone_Bps < 0) kept->alone_Bps = alone_cap_Bps(links, hops);
      rate = kept->alone_Bps;
    }
  } else {
    rate = solver_.rate_Bps(add_to_solver(id));
  }
  if (stats_) stats_->flow_started(links, hops, engine_.now(), occupancy_);
  if (rate > 0) {
    time_new_chunk(id, rate);
    arm_completion();
  } else {
    request_solve();
  }
}

// Brings the flow's remaining bytes up to now at its old rate, then times the rest at the new.
void FlowNetwork::set_rate(TransferId id, double rate_Bps) {
  Transfer& t = transfers_[static_cast<std::size_t>(id)];
  SimTime now = engine_.now();
  if (t.rate > 0 && now > t.last) {
    double sent = std::min(t.remaining, t.rate * (now - t.last).seconds());
    if (stats_) stats_->carried(route(id), t.hops, sent, t.last, now);
    t.remaining -= sent;
  }
  t.last = now;
  t.rate = rate_Bps;
  queue().set(id, now + runtime::transfer_time(t.remaining, rate_Bps), t.seq);
}

void FlowNetwork::time_new_chunk(TransferId id, double rate_Bps) {
  Transfer& t = transfers_[static_cast<std::size_t>(id)];
  t.last = engine_.now();
  t.rate = rate_Bps;
  const SimTime at = t.last + runtime::transfer_time(t.remaining, rate_Bps);
  // The queue's only flow, armed for by its own event (see direct_); a flow that ends in the
  // instant it starts goes through the queue, which on_completion empties in a loop.
  if (queue_.empty() && direct_ == kNoTransfer && armed_at_ == SimTime::max() && at > t.last) {
    direct_ = id;
    direct_at_ = at;
    return;
  }
  queue().add_in_order(id, at, t.seq);
}

void FlowNetwork::complete_chunk(TransferId id) {
  const Transfer t = transfers_[static_cast<std::size_t>(id)];
  transfers_[static_cast<std::size_t>(id)].chunk_bytes = 0;
  const LinkId* links = route(id);
  // (The links' words: a solo flow clears its marks, remove_flow frees the words of the links it
  // empties.)
  for (int i = 0; i < t.hops; ++i) solver_.prefetch(links[i]);
  if (t.flow == kSolo) {
    for (int i = 0; i < t.hops; ++i) solver_.mark_link(links[i], MaxMinSolver::kFree);
  } else {
    solver_.prefetch_flow(t.flow);
    solver_.remove_flow(t.flow);
    flow_transfer_[static_cast<std::size_t>(t.flow)] = kNoTransfer;
  }
  if (stats_) {
    stats_->carried(links, t.hops, t.remaining, t.last, engine_.now());
    stats_->flow_ended(links, t.hops, t.chunk_bytes, engine_.now(), occupancy_);
  }
  free_transfers_.push_back(id);
  if (t.left_bytes > 0)
    start_chunk(t.src, t.dst, t.left_bytes, t.arrived);
  else
    t.arrived(engine_.now() + t.latency);
}

double FlowNetwork::unsent_bytes() const {
  const SimTime now = engine_.now();
  double sum = 0;
  for (const Transfer& t : transfers_) {
    if (t.chunk_bytes == 0) continue;
    double left = t.remaining;  // as set_rate brings it up to date
    if (t.rate > 0 && now > t.last) left = std::max(0.0, left - t.rate * (now - t.last).seconds());
    sum += left + static_cast<double>(t.left_bytes);
  }
  return sum;
}

void FlowNetwork::request_solve() {
  if (solve_pending_) return;
  solve_pending_ = true;
  engine_.schedule(engine_.now(), Action{&FlowNetwork::on_solve, this, 0});
}

void FlowNetwork::on_solve(void* self, std::uint64_t) {
  runtime::HeavyPhase timed;  // for the note on uncharged compute
  auto* n = static_cast<FlowNetwork*>(self);
  n->solve_pending_ = false;
  for (FlowId f : n->solver_.solve())
    n->set_rate(n->flow_transfer_[static_cast<std::size_t>(f)], n->solver_.rate_Bps(f));
  n->arm_completion();
}

void FlowNetwork::arm_completion() {
  SimTime top;
  if (direct_ != kNoTransfer)
    top = direct_at_;
  else if (!queue_.empty())
    top = queue_.top_time();
  else
    return;
  if (top >= armed_at_) return;
  armed_at_ = top;
  engine_.schedule(armed_at_, Action{&FlowNetwork::on_completion, this, ++version_});
}

void FlowNetwork::on_completion(void* self, std::uint64_t version) {
  auto* n = static_cast<FlowNetwork*>(self);
  if (version != n->version_) return;  // superseded by an earlier finish
  n->armed_at_ = SimTime::max();
  SimTime now = n->engine_.now();
  if (n->direct_ != kNoTransfer) {  // the queue's only flow, due now: what the loop would pop
    const TransferId id = n->direct_;
    n->direct_ = kNoTransfer;
    n->complete_chunk(id);
  }
  while (!n->queue_.empty() && n->queue_.top_time() <= now) {
    const TransferId id = n->queue_.top();
    n->queue_.pop();
    // The next flow to finish is likely the next network event: its transfer and route, one
    // of 10^5 in flight at a million endpoints, load while this one completes.
    if (!n->queue_.empty()) n->prefetch_transfer(n->queue_.top());
    n->complete_chunk(id);
  }
  if (n->solver_.has_pending()) n->request_solve();
  n->arm_completion();
}

std::vector<std::string> FlowNetwork::finish() {
  if (!stats_) return {};
  return stats_->write(engine_.now(), solver_);
}

}  // namespace simmpi::hardware
