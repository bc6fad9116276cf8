// SPDX-License-Identifier: Apache-2.0
#include "runtime/sched/scheduler.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <string>
#include <vector>

#include "runtime/privatize/program_image.hpp"

namespace simmpi::runtime {
namespace {

struct World {
  Scheduler* sched;
  std::vector<std::string> log;
};

void sleeper(void* arg) {
  auto* w = static_cast<World*>(arg);
  Process* p = w->sched->current();
  w->sched->sleep_until(w->sched->engine().now() + SimTime::from_ns(10 * (p->id() + 1)));
  w->log.push_back("p" + std::to_string(p->id()) + "@" + std::to_string(w->sched->engine().now().ps()));
}

std::unique_ptr<Scheduler> make(Engine& e, int n) {
  return std::make_unique<Scheduler>(e, n, Scheduler::Options{64 * 1024, 4},
                                     make_privatizer("none", ProgramImage::instance(), n));
}

}  // namespace

TEST(Scheduler, SleepersWakeAtTheirTimes) {
  Engine e;
  auto s = make(e, 3);
  World w{s.get(), {}};
  for (int i = 2; i >= 0; --i) s->spawn(i, sleeper, &w);
  s->run();
  std::vector<std::string> expected = {"p0@10000", "p1@20000", "p2@30000"};
  EXPECT_EQ(w.log, expected);
  EXPECT_EQ(s->process(2).finish_time().ps(), 30000);
}

namespace {
void blocker(void* arg) {
  auto* w = static_cast<World*>(arg);
  if (w->sched->current()->id() == 0) {
    w->sched->block(WaitReason{"wait_for_one", nullptr, nullptr});
    w->log.push_back("woken@" + std::to_string(w->sched->engine().now().ps()));
  } else {
    w->sched->sleep_until(SimTime::from_ns(5));
    w->sched->wake(w->sched->process(0), SimTime::from_ns(7));
    w->sched->wake(w->sched->process(0), SimTime::from_ns(6));  // an earlier wake wins
  }
}
}  // namespace

TEST(Scheduler, TheEarliestWakeWins) {
  Engine e;
  auto s = make(e, 2);
  World w{s.get(), {}};
  s->spawn(0, blocker, &w);
  s->spawn(1, blocker, &w);
  s->run();
  ASSERT_EQ(w.log.size(), 1u);
  EXPECT_EQ(w.log[0], "woken@6000");
}

namespace {
void stuck(void* arg) {
  auto* w = static_cast<World*>(arg);
  w->sched->block(WaitReason{"MPI_Recv", [](const void*) { return std::string("source=1 tag=7"); }, nullptr});
}
}  // namespace

void run_stuck_pair() {
  Engine e;
  auto s = make(e, 2);
  World w{s.get(), {}};
  s->spawn(0, stuck, &w);
  s->spawn(1, stuck, &w);
  s->run();
}

TEST(SchedulerDeathTest, DeadlockReportNamesEveryBlockedProcess) {
  EXPECT_EXIT(run_stuck_pair(), testing::ExitedWithCode(3),
      "deadlock(.|\n)*rank 0: blocked in MPI_Recv\\(source=1 tag=7\\)(.|\n)*rank 1: blocked in "
      "MPI_Recv");
}

namespace {
void recurse(int depth) {
  volatile char pad[1024];
  pad[0] = static_cast<char>(depth);
  if (depth > 0) recurse(depth - 1);
  (void)pad[0];
}
void overflow(void*) { recurse(1000); }
}  // namespace

void run_overflow() {
  Engine e;
  auto s = make(e, 1);
  s->spawn(0, overflow, nullptr);
  s->run();
}

TEST(SchedulerDeathTest, StackOverflowNamesTheRankAndTheOption) {
  EXPECT_EXIT(run_overflow(), testing::ExitedWithCode(128 + SIGSEGV),
      "rank 0 overflowed its stack of 64 KiB(.|\n)*runtime.stack_size");
}

}  // namespace simmpi::runtime
