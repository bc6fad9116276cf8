// SPDX-License-Identifier: Apache-2.0
// The compute trap's rule on figures of known runs: CPU that went to the network's solver is not
// blamed on the ranks.
#include "runtime/host_time/uncharged_compute.hpp"

#include <gtest/gtest.h>

namespace simmpi::runtime {
namespace {

TEST(UnchargedCompute, RanksThatComputedAreNamed) {
  // 5 ms of spinning per iteration, 100 iterations, 2 ranks, a few hundred events.
  EXPECT_DOUBLE_EQ(uncharged_us_per_event({1.0, 0.0, 400}), 2500.0);
}

TEST(UnchargedCompute, TheSolversCpuIsNotTheRanks) {
  // 2.4 s of CPU for 40,000 events is 60 us an event, but 2.0 s of it was solving: 10 us an event
  // is the simulator's own work.
  EXPECT_EQ(uncharged_us_per_event({2.4, 2.0, 40000}), 0.0);
  // The same run had its ranks computed another 2 s: 60 us an event outside the solver.
  EXPECT_DOUBLE_EQ(uncharged_us_per_event({4.4, 2.0, 40000}), 60.0);
}

TEST(UnchargedCompute, ShortOrCheapRunsAreNotNamed) {
  EXPECT_EQ(uncharged_us_per_event({0.4, 0.0, 10}), 0.0);       // under 0.5 s
  EXPECT_EQ(uncharged_us_per_event({3.0, 0.0, 1000000}), 0.0);  // 3 us an event
  EXPECT_EQ(uncharged_us_per_event({3.0, 2.7, 100}), 0.0);      // 0.3 s outside the solver
}

}  // namespace
}  // namespace simmpi::runtime
