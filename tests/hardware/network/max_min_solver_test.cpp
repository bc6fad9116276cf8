// SPDX-License-Identifier: Apache-2.0
#include "hardware/network/max_min_solver.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "hardware/seeded_random.hpp"

namespace simmpi::hardware {
namespace {

FlowId add(MaxMinSolver& s, std::vector<LinkId> links) {
  return s.add_flow(links.data(), static_cast<int>(links.size()));
}

// Textbook progressive filling over every flow at once, for comparison with the incremental
// solver: raise all unfrozen flows together to the next level at which a link fills up or a flow
// reaches its cap, and freeze the flows of every link (or cap) reached at that level.
std::vector<double> reference_rates(const std::vector<double>& cap_Bps,
                                    const std::vector<std::vector<LinkId>>& flows,
                                    double flow_cap) {
  std::size_t n = flows.size(), links = cap_Bps.size();
  std::vector<double> rate(n, 0), fcap(n, flow_cap > 0 ? flow_cap : 1e300);
  std::vector<bool> frozen(n, false);
  std::vector<std::vector<std::size_t>> on(links);
  for (std::size_t f = 0; f < n; ++f)
    for (LinkId l : flows[f]) {
      on[static_cast<std::size_t>(l)].push_back(f);
      fcap[f] = std::min(fcap[f], cap_Bps[static_cast<std::size_t>(l)]);
    }
  auto share = [&](std::size_t l) {  // fair share of link l's unfrozen flows, or +inf
    double used = 0;
    int active = 0;
    for (std::size_t f : on[l]) frozen[f] ? used += rate[f] : ++active;
    return active ? (cap_Bps[l] - used) / active : std::numeric_limits<double>::infinity();
  };
  for (std::size_t left = n; left > 0;) {
    double level = std::numeric_limits<double>::infinity();
    for (std::size_t f = 0; f < n; ++f)
      if (!frozen[f]) level = std::min(level, fcap[f]);
    std::vector<double> shares(links);
    for (std::size_t l = 0; l < links; ++l) level = std::min(level, shares[l] = share(l));
    for (std::size_t f = 0; f < n; ++f) {
      if (frozen[f]) continue;
      bool reached = fcap[f] <= level * (1 + 1e-12);
      for (LinkId l : flows[f])
        reached |= shares[static_cast<std::size_t>(l)] <= level * (1 + 1e-12);
      if (reached) rate[f] = level, frozen[f] = true, --left;
    }
  }
  return rate;
}

}  // namespace

TEST(MaxMinSolver, LoneFlowGetsTheSlowestLinkOfItsRoute) {
  MaxMinSolver s({10e9, 4e9, 10e9}, 0);
  FlowId f = add(s, {0, 1, 2});
  EXPECT_EQ(s.rate_Bps(f), 4e9) << "a lone flow is settled at once, at its bottleneck";
  EXPECT_FALSE(s.has_pending());
}

TEST(MaxMinSolver, NFlowsOnOneLinkGetOneNthEach) {
  for (int n = 1; n <= 7; ++n) {
    MaxMinSolver s({12.5e9}, 0);
    std::vector<FlowId> f;
    for (int i = 0; i < n; ++i) f.push_back(add(s, {0}));
    s.solve();
    for (FlowId x : f) EXPECT_EQ(s.rate_Bps(x), 12.5e9 / n) << n << " flows";
  }
}

// Three links A (capacity 1), B (2), C (3); flows f0: A,B; f1: A; f2: B,C; f3: B; f4: C.
// Progressive filling: A fills first at 1/2 (f0, f1 frozen at 0.5); B has 2 - 0.5 = 1.5 left
// for f2, f3: 0.75 each; C then has 3 - 0.75 = 2.25 for f4 alone.
TEST(MaxMinSolver, ThreeLinkTextbookExample) {
  MaxMinSolver s({1.0, 2.0, 3.0}, 0);
  FlowId f0 = add(s, {0, 1}), f1 = add(s, {0}), f2 = add(s, {1, 2}), f3 = add(s, {1}),
         f4 = add(s, {2});
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate_Bps(f0), 0.5);
  EXPECT_DOUBLE_EQ(s.rate_Bps(f1), 0.5);
  EXPECT_DOUBLE_EQ(s.rate_Bps(f2), 0.75);
  EXPECT_DOUBLE_EQ(s.rate_Bps(f3), 0.75);
  EXPECT_DOUBLE_EQ(s.rate_Bps(f4), 2.25);
}

TEST(MaxMinSolver, FlowCappedBySingleMessageMaximum) {
  // 2.9 GB/s links, 1.8 GB/s per message (the SST/macro measurement).
  MaxMinSolver s({2.9e9, 2.9e9}, 1.8e9);
  FlowId a = add(s, {0});
  EXPECT_EQ(s.rate_Bps(a), 1.8e9) << "alone, the cap binds, not the link";
  FlowId b = add(s, {0, 1});
  s.solve();
  EXPECT_EQ(s.rate_Bps(a), 1.45e9) << "two flows: the link binds at 2.9/2";
  EXPECT_EQ(s.rate_Bps(b), 1.45e9);
  s.remove_flow(a);
  s.solve();
  EXPECT_EQ(s.rate_Bps(b), 1.8e9) << "back to the cap when the other leaves";
}

TEST(MaxMinSolver, CappedFlowLeavesItsShareToOthers) {
  // Link of 10 shared by a flow whose route also crosses a link of 2, and two others: the slow
  // flow takes 2, the others split the remaining 8.
  MaxMinSolver s({10.0, 2.0}, 0);
  FlowId slow = add(s, {0, 1}), a = add(s, {0}), b = add(s, {0});
  s.solve();
  EXPECT_EQ(s.rate_Bps(slow), 2.0);
  EXPECT_EQ(s.rate_Bps(a), 4.0);
  EXPECT_EQ(s.rate_Bps(b), 4.0);
}

TEST(MaxMinSolver, SolveTouchesOnlyTheChangedComponent) {
  // Two separate pairs of flows; a change in one pair recomputes only that pair.
  MaxMinSolver s({1.0, 1.0}, 0);
  FlowId a0 = add(s, {0}), a1 = add(s, {0});
  FlowId b0 = add(s, {1}), b1 = add(s, {1});
  s.solve();
  EXPECT_EQ(s.last_solve_flows(), 4u);
  s.remove_flow(a1);
  std::vector<FlowId> changed = s.solve();
  EXPECT_EQ(s.last_solve_flows(), 1u) << "only a0 shares a link with the departed flow";
  EXPECT_EQ(changed, std::vector<FlowId>{a0});
  EXPECT_EQ(s.rate_Bps(a0), 1.0);
  EXPECT_EQ(s.rate_Bps(b0), 0.5);
  EXPECT_EQ(s.rate_Bps(b1), 0.5);
}

TEST(MaxMinSolver, SlackLinksDoNotCoupleFlows) {
  // Link 0 (10 GB/s) carries two flows capped at 3 GB/s each: 6 <= 10, it can never fill, so
  // the flows are independent and each is settled at its cap without a solve.
  MaxMinSolver s({10e9, 10e9, 10e9}, 3e9);
  FlowId a = add(s, {0, 1});
  FlowId b = add(s, {0, 2});
  EXPECT_FALSE(s.has_pending());
  EXPECT_EQ(s.rate_Bps(a), 3e9);
  EXPECT_EQ(s.rate_Bps(b), 3e9);
}

TEST(MaxMinSolver, EveryLinksCapacityIsChecked) {
  // Runs of equal capacities are checked once; a bad one anywhere, after good ones or first, is
  // named.
  EXPECT_DEATH(MaxMinSolver({1e9, 1e9, 0.0, 1e9}, 0), "link 2 has capacity 0 B/s");
  EXPECT_DEATH(MaxMinSolver({2e15, 1e9}, 0), "link 0 has capacity 2e\\+15 B/s");
  EXPECT_DEATH(MaxMinSolver({1e9, std::nan("")}, 0), "link 1 has capacity nan B/s");
  EXPECT_DEATH(MaxMinSolver({0.0, 1e9}, 0), "link 0 has capacity 0 B/s");
}

TEST(MaxMinSolver, CapacitiesAreTheFunctionsWhateverTheirRuns) {
  // One run, a few runs (kept and searched), and more runs than are kept (the function asked).
  const std::vector<std::vector<double>> networks = {
      std::vector<double>(5, 4e9), {1e9, 1e9, 2e9, 2e9, 2e9, 1e9, 3e9}, [] {
        std::vector<double> v;
        for (int l = 0; l < 300; ++l) v.push_back(1e9 * (1 + l % 3));
        return v;
      }()};
  for (const std::vector<double>& cap : networks) {
    int asked = 0;
    const std::function<double(LinkId)> link_Bps = [&](LinkId l) {
      ++asked;
      return cap[static_cast<std::size_t>(l)];
    };
    const int n = static_cast<int>(cap.size());
    MaxMinSolver s(n, capacity_runs_of(n, link_Bps), link_Bps, 0);
    asked = 0;
    for (LinkId l = 0; l < static_cast<LinkId>(cap.size()); ++l)
      EXPECT_EQ(s.capacity_Bps(l), cap[static_cast<std::size_t>(l)]) << cap.size() << " links";
    EXPECT_EQ(asked, cap.size() == 300 ? 300 : 0) << cap.size() << " links";
  }
}

TEST(MaxMinSolver, IncrementalSolvesMatchAFullRecomputation) {
  // 40 links of varied capacity, routes of 1-4 random links (and of 1-12, past the hops a flow
  // keeps in its own entry), random arrivals and departures; after each batch the incremental
  // rates equal a from-scratch progressive filling, and every flow still has its route.
  const int kLinks = 40;
  std::vector<double> cap(kLinks);
  for (int l = 0; l < kLinks; ++l) cap[static_cast<std::size_t>(l)] = 1e9 * (1.0 + l % 5);
  for (auto [flow_cap, max_len] : {std::pair{0.0, 4}, std::pair{0.7e9, 4}, std::pair{0.0, 12}}) {
    MaxMinSolver s(cap, flow_cap);
    std::vector<std::pair<FlowId, std::vector<LinkId>>> live;
    std::uint64_t r = 42;
    for (int step = 0; step < 600; ++step) {
      r = mix64(r);
      if (live.size() > 5 && (r % 3 == 0 || live.size() > 80)) {
        std::size_t victim = below(mix64(r, 1), live.size());
        s.remove_flow(live[victim].first);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(victim));
      } else {
        std::vector<LinkId> route;
        int len = 1 + static_cast<int>(below(mix64(r, 2), static_cast<std::uint64_t>(max_len)));
        for (int i = 0; i < len; ++i) {
          auto l = static_cast<LinkId>(below(mix64(r, 3 + static_cast<std::uint64_t>(i)), kLinks));
          if (std::find(route.begin(), route.end(), l) == route.end()) route.push_back(l);
        }
        live.emplace_back(add(s, route), route);
      }
      if (r % 4 == 0) continue;  // sometimes batch two changes into one solve
      s.solve();
      std::vector<std::vector<LinkId>> routes;
      for (auto& [id, route] : live) routes.push_back(route);
      std::vector<double> want = reference_rates(cap, routes, flow_cap);
      std::vector<LinkId> kept;
      for (std::size_t i = 0; i < live.size(); ++i) {
        ASSERT_NEAR(s.rate_Bps(live[i].first), want[i], 1e-9 * want[i])
            << "step " << step << " flow " << i << " flow_cap " << flow_cap << " routes of up to "
            << max_len;
        s.copy_route(live[i].first, kept);
        ASSERT_EQ(kept, live[i].second) << "step " << step << " flow " << i;
      }
    }
    EXPECT_GT(s.rounds(), s.solves()) << "some solves had to grow their region";
  }
}

}  // namespace simmpi::hardware
