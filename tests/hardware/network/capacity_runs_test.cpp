// SPDX-License-Identifier: Apache-2.0
// Each topology's capacity runs against its per-link answers, link by link, and the solver's
// checks of the runs it is given.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "hardware/network/crossbar.hpp"
#include "hardware/network/dragonfly.hpp"
#include "hardware/network/fat_tree.hpp"
#include "hardware/network/max_min_solver.hpp"
#include "hardware/network/topology.hpp"
#include "hardware/network/torus.hpp"
#include "hardware/storage/storage_topology.hpp"

namespace simmpi::hardware {
namespace {

// The runs cover the links in order, every link's capacity is its run's, and there are
// `expected_runs` non-empty runs (a topology answering from its shape, not link by link).
void expect_runs_match_links(const Topology& t, std::size_t expected_runs) {
  const std::vector<CapacityRun> runs = t.capacity_runs();
  std::int64_t next = 0;
  std::size_t non_empty = 0;
  for (const CapacityRun& run : runs) {
    ASSERT_EQ(run.first, next) << "runs follow each other";
    ASSERT_GE(run.count, 0);
    if (run.count > 0) ++non_empty;
    for (LinkId l = run.first; l < run.first + run.count; ++l)
      ASSERT_EQ(t.link_bw_Bps(l), run.Bps) << "link " << l << " (" << t.link_name(l) << ")";
    next += run.count;
  }
  EXPECT_EQ(next, t.link_count()) << "runs end at the last link";
  EXPECT_EQ(non_empty, expected_runs);
}

TEST(CapacityRuns, FatTreeLevelsOfDifferentBandwidths) {
  FatTree two({{4, 4}, {1, 4}, {1, 1}, {12.5e9, 25e9}}, FatTree::Routing::DModK);
  expect_runs_match_links(two, 2);
  // Tapered, parallel links, three bandwidths (and a capacity not a whole number of kB/s).
  FatTree three({{4, 3, 2}, {1, 2, 3}, {2, 1, 2}, {1e9, 2.5e9 + 0.5, 3e9}},
                FatTree::Routing::Random);
  expect_runs_match_links(three, 3);
  FatTree equal({{3, 3, 3}, {1, 3, 3}, {1, 1, 1}, {1e9, 1e9, 1e9}}, FatTree::Routing::DModK);
  expect_runs_match_links(equal, 3);  // one per level, equal neighbours allowed
}

TEST(CapacityRuns, DragonflyTerminalLocalGlobal) {
  DragonflyShape s;
  s.a = 4, s.p = 2, s.h = 2, s.g = 9;
  s.terminal_Bps = 1e9, s.local_Bps = 2e9, s.global_Bps = 3e9;
  expect_runs_match_links(Dragonfly(s, Dragonfly::Routing::Ugal), 3);
  s.g = 5;  // fewer groups than ports: unused global ports are links too
  expect_runs_match_links(Dragonfly(s, Dragonfly::Routing::Minimal), 3);
  s.a = 1, s.h = 3, s.g = 4;  // one router a group: no local links
  expect_runs_match_links(Dragonfly(s, Dragonfly::Routing::Valiant), 2);
  s.a = 3, s.h = 0, s.g = 1;  // one group: no global links
  expect_runs_match_links(Dragonfly(s, Dragonfly::Routing::Minimal), 2);
}

TEST(CapacityRuns, TorusAndCrossbar) {
  expect_runs_match_links(Torus({{3, 4}, true, 1, 5e9}), 1);
  expect_runs_match_links(Torus({{2, 2, 2}, false, 2, 5e9}), 1);
  expect_runs_match_links(Crossbar(5, 7e9), 1);
}

TEST(CapacityRuns, StorageServersAfterTheBaseLinks) {
  auto base = std::make_unique<FatTree>(FatTreeShape{{4, 2}, {1, 2}, {1, 1}, {1e9, 2e9}},
                                        FatTree::Routing::DModK);
  StorageTopology t(std::move(base), {3e9, 4e9, 4e9});
  expect_runs_match_links(t, 5);
}

// A topology that gives only per-link capacities gets the default: maximal runs of equal ones.
class PerLinkOnly final : public Topology {
 public:
  int node_count() const override { return 2; }
  int link_count() const override { return static_cast<int>(bw_.size()); }
  double link_bw_Bps(LinkId l) const override { return bw_[static_cast<std::size_t>(l)]; }
  std::string link_name(LinkId l) const override { return "l" + std::to_string(l); }
  void route(int, int, const RouteContext&, std::vector<LinkId>&) const override {}

 private:
  std::vector<double> bw_{1e9, 1e9, 2e9, 1e9, 1e9, 1e9};
};

TEST(CapacityRuns, DefaultAsksEveryLink) {
  PerLinkOnly t;
  expect_runs_match_links(t, 3);
  const std::vector<CapacityRun> runs = t.capacity_runs();
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[1].first, 2);
  EXPECT_EQ(runs[1].count, 1);
  EXPECT_EQ(runs[2].count, 3);
}

TEST(CapacityRuns, SolverAnswersFromTheRuns) {
  // Equal neighbouring runs and an empty one; the per-link function is never needed.
  const std::vector<CapacityRun> runs{{0, 2, 1e9}, {2, 0, 5e9}, {2, 3, 1e9}, {5, 1, 2e9}};
  MaxMinSolver s(
      6, runs, [](LinkId) -> double { std::abort(); }, 0);
  for (LinkId l = 0; l < 5; ++l) EXPECT_EQ(s.capacity_Bps(l), 1e9) << l;
  EXPECT_EQ(s.capacity_Bps(5), 2e9);
}

TEST(CapacityRunsDeathTest, SolverChecksTheRuns) {
  auto none = [](LinkId) { return 1e9; };
  EXPECT_DEATH(MaxMinSolver(4, {{0, 2, 1e9}, {3, 1, 1e9}}, none, 0),
               "capacity run of 1 links from link 3, after link 1");
  EXPECT_DEATH(MaxMinSolver(4, {{0, 3, 1e9}}, none, 0), "capacity runs cover 3 links of 4");
  EXPECT_DEATH(MaxMinSolver(4, {{0, 2, 1e9}, {2, 2, 0.0}}, none, 0), "link 2 has capacity 0 B/s");
}

}  // namespace
}  // namespace simmpi::hardware
