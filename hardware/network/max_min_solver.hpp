// SPDX-License-Identifier: Apache-2.0
// Max-min fair bandwidth sharing among flows that cross shared links (Bertsekas and Gallager,
// "Data Networks", 2nd ed., section 6.5.2), computed by progressive filling: every unfrozen flow
// grows at the same rate; a link whose capacity is used up freezes the flows that cross it; a
// flow that reaches its cap (the single-message maximum, or the slowest link of its route)
// freezes on its own. Rates are in bytes/s; the solver knows nothing of time.
//
// Incremental and local. A link is *tight* when its flows could together exceed it (sum of the
// flows' caps > capacity); a link that is not tight never limits anyone. add_flow/remove_flow
// only record what changed: a flow whose links all stay slack gets its cap at once; otherwise
// the new flow, or the saturated links a departing flow leaves, become seeds. solve() then:
//   1. takes a region: the seeds and every flow sharing a saturated link with them;
//   2. recomputes the region by progressive filling over its tight links, the other flows held
//      at their rates (each link offers the region what the others leave);
//   3. checks the optimality conditions around the region (Bertsekas and Gallager, Prop. 6.5.1:
//      an allocation is max-min fair iff it is feasible and every flow has a bottleneck, a
//      saturated link where no flow gets more, or sits at its cap): (A) an outside flow that
//      gets more than a region flow on that region flow's bottleneck, and (B) outside flows
//      whose bottleneck the region left unsaturated or outgrew, join the region; step 2 again.
// Each flow remembers its bottleneck link and each link the level of the flows it limits, so
// the checks look only at the region's links, not at every flow around them. With no violation
// left the allocation is the exact max-min one (to a relative 1e-9). After kMaxRounds rounds
// the region becomes the whole component (the flows connected to it through tight links),
// solved directly, so the cost stays bounded where changes ripple far. In random traffic a
// handful of flows change per event even when tight links join thousands of flows into one
// component: the work follows the change, not the network.
//
// The caller batches all the arrivals and departures of one simulated instant into one solve(),
// which gives the same rates as solving after each change.
//
// A link's state exists only while it has flows: a record in a pool of such records, found by a
// word per link. At a million endpoints a few hundred thousand of the network's millions of links
// carry solver flows at once; a record per link (64 bytes) made the network's build zero
// hundreds of megabytes that the run mostly never touched, and scattered the links in use over
// all of them. An emptied link's state is the same whatever its past (no flows, sums and bounds
// 0), so a record opened afresh gives the same results as the link's old one.
//
// Determinism: no unordered containers; ties between links broken by link id.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include "hardware/network/pooled_lists.hpp"
#include "hardware/network/strided_rows.hpp"
#include "hardware/network/topology.hpp"
#include "runtime/core/error.hpp"
#include "runtime/core/huge_page_allocator.hpp"

namespace simmpi::hardware {

using FlowId = std::int32_t;

class MaxMinSolver final : public LinkLoad {
 public:
  // `runs` are the capacities, in (0, 1e15], of links [0, link_count), as
  // Topology::capacity_runs gives them; `link_Bps(l)` is link l's capacity, asked whenever the
  // link gets its first flow unless the links make few runs of equal capacity (see
  // capacity_Bps). `flow_cap_Bps` is the highest rate of one flow; 0 means no cap beyond the links.
  MaxMinSolver(int link_count, const std::vector<CapacityRun>& runs,
               std::function<double(LinkId)> link_Bps, double flow_cap_Bps);
  // `link_Bps[l]` is link l's capacity.
  MaxMinSolver(const std::vector<double>& link_Bps, double flow_cap_Bps);

  // The highest rate of one flow (infinity: no cap beyond the links).
  double flow_cap_Bps() const { return flow_cap_; }
  // Link `link`'s capacity, as the constructor's function gives it. Links come in runs of one
  // capacity (a fat-tree's level, a dragonfly's kind of link), kept from the constructor's pass
  // over them: a network of a few runs answers from the runs, without calling the function (a
  // std::function and the topology's virtual call, about 50 instructions, asked for at every hop
  // of every new flow at a million endpoints).
  double capacity_Bps(LinkId link) const {
    if (run_Bps_.size() == 1) return run_Bps_.front();
    if (run_Bps_.empty()) return capacity_(link);
    const auto after = std::upper_bound(run_first_.begin(), run_first_.end(), link);
    return run_Bps_[static_cast<std::size_t>(after - run_first_.begin()) - 1];
  }
  // The narrowest capacity of `links[0..count)` (infinity when there are none).
  double min_capacity_Bps(const LinkId* links, int count) const {
    if (run_Bps_.size() == 1 && count > 0) return run_Bps_.front();
    double narrowest = std::numeric_limits<double>::infinity();
    for (int i = 0; i < count; ++i) narrowest = std::min(narrowest, capacity_Bps(links[i]));
    return narrowest;
  }
  // Whether add_flow would give a flow over `links[0..count)` its cap at once were it alone on
  // them: no link would be tight (caps and capacities are compared in kB/s, so a flow alone on a
  // link whose capacity is not a whole number of kB/s makes it tight).
  bool is_slack_alone(const LinkId* links, int count) const {
    return whole_kBps_ || is_slack_alone_rounded(links, count);
  }
  // Each link's word: its record (>= 0) while the solver has flows on the link; otherwise kFree,
  // or a mark (< kFree) of the caller's, which the link's first flow replaces. FlowNetwork marks
  // the links of a flow that it keeps from the solver, alone on them: its test for company then
  // reads one word per link, the same word the solver reads next.
  static constexpr std::int32_t kFree = -1;
  std::int32_t link_word(LinkId link) const { return record_of_[static_cast<std::size_t>(link)]; }
  // Marks a link that has no solver flow (mark < kFree), or clears the mark (kFree).
  void mark_link(LinkId link, std::int32_t mark) {
    std::int32_t& w = record_of_[static_cast<std::size_t>(link)];
    SIMMPI_ASSERT(w < 0 && mark < 0, "link %d marked %d while its word is %d", link, mark, w);
    w = mark;
  }
  // Starts loading `link`'s word (add_flow's and flows_on's first read of it; one of millions at
  // a million endpoints: a miss that can overlap the route's other links').
  void prefetch(LinkId link) const {
    __builtin_prefetch(&record_of_[static_cast<std::size_t>(link)]);
  }
  // Starts loading what remove_flow reads of `flow` before its links: its entry, with its hops.
  void prefetch_flow(FlowId flow) const {
    __builtin_prefetch(&flows_[static_cast<std::size_t>(flow)]);
  }
  // Adds a flow over `links[0..count)`. Its rate is final at once when rate(id) > 0; otherwise
  // it is 0 until the next solve().
  FlowId add_flow(const LinkId* links, int count);
  // Capacity for `flows` flows at once, allocated ahead (see FlowNetwork::expect_flows), and
  // for the records and list cells of their links: as many as kInlineHops links each, at most
  // every link (flows share links, so fewer are reached; memory that none reaches is mapped and
  // never touched). Grown by doubling instead, the records were copied at each doubling into
  // freshly touched pages, inside the event loop.
  void reserve(std::size_t flows) {
    flows_.reserve(flows);
    const std::size_t records = std::min(record_of_.size(), flows * std::size_t{kInlineHops});
    links_.reserve(records);
    levels_.reserve(records);
    flows_on_.reserve(2 * records);  // (a list's first block holds two cells)
  }
  void remove_flow(FlowId flow);
  // True when add/remove left something for solve() to recompute.
  bool has_pending() const { return !seed_flows_.empty() || !seed_links_.empty(); }
  // Recomputes what the changes since the last call can reach. Returns the flows whose rate
  // changed (valid until the next call).
  const std::vector<FlowId>& solve();

  double rate_Bps(FlowId flow) const { return flows_[static_cast<std::size_t>(flow)].rate; }
  // Replaces `out` with the links of a live flow, in route order.
  void copy_route(FlowId flow, std::vector<LinkId>& out) const;
  int flows_on(LinkId link) const override {
    const LinkRecord r = record_of_[static_cast<std::size_t>(link)];
    return r < 0 ? 0 : static_cast<int>(links_[static_cast<std::size_t>(r)].flows.size);
  }
  int link_count() const { return static_cast<int>(record_of_.size()); }
  // Link records ever made: the most links that held flows at once.
  std::size_t link_records() const { return links_.size(); }
  int active_flows() const { return active_; }
  // Size of the last solve, for benchmarks and tests: flows recomputed.
  std::size_t last_solve_flows() const { return region_.size(); }
  // Totals since construction, for benchmarks: solves and flows recomputed by them.
  std::uint64_t solves() const { return solves_; }
  std::uint64_t solved_flows() const { return solved_flows_; }
  // Filling rounds, and solves that fell back to the whole component.
  std::uint64_t rounds() const { return rounds_; }
  std::uint64_t component_solves() const { return component_solves_; }

 private:
  // Memory layout matters more than operation counts here: a solve makes a few hundred random
  // accesses, so everything a solve or a change reads of a link is in its one line, a flow
  // fits in a cache line and its hops in another, and filling reads only small dense arrays
  // (local_, members_, slots_, on_link_, open_) built as flows join the region.
  // A link's record in links_, while the link has flows.
  using LinkRecord = std::int32_t;  // (a negative word is kFree or a caller's mark: no record)
  static constexpr LinkRecord kAtCap = -1;  // Flow::bottleneck of a flow at its cap
  // A flow's hops are the records of its links, in route order. A link's list of flows holds
  // (flow, hop) entries; a flow leaving finds its entry by a search of the list (a few cells,
  // one line, already asked for) rather than by a position kept in the hop: keeping positions
  // wrote the hop of whichever flow's entry moved into the hole, a miss in series after the
  // list's own at every hop of every departure.
  using Hop = LinkRecord;
  struct LinkEntry {
    FlowId flow;
    std::int32_t hop;  // index of the link in the flow's hops
    bool operator==(const LinkEntry&) const = default;
  };
  // One cache line: at a million endpoints a hop's link is a miss, and only one. (Whether it is
  // tight and its place in a solve's local_ are in it too: a separate array of them was a second
  // miss per hop.) The level, read only by the optimality checks, lives in levels_.
  struct alignas(64) Link {
    double capacity;
    std::int64_t cap_floor;    // capacity rounded down, in kB/s
    std::int64_t cap_sum = 0;  // sum of the caps (rounded up, in kB/s) of the flows on the link
    double rate_sum = 0;       // of the flows' rates, kept up to date (exact again when it empties)
    double max_bound = 0;      // >= every flow's rate on the link (not lowered when rates drop)
    // In flows_on_, or here when the link has one flow (most links that have flows at low load:
    // its removal then reads no block of cells).
    PooledLists<LinkEntry>::Head flows;
    std::int32_t bottlenecked = 0;  // how many flows have this link as bottleneck
    // Its slot in local_ during a solve, valid only if local_[slot] names this link (a sparse
    // set: nothing to clear between solves).
    std::int32_t slot = 0;
    LinkId id = 0;  // the link this record is
  };
  static_assert(sizeof(Link) == 64);
  // One cache line with its hops when its route has at most kInlineHops links (every route of a
  // fat-tree of up to four levels, and of a dragonfly under minimal routing): a flow's entry and
  // its hops were two misses, in two arrays, wherever the solver reached the flow. Longer routes
  // keep their hops in long_hops_.
  static constexpr int kInlineHops = 8;
  struct alignas(64) Flow {
    double cap = 0;
    double rate = 0;
    std::uint64_t region = 0;        // solve_ of the solve whose region holds it
    LinkRecord bottleneck = kAtCap;  // the saturated link that limits it, or kAtCap
    std::int16_t hop_count = 0;
    bool alive = false;
    Hop hops[kInlineHops];  // its route's links, if they fit
  };
  static_assert(sizeof(Flow) == 64);
  // Its cap rounded up to kB/s, as the links' cap_sum count it.
  static std::int64_t cap_units(const Flow& x);
  // A region flow during a solve, at its index in region_. Filling works on these dense arrays
  // (and local_) only: the flow's tight links are found once, when it joins, as slots of local_.
  struct Member {
    double cap;
    double new_rate;     // tentative
    std::int32_t limit;  // slot in local_ of the tentative bottleneck, or kNoSlot (at cap)
    std::int32_t tight;  // its tight links: slots_[index * max_hops_ ...][0, tight)
    bool frozen;         // this round
  };
  // A tight link of the region during a solve: size, the member list, old_sum and old_b grow as
  // flows join; the rest is the state of one filling round. (Built field by field in place: a
  // braced temporary copied into the vector costs a store-forwarding stall per link.)
  struct Local {
    LinkId link = 0;  // (ties between links go by link id)
    LinkRecord record = 0;
    bool checked = false;  // by check (A), this round
    double rem = 0;        // capacity left for the region (the others held at their rates)
    double old_sum = 0;    // region flows' committed rates on the link
    double new_sum = 0;    // and their tentative ones
    double new_max = 0;
    std::int32_t cnt = 0;     // unfrozen region flows on the link, during filling
    std::int32_t size = 0;    // region flows on the link
    std::int32_t first = -1;  // and their list in on_link_, in region order
    std::int32_t last = -1;
    std::int32_t old_b = 0;  // region flows whose committed bottleneck is this link
    std::int32_t open = -1;  // index in open_ while it has unfrozen flows, else -1
  };
  struct Open {  // a local link with unfrozen flows, and its fair share rem / cnt
    double share;
    std::int32_t slot;
  };
  struct LevelEntry {  // a link's fair share if it saturated now; stale once cnt moved on
    double level;
    LinkId link;
    std::int32_t slot;
    std::int32_t count;
  };

  Link& link(LinkRecord r) { return links_[static_cast<std::size_t>(r)]; }
  Flow& flow(FlowId f) { return flows_[static_cast<std::size_t>(f)]; }
  std::span<const LinkEntry> flows_of(LinkRecord r) const {
    const auto& head = links_[static_cast<std::size_t>(r)].flows;
    return {flows_on_.begin(head), head.size};
  }
  // The link's record, made if it has none (its capacity asked for again).
  LinkRecord open_record(LinkId l);
  Hop* hops(FlowId f) {
    Flow& x = flow(f);
    return x.hop_count <= kInlineHops ? x.hops : long_hops_.row(static_cast<std::size_t>(f));
  }
  const Hop* hops(FlowId f) const {
    const Flow& x = flows_[static_cast<std::size_t>(f)];
    return x.hop_count <= kInlineHops ? x.hops : long_hops_.row(static_cast<std::size_t>(f));
  }
  // Its flows could together exceed it.
  static bool is_tight(const Link& k) { return k.cap_sum > k.cap_floor; }
  bool is_tight(LinkRecord r) const { return is_tight(links_[static_cast<std::size_t>(r)]); }
  bool in_region(FlowId f) const { return flows_[static_cast<std::size_t>(f)].region == solve_; }
  std::int32_t* slots(std::size_t member) { return &slots_[member * max_hops_]; }
  static constexpr std::int32_t kNoSlot = -1;
  void close(std::int32_t slot);
  FlowId allocate_flow(int hop_count);
  void set_rate(FlowId f, double rate, LinkRecord bottleneck);
  void add_to_region(FlowId f);
  bool is_saturated(LinkRecord r) const;
  void add_saturated_neighbours(FlowId f);
  void add_tight_neighbours(FlowId f);
  void seed_region();
  void close_region();
  void start_solve();
  void mark_links();
  void start_filling();
  void fill_region();
  void freeze(std::size_t member, double rate, std::int32_t limit);
  void push_level(std::int32_t slot);
  Local* lowest_share(double* level);
  bool grow_region();
  void check_outside_bottlenecks(const Local& s);
  void check_region_bottleneck(Local& s, double level);
  void commit();

  bool is_slack_alone_rounded(const LinkId* links, int count) const;

  std::function<double(LinkId)> capacity_;
  // The runs of equal capacity: run i holds the links from run_first_[i] to the next run's first,
  // of capacity run_Bps_[i]. Empty when the links make more than kMaxRuns runs.
  static constexpr std::size_t kMaxRuns = 64;
  std::vector<LinkId> run_first_;
  std::vector<double> run_Bps_;
  runtime::HugePageVector<LinkRecord> record_of_;  // by link id: its word (see link_word)
  runtime::HugePageVector<Link> links_;            // the records
  std::vector<LinkRecord> free_records_;
  // By record: the rate of the flows whose bottleneck it is (meaningful while there are some).
  std::vector<double> levels_;
  PooledLists<LinkEntry> flows_on_;  // each link's flows, in any order
  // Every capacity (and the flow cap) is a whole number of kB/s, as configured bandwidths are:
  // then a flow alone never makes a link tight.
  bool whole_kBps_ = true;
  runtime::HugePageVector<Flow> flows_;
  StridedRows<Hop> long_hops_;  // a row per flow slot, once a route is longer than kInlineHops
  std::size_t max_hops_ = kInlineHops;  // the longest route yet, or kInlineHops
  std::vector<FlowId> free_;
  double flow_cap_;
  int active_ = 0;

  std::vector<FlowId> seed_flows_;
  std::vector<LinkId> seed_links_;  // by id: a link emptied since has no flows to seed
  std::vector<char> saturated_;     // scratch of remove_flow
  std::uint64_t solve_ = 0;         // stamp of Flow::region
  // Scratch of solve(). A region only grows during a solve, and so do local_, members_, slots_
  // and on_link_: a round marks only the flows that joined since the last one.
  std::vector<Local> local_;
  // The local links with unfrozen flows, in no particular order (ties go to the lowest link id):
  // lowest_share scans only these, and only their shares.
  std::vector<Open> open_;
  std::vector<FlowId> region_;
  std::vector<Member> members_;      // one per region flow, same index
  std::vector<std::int32_t> slots_;  // max_hops_ per member
  struct OnLink {  // a member on a local link; `next` is the link's next member, or -1
    std::int32_t member;
    std::int32_t next;
  };
  std::vector<OnLink> on_link_;
  std::vector<std::int32_t> order_;  // members by cap
  std::vector<LevelEntry> heap_;
  std::vector<FlowId> culprits_;
  std::vector<FlowId> changed_;
  std::size_t unfrozen_ = 0;
  bool use_heap_ = false;
  std::uint64_t solves_ = 0;
  std::uint64_t solved_flows_ = 0;
  std::uint64_t rounds_ = 0;
  std::uint64_t component_solves_ = 0;
};

}  // namespace simmpi::hardware
