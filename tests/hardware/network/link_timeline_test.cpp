// SPDX-License-Identifier: Apache-2.0
#include "hardware/network/link_timeline.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace simmpi::hardware {
namespace {

using runtime::SimTime;

double total(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0);
}

TEST(LinkTimeline, BytesAreSpreadOverTheBinsTheyOverlap) {
  LinkTimeline t(3);
  LinkId links[] = {0, 2};
  // 1,000 bytes from 5 ns to 25 ns: bins of 10 ns get 250, 500, 250.
  t.carried(links, 2, 1000, SimTime::from_ps(5'000), SimTime::from_ps(25'000));
  EXPECT_EQ(t.bin_width().ps(), 10'000);
  for (LinkId l : links) {
    EXPECT_DOUBLE_EQ(t.bins(l)[0], 250);
    EXPECT_DOUBLE_EQ(t.bins(l)[1], 500);
    EXPECT_DOUBLE_EQ(t.bins(l)[2], 250);
  }
  EXPECT_TRUE(t.bins(1).empty());  // a link that carried nothing costs nothing
}

TEST(LinkTimeline, BinsWidenAndKeepEveryByte) {
  LinkTimeline t(1);
  LinkId link = 0;
  t.carried(&link, 1, 300, SimTime::from_ps(0), SimTime::from_ps(30'000));
  // Far beyond 256 bins of 10 ns: the bins double until one run fits, merging neighbours.
  t.carried(&link, 1, 700, SimTime::from_ps(1'000'000), SimTime::from_ps(9'000'000));
  EXPECT_EQ(t.bin_width().ps(), 40'000);  // 256 x 40 ns > 9 us
  EXPECT_DOUBLE_EQ(total(t.bins(0)), 1000);
  EXPECT_DOUBLE_EQ(t.bins(0)[0], 300);
}

TEST(LinkTimeline, AnInstantCountsInItsBin) {
  LinkTimeline t(1);
  LinkId link = 0;
  t.carried(&link, 1, 64, SimTime::from_ps(15'000), SimTime::from_ps(15'000));
  EXPECT_DOUBLE_EQ(t.bins(0)[1], 64);
}

}  // namespace
}  // namespace simmpi::hardware
