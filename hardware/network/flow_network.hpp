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
//
// A flow alone on its links (most messages of most programs: a ping-pong, a halo exchange whose
// messages do not meet) never reaches the solver: its rate is its narrowest link's capacity (or
// the flow cap), which is what the solver would give it, and its links are marked as its own.
// The solver hears of it only when a second flow takes one of those links: the solo flow is then
// added first, as it would have been at its start (the links hold nothing else, so the solver's
// state is the same: sums, bounds and per-link flow order), with its bytes and rate as they were,
// and then the newcomer. Finish times, the finish queue and the engine events are those of a
// solver flow, so times and the order of events do not change; only the solver's work does.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "hardware/network/finish_queue.hpp"
#include "hardware/network/max_min_solver.hpp"
#include "hardware/network/network.hpp"
#include "hardware/network/topology.hpp"
#include "runtime/core/huge_page_allocator.hpp"

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

  // Room for `flows` flows in flight at once, allocated ahead (a hint: more still fit). The
  // per-flow tables otherwise grow by doubling, each time copied into memory touched for the
  // first time: at a million endpoints a few percent of the event loop went to zeroing those
  // pages and copying. Allocated memory that no flow reaches is never touched.
  void expect_flows(std::size_t flows);
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
  // Flows in time are indexed by TransferId (FinishQueue, transfers_, routes_); those in the
  // solver also have a FlowId.
  using TransferId = std::int32_t;
  static constexpr TransferId kNoTransfer = -1;
  static constexpr FlowId kSolo = -1;  // Transfer::flow of a flow alone on its links
  // The solver's word of each link of a solo flow marks it (MaxMinSolver::link_word): the test
  // for company reads 4 bytes per link, the word that also finds the solver's state of the link,
  // and a solo flow never touches the solver's links.
  static std::int32_t solo_mark(TransferId id) { return MaxMinSolver::kFree - 1 - id; }
  static TransferId solo_of(std::int32_t word) { return MaxMinSolver::kFree - 1 - word; }
  struct Transfer {            // one per live flow
    std::uint64_t left_bytes;  // of the message, after this chunk
    double chunk_bytes;        // 0 once the chunk is done: the slot holds no live flow
    double remaining;          // bytes of this chunk still to send, as of `last`
    double rate;               // bytes/s since `last`
    SimTime last;
    SimTime latency;
    std::uint64_t seq;
    ArrivalNotice arrived;
    int src, dst;
    FlowId flow;  // in the solver, or kSolo
    int hops;     // links of its route, at route(id)
  };
  // What routing (adaptive routes weigh links by their flows) and the statistics see: every
  // flow on a link, the solver's and the solo one.
  class Occupancy final : public LinkLoad {
   public:
    explicit Occupancy(const FlowNetwork& n) : n_(n) {}
    int flows_on(LinkId link) const override {
      return n_.solver_.flows_on(link) + (n_.solver_.link_word(link) < MaxMinSolver::kFree);
    }

   private:
    const FlowNetwork& n_;
  };

  void start_chunk(int src, int dst, std::uint64_t bytes_left, ArrivalNotice arrived);
  void complete_chunk(TransferId id);
  void set_rate(TransferId id, double rate_Bps);
  // Times a chunk that starts at `rate_Bps` now. Chunks that start at their cap (solo ones, and
  // those the solver gives their cap at once) mostly finish in the order they start: the finish
  // queue's FIFO takes them.
  void time_new_chunk(TransferId id, double rate_Bps);
  TransferId allocate_transfer(int hops);
  LinkId* route(TransferId id) { return routes_.row(static_cast<std::size_t>(id)); }
  void prefetch_transfer(TransferId id) {
    const Transfer* t = &transfers_[static_cast<std::size_t>(id)];
    __builtin_prefetch(t);
    __builtin_prefetch(reinterpret_cast<const char*>(t + 1) - 1);  // its two lines
    __builtin_prefetch(route(id));
  }
  // Adds solo flow `id` to the solver, whose links hold no other flow yet.
  void hand_over(TransferId id);
  // Adds the flow to the solver and marks its links.
  FlowId add_to_solver(TransferId id);
  // The rate a flow alone on `links` gets: its narrowest link or the flow cap (the solver's
  // capacities, which are the topology's bandwidths).
  double alone_cap_Bps(const LinkId* links, int hops) const;
  void request_solve();
  void arm_completion();
  static void on_solve(void* self, std::uint64_t);
  static void on_completion(void* self, std::uint64_t version);
  SimTime route_latency(std::size_t links) const;
  // The route latency() and the statistics describe (the one a zero-byte probe takes).
  const std::vector<LinkId>& probe_route(int src, int dst) const;

  // A pair's route where routes are fixed (Topology::has_fixed_routes): its links, latency and
  // the rate a flow alone on it gets, kept from the pair's first message and reused, since every
  // later message of the pair takes the same route. Routing, its latency and the lone rate were
  // a third of the network's work per message of a ping-pong. Direct-mapped by node pair: a hit
  // is exact, a miss routes as before and keeps the route. Where pairs rarely repeat (an
  // all-to-all of more pairs than the table holds) the misses would cost more than the hits
  // save: a window of kKeptWindow messages with fewer than a quarter of hits pauses the table
  // for kKeptPause messages. Either way a flow takes the same route: only the work differs.
  static constexpr int kKeptLinks = 12;
  static constexpr int kKeptRouteBits = 12;
  static constexpr std::uint32_t kKeptWindow = 8192;
  static constexpr std::uint32_t kKeptPause = 65536;
  struct KeptRoute {
    std::uint64_t key;  // pair_key(src, dst); 0: empty
    SimTime latency;
    double alone_Bps;  // < 0: not worked out yet
    int hops;
    LinkId links[kKeptLinks];
  };
  static std::uint64_t pair_key(int src, int dst) {
    return (static_cast<std::uint64_t>(src) << 32 | static_cast<std::uint32_t>(dst)) + 1;
  }
  KeptRoute& kept_slot(std::uint64_t key) const {
    return kept_routes_[(key * 0x9E3779B97F4A7C15ULL) >> (64 - kKeptRouteBits)];
  }
  // The slot a message of the pair looks its route up in (and keeps it in on a miss), or nullptr
  // where routes are not fixed or the table is paused; counts the window's hits.
  KeptRoute* kept_for_message(std::uint64_t key) {
    if (!kept_routes_) return nullptr;
    if (kept_paused_ > 0) {
      --kept_paused_;
      return nullptr;
    }
    KeptRoute& k = kept_slot(key);
    kept_hits_ += k.key == key;
    if (++kept_lookups_ == kKeptWindow) {
      if (kept_hits_ < kKeptWindow / 4) kept_paused_ = kKeptPause;
      kept_lookups_ = kept_hits_ = 0;
    }
    return &k;
  }

  runtime::Engine& engine_;
  std::unique_ptr<Topology> topology_;
  MaxMinSolver solver_;
  FinishQueue queue_;
  // A flow that started while the queue was empty and nothing was armed stays out of it while
  // it is the only one (a ping-pong's every message): its event is armed as for the queue's only
  // entry, and on_completion completes it as the queue's loop would; any other use of the queue
  // puts it in first (queue()), with the same call it would have had at its start, so the
  // queue, the events and their order are those of a queued flow. What goes is the queue's
  // insertion and removal per message.
  TransferId direct_ = kNoTransfer;
  SimTime direct_at_;
  FinishQueue& queue() {
    if (direct_ != kNoTransfer) {
      queue_.add_in_order(direct_, direct_at_, transfers_[static_cast<std::size_t>(direct_)].seq);
      direct_ = kNoTransfer;
    }
    return queue_;
  }
  runtime::HugePageVector<Transfer> transfers_;  // by TransferId
  std::vector<TransferId> free_transfers_;
  StridedRows<LinkId> routes_;             // a row per TransferId
  std::vector<TransferId> flow_transfer_;  // by FlowId
  Occupancy occupancy_{*this};
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
  // The kept routes (fixed routes only; nullptr otherwise), from calloc: a table's pages that no
  // pair reaches are never touched.
  struct FreeKeptRoutes {
    void operator()(KeptRoute* p) const { std::free(p); }
  };
  std::unique_ptr<KeptRoute[], FreeKeptRoutes> kept_routes_;
  std::uint32_t kept_lookups_ = 0, kept_hits_ = 0, kept_paused_ = 0;  // kept_for_message's
  std::unique_ptr<NetStats> stats_;
};

}  // namespace simmpi::hardware
