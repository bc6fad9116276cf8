// SPDX-License-Identifier: Apache-2.0
// The finish queue gives flows back by (time, sequence number) while their times move either
// way and flows come and go, as a sorted set would.
#include "hardware/network/finish_queue.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <tuple>
#include <vector>

namespace simmpi::hardware {
namespace {

TEST(FinishQueue, PopsByTimeThenSequenceWhileTimesMove) {
  FinishQueue q;
  std::set<std::tuple<std::int64_t, std::uint64_t, std::int32_t>> reference;
  std::vector<std::int64_t> time_of(3000, -1);  // by id, -1 when absent
  std::vector<std::uint64_t> seq_of(3000);
  std::mt19937_64 random(11);
  std::uint64_t next_seq = 0;
  std::int64_t now = 0;
  for (int step = 0; step < 60000; ++step) {
    const auto id = static_cast<std::int32_t>(random() % 3000);
    const auto i = static_cast<std::size_t>(id);
    if (random() % 4 != 0) {
      // A new flow, or a flow whose rate changed: its finish moves earlier or later (ties on
      // purpose: times on a coarse grid).
      if (time_of[i] < 0)
        seq_of[i] = next_seq++;
      else
        reference.erase({time_of[i], seq_of[i], id});
      time_of[i] = now + static_cast<std::int64_t>(random() % 64) * 1000;
      reference.emplace(time_of[i], seq_of[i], id);
      q.set(id, runtime::SimTime::from_ps(time_of[i]), seq_of[i]);
    } else if (!reference.empty()) {
      const auto [t, seq, expected] = *reference.begin();
      reference.erase(reference.begin());
      ASSERT_EQ(q.top_time().ps(), t);
      ASSERT_EQ(q.top(), expected) << "step " << step;
      q.pop();
      time_of[static_cast<std::size_t>(expected)] = -1;
      now = t;
    }
    ASSERT_EQ(q.size(), reference.size());
  }
}

// Flows added in order (the FIFO) and flows set (the heap) come out in one order: most flows start
// at a common duration, some arrive out of order, and some move (which takes them out of the
// FIFO), with ties between the two sides on purpose.
TEST(FinishQueue, FlowsAddedInOrderAndMovedOnesComeOutInOneOrder) {
  FinishQueue q;
  std::set<std::tuple<std::int64_t, std::uint64_t, std::int32_t>> reference;
  std::vector<std::int64_t> time_of(5000, -1);  // by id, -1 when absent
  std::vector<std::uint64_t> seq_of(5000);
  std::mt19937_64 random(23);
  std::uint64_t next_seq = 0;
  std::int64_t now = 0;
  int popped_second = 0;
  for (int step = 0; step < 200000; ++step) {
    const auto id = static_cast<std::int32_t>(random() % 5000);
    const auto i = static_cast<std::size_t>(id);
    const auto kind = random() % 8;
    if (kind < 4 && time_of[i] < 0) {
      // A new flow: most at the common duration (in order), some shorter (out of order).
      seq_of[i] = next_seq++;
      time_of[i] = now + (kind == 0 ? static_cast<std::int64_t>(random() % 8) : 8) * 1000;
      reference.emplace(time_of[i], seq_of[i], id);
      q.add_in_order(id, runtime::SimTime::from_ps(time_of[i]), seq_of[i]);
    } else if (kind < 5 && time_of[i] >= 0) {
      // Its rate changed: earlier or later.
      reference.erase({time_of[i], seq_of[i], id});
      time_of[i] = now + static_cast<std::int64_t>(random() % 16) * 1000;
      reference.emplace(time_of[i], seq_of[i], id);
      q.set(id, runtime::SimTime::from_ps(time_of[i]), seq_of[i]);
    } else if (!reference.empty()) {
      const auto [t, seq, expected] = *reference.begin();
      ASSERT_EQ(q.top_time().ps(), t);
      ASSERT_EQ(q.top(), expected) << "step " << step;
      const std::int32_t second = q.second();
      reference.erase(reference.begin());
      q.pop();
      time_of[static_cast<std::size_t>(expected)] = -1;
      now = t;
      // second() is a hint: when it names a flow, it is the next one.
      if (second >= 0) {
        ASSERT_FALSE(reference.empty());
        ASSERT_EQ(second, std::get<2>(*reference.begin())) << "step " << step;
        ++popped_second;
      }
    }
    ASSERT_EQ(q.size(), reference.size());
  }
  EXPECT_GT(popped_second, 10000);
}

}  // namespace
}  // namespace simmpi::hardware
