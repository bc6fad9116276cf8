// SPDX-License-Identifier: Apache-2.0
// simmpi-traffic's calendar of generations gives them back earliest first (ties by source),
// whatever bucket they were added to and while new ones arrive, as a sorted list would.
#include "tools/traffic/generation_calendar.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace simmpi::traffic {
namespace {

TEST(GenerationCalendar, GivesTheEarliestFirstWhileGenerationsArrive) {
  const std::int64_t end = 1000000;
  GenerationCalendar calendar(end, 5000, 15000);  // a few buckets, a thousand generations each
  std::set<std::pair<std::int64_t, std::int32_t>> reference;
  std::mt19937_64 random(7);
  for (std::int32_t src = 0; src < 5000; ++src) {
    const auto t = static_cast<std::int64_t>(random() % end);
    calendar.add(t, src);
    reference.emplace(t, src);
  }
  calendar.add(reference.begin()->first, 99999);  // a tie: the lower source first
  reference.emplace(reference.begin()->first, 99999);
  std::vector<int> left(100000, 3);  // next generations each source still adds
  std::int64_t now = 0;
  int popped = 0;
  while (!calendar.empty()) {
    ASSERT_FALSE(reference.empty());
    const auto expected = *reference.begin();
    reference.erase(reference.begin());
    ASSERT_EQ(calendar.top_ps(), expected.first);
    const std::int32_t src = calendar.pop();
    ASSERT_EQ(src, expected.second) << "at " << expected.first;
    now = expected.first;
    ++popped;
    // Each source's next generation, later: often in the bucket being taken, sometimes far.
    if (src % 3 != 0 && left[static_cast<std::size_t>(src)]-- > 0) {
      const std::int64_t next =
          now + 1 + static_cast<std::int64_t>(random() % (src % 2 ? 50 : 200000));
      if (next < end) {
        calendar.add(next, src);
        reference.emplace(next, src);
      }
    }
  }
  EXPECT_TRUE(reference.empty());
  EXPECT_GT(popped, 5001);
}

// Sources in step (on/off injection at full load generates every source's messages at the same
// instants): long runs of equal times, added in no particular order, come back by source.
TEST(GenerationCalendar, OrdersEqualTimesBySource) {
  const std::int64_t end = 1000;
  GenerationCalendar calendar(end, 4096);
  std::set<std::pair<std::int64_t, std::int32_t>> reference;
  std::mt19937_64 random(11);
  std::vector<std::int32_t> sources(3000);
  for (std::size_t i = 0; i < sources.size(); ++i) sources[i] = static_cast<std::int32_t>(i);
  std::shuffle(sources.begin(), sources.end(), random);
  for (std::int32_t src : sources) {
    calendar.add(100, src);
    reference.emplace(100, src);
  }
  while (!calendar.empty()) {
    const auto expected = *reference.begin();
    reference.erase(reference.begin());
    ASSERT_EQ(calendar.top_ps(), expected.first);
    const std::int32_t src = calendar.pop();
    ASSERT_EQ(src, expected.second) << "at " << expected.first;
    // The next instant, 100 later, while the present one is still being taken.
    if (expected.first + 100 < end) {
      calendar.add(expected.first + 100, src);
      reference.emplace(expected.first + 100, src);
    }
  }
  EXPECT_TRUE(reference.empty());
}

}  // namespace
}  // namespace simmpi::traffic
