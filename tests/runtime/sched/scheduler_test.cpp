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
  w->log.push_back("p" + std::to_string(p->id()) + "@" +
                   std::to_string(w->sched->engine().now().ps()));
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
  w->sched->block(
      WaitReason{"MPI_Recv", [](const void*) { return std::string("source=1 tag=7"); }, nullptr});
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
  EXPECT_EXIT(
      run_stuck_pair(), testing::ExitedWithCode(3),
      "deadlock(.|\n)*rank 0: blocked in MPI_Recv\\(source=1 tag=7\\)(.|\n)*rank 1: blocked in "
      "MPI_Recv");
}

namespace {
struct AuxWorld {
  Scheduler* sched;
  std::vector<std::string> log;
  std::vector<int> aux_ids;
};

void helper(void* arg) {
  auto* w = static_cast<AuxWorld*>(arg);
  Process* p = w->sched->current();
  w->sched->sleep_until(w->sched->engine().now() + SimTime::from_ns(5));
  w->log.push_back(p->name() + " owner=" + std::to_string(p->owner()) + "@" +
                   std::to_string(w->sched->engine().now().ps()));
}

// Rank 1 starts a helper at 10 ns, sleeps past its end, then starts another one.
void spawner(void* arg) {
  auto* w = static_cast<AuxWorld*>(arg);
  if (w->sched->current()->id() != 1) return;
  w->sched->sleep_until(SimTime::from_ns(10));
  w->aux_ids.push_back(w->sched->spawn_auxiliary(1, "helper", helper, w));
  w->sched->sleep_until(SimTime::from_ns(20));
  w->aux_ids.push_back(w->sched->spawn_auxiliary(1, "second helper", helper, w));
  w->log.push_back("rank 1 done@" + std::to_string(w->sched->engine().now().ps()));
}
}  // namespace

TEST(Scheduler, AuxiliaryProcessesRunForTheirOwnerAndAreReused) {
  Engine e;
  auto s = make(e, 2);
  AuxWorld w{s.get(), {}, {}};
  s->spawn(0, spawner, &w);
  s->spawn(1, spawner, &w);
  s->run();
  // The helper runs 10..15 ns on its own while rank 1 sleeps; the second reuses its id.
  std::vector<std::string> expected = {"rank 1's helper owner=1@15000", "rank 1 done@20000",
                                       "rank 1's second helper owner=1@25000"};
  EXPECT_EQ(w.log, expected);
  ASSERT_EQ(w.aux_ids.size(), 2u);
  EXPECT_EQ(w.aux_ids[0], 2);  // after the two ranks
  EXPECT_EQ(w.aux_ids[1], 2);
  EXPECT_EQ(s->process_count(), 2);
}

namespace {
void stuck_helper(void* arg) {
  auto* w = static_cast<AuxWorld*>(arg);
  w->sched->block(
      WaitReason{"MPI_Ibcast", [](const void*) { return std::string("from rank 1"); }, nullptr});
}
void spawns_stuck_helper(void* arg) {
  auto* w = static_cast<AuxWorld*>(arg);
  w->sched->spawn_auxiliary(0, "nonblocking MPI_Ibcast", stuck_helper, w);
}
}  // namespace

void run_stuck_helper() {
  Engine e;
  auto s = make(e, 1);
  AuxWorld w{s.get(), {}, {}};
  s->spawn(0, spawns_stuck_helper, &w);
  s->run();
}

TEST(SchedulerDeathTest, DeadlockReportNamesAuxiliaryProcesses) {
  EXPECT_EXIT(
      run_stuck_helper(), testing::ExitedWithCode(3),
      "rank 0's nonblocking MPI_Ibcast: blocked in MPI_Ibcast\\(from rank 1\\)(.|\n)*0 of 1 "
      "ranks waiting, and 1 of their auxiliary processes");
}

namespace {
void recurse(int depth) {
  volatile char pad[1024];
  pad[0] = static_cast<char>(depth);
  if (depth > 0) recurse(depth - 1);
  (void)pad[0];
}
void overflow(void*) {
  recurse(1000);
}
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
