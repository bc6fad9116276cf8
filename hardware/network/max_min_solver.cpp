// SPDX-License-Identifier: Apache-2.0
// Progressive filling over a region grown from the changes until the max-min optimality
// conditions hold around it (see the header's design comment).
#include "hardware/network/max_min_solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/core/error.hpp"

namespace simmpi::hardware {
namespace {

constexpr int kMaxRounds = 64;
constexpr std::size_t kScanLinks = 64;  // regions with more tight links keep a heap of shares
constexpr double kTolerance = 1e-9;
// Caps and capacities are compared in kB/s (caps rounded up, capacities down): a link found
// slack this way is slack, and 64-bit sums hold 10^4 flows of 8 Pb/s.
constexpr double kCapUnit = 1000.0;
constexpr double kMaxCapacity = 1e15;

// Min-heap order on (level, link): equal levels resolve by link id, so runs are reproducible.
struct LevelOrder {
  template <class E>
  bool operator()(const E& a, const E& b) const {
    return a.level != b.level ? a.level > b.level : a.link > b.link;
  }
};

}  // namespace

MaxMinSolver::MaxMinSolver(const std::vector<double>& link_Bps, double flow_cap_Bps)
    : MaxMinSolver(
          static_cast<int>(link_Bps.size()),
          capacity_runs_of(static_cast<int>(link_Bps.size()),
                           [&](LinkId l) { return link_Bps[static_cast<std::size_t>(l)]; }),
          [v = link_Bps](LinkId l) { return v[static_cast<std::size_t>(l)]; }, flow_cap_Bps) {}

MaxMinSolver::MaxMinSolver(int link_count, const std::vector<CapacityRun>& runs,
                           std::function<double(LinkId)> link_Bps, double flow_cap_Bps)
    : capacity_(std::move(link_Bps)),
      flow_cap_(flow_cap_Bps > 0 ? flow_cap_Bps : std::numeric_limits<double>::infinity()) {
  record_of_.assign(static_cast<std::size_t>(link_count), kFree);
  // Each run's capacity is checked once, at its first link, and a run of the capacity last
  // checked passes again (neighbouring runs of equal capacity make one). (Asking the topology for
  // each of a million-endpoint network's 6 M links was 5% of the whole process's instructions.)
  // NaN equals nothing, and fails the check. Each run is kept (capacity_Bps), up to kMaxRuns.
  double checked = std::numeric_limits<double>::quiet_NaN();
  bool runs_kept = true;
  std::int64_t next = 0;  // where the next run starts
  for (const CapacityRun& run : runs) {
    SIMMPI_ASSERT(run.first == next && run.count >= 0,
                  "capacity run of %d links from link %d, after link %lld: the runs cover the "
                  "links in order",
                  run.count, run.first, static_cast<long long>(next) - 1);
    next += run.count;
    const LinkId l = run.first;
    const double c = run.Bps;
    if (run.count == 0 || c == checked) continue;
    SIMMPI_ASSERT(c > 0 && c <= kMaxCapacity,
                  "link %d has capacity %g B/s; capacities are in (0, %g]", l, c, kMaxCapacity);
    whole_kBps_ = whole_kBps_ && std::floor(c / kCapUnit) * kCapUnit == c;
    checked = c;
    if (runs_kept && run_Bps_.size() == kMaxRuns) runs_kept = false;
    if (runs_kept) {
      run_first_.push_back(l);
      run_Bps_.push_back(c);
    }
  }
  SIMMPI_ASSERT(next == link_count, "capacity runs cover %lld links of %d",
                static_cast<long long>(next), link_count);
  if (!runs_kept) {
    run_first_.clear();
    run_Bps_.clear();
  }
  // The cap of a flow alone is one of these or the flow cap; ceil(cap / kCapUnit) is then exact
  // and at most every floor on its route.
  if (flow_cap_ != std::numeric_limits<double>::infinity())
    whole_kBps_ = whole_kBps_ && std::floor(flow_cap_ / kCapUnit) * kCapUnit == flow_cap_;
}

void MaxMinSolver::copy_route(FlowId f, std::vector<LinkId>& out) const {
  out.clear();
  const Hop* h = hops(f);
  for (int i = 0; i < flows_[static_cast<std::size_t>(f)].hop_count; ++i)
    out.push_back(links_[static_cast<std::size_t>(h[i])].id);
}

MaxMinSolver::LinkRecord MaxMinSolver::open_record(LinkId l) {
  LinkRecord& r = record_of_[static_cast<std::size_t>(l)];
  if (r >= 0) return r;
  if (!free_records_.empty()) {
    r = free_records_.back();
    free_records_.pop_back();
  } else {
    r = static_cast<LinkRecord>(links_.size());
    links_.emplace_back();
    levels_.emplace_back();
  }
  Link& k = link(r);
  k = Link{};
  k.capacity = capacity_Bps(l);
  k.cap_floor = static_cast<std::int64_t>(std::floor(k.capacity / kCapUnit));
  k.id = l;
  // (Its level is left as it was: the checks read a link's level only while flows have the link
  // as bottleneck, and commit() writes it before the first of them does. Clearing it here was a
  // write miss at almost every record opened at a million endpoints.)
  return r;
}

std::int64_t MaxMinSolver::cap_units(const Flow& x) {
  return static_cast<std::int64_t>(std::ceil(x.cap / kCapUnit));
}

FlowId MaxMinSolver::allocate_flow(int hop_count) {
  FlowId f;
  if (!free_.empty()) {
    f = free_.back();
    free_.pop_back();
  } else {
    f = static_cast<FlowId>(flows_.size());
    flows_.emplace_back();
  }
  if (hop_count > kInlineHops) {
    SIMMPI_ASSERT(hop_count <= INT16_MAX, "a flow crosses %d links", hop_count);
    long_hops_.reserve(flows_.size(), static_cast<std::size_t>(hop_count));
    max_hops_ = std::max(max_hops_, static_cast<std::size_t>(hop_count));
  }
  return f;
}

// Commits a rate and bottleneck, keeping the links' sums, bounds and bottleneck counts.
void MaxMinSolver::set_rate(FlowId f, double rate, LinkRecord bottleneck) {
  Flow& x = flow(f);
  if (rate != x.rate) {
    const Hop* h = hops(f);
    for (int i = 0; i < x.hop_count; ++i) {
      Link& k = link(h[i]);
      k.rate_sum += rate - x.rate;
      k.max_bound = std::max(k.max_bound, rate);
    }
  }
  x.rate = rate;
  if (bottleneck == x.bottleneck) return;
  if (x.bottleneck != kAtCap) --link(x.bottleneck).bottlenecked;
  if (bottleneck != kAtCap) ++link(bottleneck).bottlenecked;
  x.bottleneck = bottleneck;
}

bool MaxMinSolver::is_slack_alone_rounded(const LinkId* links, int count) const {
  double cap = flow_cap_;
  for (int i = 0; i < count; ++i) cap = std::min(cap, capacity_Bps(links[i]));
  const auto units = static_cast<std::int64_t>(std::ceil(cap / kCapUnit));
  for (int i = 0; i < count; ++i)
    if (units > static_cast<std::int64_t>(std::floor(capacity_Bps(links[i]) / kCapUnit)))
      return false;
  return true;
}

FlowId MaxMinSolver::add_flow(const LinkId* links, int count) {
  SIMMPI_ASSERT(count > 0, "a flow crosses at least one link (got %d)", count);
  FlowId f = allocate_flow(count);
  Flow& x = flow(f);
  x = Flow{};
  x.hop_count = static_cast<std::int16_t>(count);
  x.alive = true;
  Hop* h = hops(f);
  // The links' records first, all asked for before any is read: each is a miss of its own.
  for (int i = 0; i < count; ++i) {
    h[i] = open_record(links[i]);
    __builtin_prefetch(&link(h[i]));
  }
  double cap = flow_cap_;  // alone: its narrowest link, or the flow cap
  for (int i = 0; i < count; ++i) cap = std::min(cap, link(h[i]).capacity);
  x.cap = cap;
  const std::int64_t units = cap_units(x);
  bool slack = true;
  for (int i = 0; i < count; ++i) {
    Link& k = link(h[i]);
    flows_on_.push_back(k.flows, LinkEntry{f, i});
    k.cap_sum += units;
    slack = slack && !is_tight(k);
  }
  ++active_;
  // All links slack: nothing it meets can saturate, so it runs at its cap and changes nobody.
  if (slack)
    set_rate(f, cap, kAtCap);
  else
    seed_flows_.push_back(f);
  return f;
}

void MaxMinSolver::remove_flow(FlowId f) {
  Flow& x = flow(f);
  SIMMPI_ASSERT(x.alive, "flow %d removed twice", f);
  const Hop* h = hops(f);
  saturated_.resize(static_cast<std::size_t>(x.hop_count));
  // (Each link's list cells load meanwhile: at a million endpoints a miss per hop that would
  // otherwise come only once the loop below reaches the link.)
  for (int i = 0; i < x.hop_count; ++i) {
    saturated_[static_cast<std::size_t>(i)] = is_saturated(h[i]);
    flows_on_.prefetch(link(h[i]).flows);
  }
  set_rate(f, 0.0, kAtCap);
  const std::int64_t units = cap_units(x);
  for (int i = 0; i < x.hop_count; ++i) {
    Link& k = link(h[i]);
    // Flows limited by a saturated link may speed up once this one leaves it. (Checked before
    // the rates drop: a link that was not saturated limited nobody.)
    if (saturated_[static_cast<std::size_t>(i)]) seed_links_.push_back(k.id);
    flows_on_.erase(k.flows, LinkEntry{f, i});
    k.cap_sum -= units;
    if (k.flows.size == 0) {  // its record goes: one opened afresh has sums and bounds 0 exactly
      SIMMPI_ASSERT(k.bottlenecked == 0 && k.cap_sum == 0, "link %d emptied with state left", k.id);
      record_of_[static_cast<std::size_t>(k.id)] = kFree;
      free_records_.push_back(h[i]);
    }
  }
  x.alive = false;
  --active_;
  free_.push_back(f);
}

void MaxMinSolver::add_to_region(FlowId f) {
  Flow& x = flow(f);
  if (x.region == solve_) return;
  x.region = solve_;
  region_.push_back(f);
}

bool MaxMinSolver::is_saturated(LinkRecord r) const {
  const Link& k = links_[static_cast<std::size_t>(r)];
  return is_tight(k) && k.rate_sum >= k.capacity * (1 - kTolerance);
}

// A new flow competes for the saturated links of its route; on its other links it takes what is
// left, and the optimality checks bring in anyone that turns out to matter.
void MaxMinSolver::add_saturated_neighbours(FlowId f) {
  const Hop* h = hops(f);
  for (int i = 0; i < flow(f).hop_count; ++i)
    if (is_saturated(h[i]))
      for (const LinkEntry& e : flows_of(h[i])) add_to_region(e.flow);
}

void MaxMinSolver::add_tight_neighbours(FlowId f) {
  const Hop* h = hops(f);
  for (int i = 0; i < flow(f).hop_count; ++i)
    if (is_tight(h[i]))
      for (const LinkEntry& e : flows_of(h[i])) add_to_region(e.flow);
}

// The flows a change reaches first: those on the saturated links a departure left, the new
// flows, and whoever shares a saturated link with a new flow.
void MaxMinSolver::seed_region() {
  region_.clear();
  for (LinkId l : seed_links_)
    if (const LinkRecord r = record_of_[static_cast<std::size_t>(l)]; r >= 0)
      for (const LinkEntry& e : flows_of(r)) add_to_region(e.flow);
  for (FlowId f : seed_flows_) {
    if (!flow(f).alive) continue;
    add_to_region(f);
    add_saturated_neighbours(f);
  }
  seed_flows_.clear();
  seed_links_.clear();
}

// Grows the region to its whole component: every flow joined to it through tight links.
void MaxMinSolver::close_region() {
  for (std::size_t i = 0; i < region_.size(); ++i) add_tight_neighbours(region_[i]);
}

const std::vector<FlowId>& MaxMinSolver::solve() {
  changed_.clear();
  if (!has_pending()) return changed_;
  start_solve();
  seed_region();
  bool whole = false;
  for (int round = 0;; ++round) {
    if (!whole && round == kMaxRounds) {
      close_region();
      whole = true;
      ++component_solves_;
    }
    ++rounds_;
    fill_region();
    if (whole || !grow_region()) break;
  }
  ++solves_;
  solved_flows_ += region_.size();
  commit();
  return changed_;
}

void MaxMinSolver::commit() {
  for (std::size_t r = 0; r < region_.size(); ++r) {
    FlowId f = region_[r];
    const Member& m = members_[r];
    bool moved = m.new_rate != flow(f).rate;
    LinkRecord bottleneck = kAtCap;
    if (m.limit != kNoSlot) {
      bottleneck = local_[static_cast<std::size_t>(m.limit)].record;
      levels_[static_cast<std::size_t>(bottleneck)] = m.new_rate;
    }
    set_rate(f, m.new_rate, bottleneck);
    if (moved) changed_.push_back(f);
  }
}

void MaxMinSolver::start_solve() {
  ++solve_;
  local_.clear();
  members_.clear();
  on_link_.clear();
}

// local_ := the tight links of the region's flows. Each offers the region its capacity less
// what the flows outside the region take (all of it when no flow is outside). A flow that joined
// since the last round records the slots of its tight links, and joins their member lists,
// counts and committed sums (in region order, as a pass over the whole region would), so that
// filling never looks at a route or at the links.
void MaxMinSolver::mark_links() {
  if (slots_.size() < region_.size() * max_hops_) slots_.resize(region_.size() * max_hops_);
  // The new members' entries, then their links, asked for all at once: at a million endpoints
  // each is a miss, and the loop below branches on every link.
  for (std::size_t r = members_.size(); r < region_.size(); ++r) prefetch_flow(region_[r]);
  for (std::size_t r = members_.size(); r < region_.size(); ++r) {
    const Hop* h = hops(region_[r]);
    for (int i = 0; i < flow(region_[r]).hop_count; ++i) __builtin_prefetch(&link(h[i]));
  }
  for (std::size_t r = members_.size(); r < region_.size(); ++r) {
    const Flow& x = flow(region_[r]);
    const Hop* h = hops(region_[r]);
    std::int32_t* sl = slots(r);
    std::int32_t tight = 0;
    for (int i = 0; i < x.hop_count; ++i) {
      const LinkRecord l = h[i];
      Link& k = link(l);
      if (!is_tight(k)) continue;
      if (static_cast<std::size_t>(k.slot) >= local_.size() ||
          local_[static_cast<std::size_t>(k.slot)].record != l) {
        k.slot = static_cast<std::int32_t>(local_.size());
        Local& n = local_.emplace_back();
        n.link = k.id;
        n.record = l;
      }
      Local& s = local_[static_cast<std::size_t>(k.slot)];
      auto entry = static_cast<std::int32_t>(on_link_.size());
      on_link_.push_back(OnLink{static_cast<std::int32_t>(r), -1});
      (s.last < 0 ? s.first : on_link_[static_cast<std::size_t>(s.last)].next) = entry;
      s.last = entry;
      ++s.size;
      s.old_sum += x.rate;
      s.old_b += x.bottleneck == l;
      sl[tight++] = k.slot;
    }
    members_.push_back(Member{x.cap, 0, kNoSlot, tight, false});
  }
  open_.clear();
  for (Local& s : local_) {
    const Link& k = link(s.record);
    s.checked = false;
    s.new_sum = s.new_max = 0;
    s.cnt = s.size;
    bool alone = static_cast<std::uint32_t>(s.size) == k.flows.size;
    s.rem = alone ? k.capacity : std::max(0.0, k.capacity - (k.rate_sum - s.old_sum));
    s.open = static_cast<std::int32_t>(open_.size());
    open_.push_back(Open{s.rem / s.cnt, static_cast<std::int32_t>(&s - local_.data())});
  }
  for (Member& m : members_) m.frozen = false;
}

// The link has no unfrozen flow left: out of open_ (the last entry takes its place).
void MaxMinSolver::close(std::int32_t slot) {
  Local& s = local_[static_cast<std::size_t>(slot)];
  Open last = open_.back();
  open_[static_cast<std::size_t>(s.open)] = last;
  local_[static_cast<std::size_t>(last.slot)].open = s.open;
  open_.pop_back();
  s.open = -1;
}

void MaxMinSolver::freeze(std::size_t member, double rate, std::int32_t limit) {
  Member& x = members_[member];
  x.frozen = true;
  x.new_rate = rate;
  x.limit = limit;
  --unfrozen_;
  const std::int32_t* sl = slots(member);
  for (std::int32_t i = 0; i < x.tight; ++i) {
    Local& s = local_[static_cast<std::size_t>(sl[i])];
    s.new_sum += rate;
    s.new_max = std::max(s.new_max, rate);
    if (s.cnt == 0) continue;  // saturated already
    s.rem -= rate;
    if (--s.cnt == 0) {
      close(sl[i]);
      continue;
    }
    open_[static_cast<std::size_t>(s.open)].share = s.rem / s.cnt;
    if (use_heap_) push_level(sl[i]);
  }
}

void MaxMinSolver::push_level(std::int32_t slot) {
  const Local& s = local_[static_cast<std::size_t>(slot)];
  heap_.push_back(LevelEntry{open_[static_cast<std::size_t>(s.open)].share, s.link, slot, s.cnt});
  std::push_heap(heap_.begin(), heap_.end(), LevelOrder{});
}

// The region link with unfrozen flows and the lowest fair share rem/cnt (ties: lowest link id),
// or nullptr. A few links are scanned (they sit together in local_); many are kept in a heap of
// shares, whose stale entries (cnt moved on since) are dropped here.
MaxMinSolver::Local* MaxMinSolver::lowest_share(double* level) {
  if (use_heap_) {
    while (!heap_.empty() &&
           heap_.front().count != local_[static_cast<std::size_t>(heap_.front().slot)].cnt) {
      std::pop_heap(heap_.begin(), heap_.end(), LevelOrder{});
      heap_.pop_back();
    }
    if (heap_.empty()) {
      *level = std::numeric_limits<double>::infinity();
      return nullptr;
    }
    *level = heap_.front().level;
    return &local_[static_cast<std::size_t>(heap_.front().slot)];
  }
  if (open_.empty()) {
    *level = std::numeric_limits<double>::infinity();
    return nullptr;
  }
  const Open* best = &open_.front();
  for (const Open& o : open_)
    if (o.share < best->share ||
        (o.share == best->share && local_[static_cast<std::size_t>(o.slot)].link <
                                       local_[static_cast<std::size_t>(best->slot)].link))
      best = &o;
  *level = best->share;
  return &local_[static_cast<std::size_t>(best->slot)];
}

// Progressive filling of the region. The common level rises from 0; the next event is either
// the lowest link fair share rem/cnt (the link saturates: its unfrozen region flows freeze at
// that level) or the lowest unfrozen cap (that flow freezes at its cap). Levels never decrease
// (a flow frozen below a link's share leaves that link more per remaining flow), which also
// absorbs rounding.
void MaxMinSolver::start_filling() {
  use_heap_ = local_.size() > kScanLinks;
  heap_.clear();
  if (use_heap_) {
    for (const Open& o : open_)
      heap_.push_back(LevelEntry{o.share, local_[static_cast<std::size_t>(o.slot)].link, o.slot,
                                 local_[static_cast<std::size_t>(o.slot)].cnt});
    std::make_heap(heap_.begin(), heap_.end(), LevelOrder{});
  }
  // Members in order of cap (ties: flow id). In the usual network every cap is equal: the order
  // is the region's, and order_ stays empty.
  order_.clear();
  auto cap_of = [this](std::int32_t r) { return members_[static_cast<std::size_t>(r)].cap; };
  bool uniform = std::all_of(members_.begin(), members_.end(),
                             [&](const Member& m) { return m.cap == members_.front().cap; });
  if (!uniform) {
    for (std::size_t r = 0; r < members_.size(); ++r)
      order_.push_back(static_cast<std::int32_t>(r));
    std::sort(order_.begin(), order_.end(), [&](std::int32_t a, std::int32_t b) {
      return cap_of(a) != cap_of(b)
                 ? cap_of(a) < cap_of(b)
                 : region_[static_cast<std::size_t>(a)] < region_[static_cast<std::size_t>(b)];
    });
  }
  unfrozen_ = members_.size();
}

void MaxMinSolver::fill_region() {
  mark_links();
  start_filling();
  auto by_cap = [&](std::size_t i) {
    return order_.empty() ? i : static_cast<std::size_t>(order_[i]);
  };
  double floor_level = 0;
  std::size_t next_cap = 0;
  while (unfrozen_ > 0) {
    double share;
    Local* low = lowest_share(&share);
    while (members_[by_cap(next_cap)].frozen) ++next_cap;
    std::size_t capped = by_cap(next_cap);
    double link_level = std::max(share, floor_level);
    double cap_level = members_[capped].cap;
    if (cap_level <= link_level) {
      freeze(capped, cap_level, kNoSlot);
      floor_level = std::max(floor_level, cap_level);
      continue;
    }
    if (use_heap_) {
      std::pop_heap(heap_.begin(), heap_.end(), LevelOrder{});
      heap_.pop_back();
    }
    floor_level = link_level;
    low->cnt = 0;
    auto slot = static_cast<std::int32_t>(low - local_.data());
    close(slot);
    for (std::int32_t i = low->first; i >= 0; i = on_link_[static_cast<std::size_t>(i)].next) {
      auto r = static_cast<std::size_t>(on_link_[static_cast<std::size_t>(i)].member);
      if (!members_[r].frozen) freeze(r, link_level, slot);
    }
  }
}

// (B) Outside flows whose bottleneck is this link (there are some) keep it only if the link stays
// saturated and no region flow on it now gets more than they do; otherwise they join the region.
void MaxMinSolver::check_outside_bottlenecks(const Local& s) {
  const Link& k = link(s.record);
  double sum = k.rate_sum - s.old_sum + s.new_sum;
  if (sum >= k.capacity * (1 - kTolerance) &&
      s.new_max <= levels_[static_cast<std::size_t>(s.record)] * (1 + kTolerance))
    return;
  for (const LinkEntry& e : flows_of(s.record))
    if (!in_region(e.flow) && flow(e.flow).bottleneck == s.record) culprits_.push_back(e.flow);
}

// (A) Region flows frozen by `l` at `level` keep it as bottleneck only if no outside flow on it
// gets more; those that do join the region.
void MaxMinSolver::check_region_bottleneck(Local& s, double level) {
  Link& k = link(s.record);
  s.checked = true;
  if (static_cast<std::uint32_t>(s.size) == k.flows.size) return;
  if (k.max_bound <= level * (1 + kTolerance)) return;
  double max = 0;
  for (const LinkEntry& e : flows_of(s.record)) {
    double r = flow(e.flow).rate;
    max = std::max(max, r);
    if (!in_region(e.flow) && r > level * (1 + kTolerance)) culprits_.push_back(e.flow);
  }
  k.max_bound = max;  // the committed rates' maximum, exactly
}

// Checks the optimality conditions where the filling moved rates. True when flows joined the
// region, which must then be filled again. Flows whose bottleneck is elsewhere, or at their cap,
// keep it: their links did not change.
bool MaxMinSolver::grow_region() {
  culprits_.clear();
  for (const Local& s : local_)
    if (link(s.record).bottlenecked > s.old_b) check_outside_bottlenecks(s);
  for (const Member& m : members_) {
    if (m.limit == kNoSlot) continue;
    Local& s = local_[static_cast<std::size_t>(m.limit)];
    if (!s.checked) check_region_bottleneck(s, m.new_rate);
  }
  std::size_t before = region_.size();
  for (FlowId f : culprits_) add_to_region(f);
  return region_.size() > before;
}

}  // namespace simmpi::hardware
