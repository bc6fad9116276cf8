// SPDX-License-Identifier: Apache-2.0
#include "runtime/core/engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
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

// Events that schedule more events while the queue holds thousands, with many equal times: the
// engine must run them in exactly the (time, scheduling order) order of a stable sort.
struct Chain {
  Engine* engine = nullptr;
  std::mt19937_64 rng{7};
  std::uint64_t next_tag = 0;
  std::vector<std::pair<std::int64_t, std::uint64_t>> scheduled, seen;  // (time ps, tag)
  void add(std::int64_t t) {
    scheduled.emplace_back(t, next_tag);
    engine->schedule(SimTime::from_ps(t), Action{&Chain::fire, this, next_tag++});
  }
  static void fire(void* self, std::uint64_t tag) {
    auto* c = static_cast<Chain*>(self);
    const std::int64_t now = c->engine->now().ps();
    c->seen.emplace_back(now, tag);
    if (c->next_tag < 60000)
      for (int i = 0; i < 2 && c->next_tag < 60000; ++i)
        c->add(now + static_cast<std::int64_t>(c->rng() % 50));  // 0: at this very instant
  }
};

TEST(Engine, KeepsTimeThenSchedulingOrderUnderLoad) {
  Engine e;
  Chain c;
  c.engine = &e;
  for (int i = 0; i < 5000; ++i) c.add(static_cast<std::int64_t>(c.rng() % 1000));
  while (e.step()) {
  }
  auto expected = c.scheduled;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  ASSERT_EQ(c.seen.size(), expected.size());
  EXPECT_EQ(c.seen, expected);
}

// Events scheduled for the current instant queue apart from the heap (Engine's now queue):
// thousands of them at one time, scheduled while events of that time scheduled earlier still
// wait in the heap, still run in (time, scheduling order), and the counts and the next time see
// both queues.
struct Instant {
  Engine* engine = nullptr;
  std::uint64_t next_tag = 0;
  std::vector<std::pair<std::int64_t, std::uint64_t>> scheduled, seen;
  void add(std::int64_t t) {
    scheduled.emplace_back(t, next_tag);
    engine->schedule(SimTime::from_ps(t), Action{&Instant::fire, this, next_tag++});
  }
  static void fire(void* self, std::uint64_t tag) {
    auto* c = static_cast<Instant*>(self);
    const std::int64_t now = c->engine->now().ps();
    c->seen.emplace_back(now, tag);
    // From time 3 one event for time 7, which waits in the heap; from 7 on, two for now (the
    // now queue), one in five for the next picosecond instead (the heap again).
    if (now == 3) {
      c->add(7);
      return;
    }
    for (int i = 0; i < 2 && c->next_tag < 20000; ++i) c->add(now + (c->next_tag % 5 == 0));
  }
};

TEST(Engine, ALongInstantRunsInSchedulingOrder) {
  Engine e;
  Instant c;
  c.engine = &e;
  e.advance_to(SimTime::from_ps(3));
  for (int i = 0; i < 4; ++i) c.add(7);  // in the heap: scheduled before time 7 came
  c.add(3);                              // at now: the now queue
  EXPECT_EQ(e.pending(), 5u);
  EXPECT_EQ(e.next_time().ps(), 3);
  Log last{&e, {}};
  e.schedule(SimTime::from_ps(9), Action{record, &last, 99});
  while (e.step()) {
  }
  auto expected = c.scheduled;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  ASSERT_EQ(c.seen.size(), expected.size());
  EXPECT_EQ(c.seen, expected);
  EXPECT_EQ(last.seen.size(), 1u);
  EXPECT_EQ(e.pending(), 0u);
  EXPECT_EQ(e.events_processed(), c.seen.size() + 1);
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
