// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/engine.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace simmpi::runtime {
namespace {

struct Log {
  Engine* engine;
  std::vector<std::pair<std::int64_t, std::uint64_t>> seen;  // (time ps, tag)
};

void record(void* log, std::uint64_t tag) {
  auto* l = static_cast<Log*>(log);
  l->seen.emplace_back(l->engine->now().ps(), tag);
}

}  // namespace

TEST(Engine, RunsEventsInTimeThenInsertionOrder) {
  Engine e;
  Log log{&e, {}};
  e.schedule(SimTime::from_ps(30), Action{record, &log, 1});
  e.schedule(SimTime::from_ps(10), Action{record, &log, 2});
  e.schedule(SimTime::from_ps(30), Action{record, &log, 3});
  e.schedule(SimTime::from_ps(10), Action{record, &log, 4});
  while (e.step()) {
  }
  std::vector<std::pair<std::int64_t, std::uint64_t>> expected = {
      {10, 2}, {10, 4}, {30, 1}, {30, 3}};
  EXPECT_EQ(log.seen, expected);
  EXPECT_EQ(e.events_processed(), 4u);
  EXPECT_EQ(e.now().ps(), 30);
}

TEST(Engine, NextTimeAndAdvance) {
  Engine e;
  EXPECT_EQ(e.next_time(), SimTime::max());
  Log log{&e, {}};
  e.schedule(SimTime::from_ps(100), Action{record, &log, 0});
  EXPECT_EQ(e.next_time().ps(), 100);
  e.advance_to(SimTime::from_ps(99));
  EXPECT_EQ(e.now().ps(), 99);
  EXPECT_TRUE(e.step());
  EXPECT_EQ(e.now().ps(), 100);
}

TEST(EngineDeathTest, RefusesToScheduleInThePast) {
  Engine e;
  e.advance_to(SimTime::from_ps(50));
  EXPECT_DEATH(e.schedule(SimTime::from_ps(10), Action{}), "in the past");
}

}  // namespace simmpi::runtime
