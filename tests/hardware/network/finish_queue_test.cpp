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

}  // namespace
}  // namespace simmpi::hardware
