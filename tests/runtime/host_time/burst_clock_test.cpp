// SPDX-License-Identifier: Apache-2.0
// The burst clock on scripted clocks: what a burst is charged when the thread kept its CPU, when
// the host preempted it during the burst or between bursts, and where departures are not seen.
#include "runtime/host_time/burst_clock.hpp"

#include <gtest/gtest.h>

#include "runtime/host_time/burst_clock_impl.hpp"

namespace simmpi::runtime {
namespace {

// A host whose TSC runs at 1 GHz (a tick is a nanosecond) and whose clocks move only when the
// test says: run() is time on the CPU, preempted() time another process had it.
struct ScriptedHost {
  std::uint64_t tsc = 1000000;
  std::int64_t cpu = 500000;
  bool sees_departures = true;
  bool marked = false;
  int cpu_readings = 0;

  void run(std::int64_t ns) {
    tsc += static_cast<std::uint64_t>(ns);
    cpu += ns;
  }
  void preempted(std::int64_t ns) {
    tsc += static_cast<std::uint64_t>(ns);
    marked = false;  // the kernel clears the mark
  }
};

class ScriptedProbes {
 public:
  explicit ScriptedProbes(ScriptedHost* host) : host_(host) {}
  std::uint64_t ticks() const { return host_->tsc; }
  std::int64_t cpu_ns() const {
    ++host_->cpu_readings;
    return host_->cpu;
  }
  bool watches_departures() const { return host_->sees_departures; }
  void mark_departures() { host_->marked = true; }
  bool has_left_cpu() const { return !host_->marked; }

 private:
  ScriptedHost* host_;
};

using ScriptedClock = BasicBurstClock<ScriptedProbes>;

// One burst: `before` on the CPU in the simulator, then the burst's own `steps`.
template <class Steps>
std::int64_t burst(ScriptedClock& clock, BurstMarks& m, Steps steps) {
  clock.start(m);
  steps();
  return clock.stop(m);
}

TEST(BurstClock, ChargesTheTscWhenTheThreadKeptItsCpu) {
  ScriptedHost host;
  ScriptedClock clock(1e9, ScriptedProbes(&host));
  ASSERT_TRUE(clock.sees_departures());
  BurstMarks m;
  const int readings = host.cpu_readings;
  EXPECT_EQ(burst(clock, m, [&] { host.run(5000); }), 5000);
  EXPECT_EQ(host.cpu_readings, readings) << "a burst that kept its CPU reads no CPU clock";
}

TEST(BurstClock, APreemptedShortBurstIsChargedItsCpuTimeNotTheTimeSlice) {
  ScriptedHost host;
  ScriptedClock clock(1e9, ScriptedProbes(&host));
  BurstMarks m;
  host.run(20000);  // the simulator's work since the last reading
  EXPECT_EQ(burst(clock, m,
                  [&] {
                    host.run(2000);
                    host.preempted(3000000);
                    host.run(3000);
                  }),
            5000);
  // The next burst, not preempted, is charged its own time again (the reading is its base).
  host.run(700);
  EXPECT_EQ(burst(clock, m, [&] { host.run(4000); }), 4000);
}

TEST(BurstClock, APreemptionBetweenBurstsIsChargedToNone) {
  ScriptedHost host;
  ScriptedClock clock(1e9, ScriptedProbes(&host));
  BurstMarks m;
  host.run(1000);
  host.preempted(3000000);  // in the simulator's own code
  host.run(1000);
  EXPECT_EQ(burst(clock, m, [&] { host.run(6000); }), 6000);
  // And when the burst is preempted as well, each absence is left out.
  host.preempted(2000000);
  host.run(500);
  EXPECT_EQ(burst(clock, m,
                  [&] {
                    host.run(1000);
                    host.preempted(4000000);
                    host.run(1000);
                  }),
            2000);
}

TEST(BurstClock, LongBurstsReadTheCpuClockAtBothEnds) {
  ScriptedHost host;
  ScriptedClock clock(1e9, ScriptedProbes(&host));
  BurstMarks m;
  EXPECT_EQ(burst(clock, m, [&] { host.run(ScriptedClock::kLongBurstNs); }),
            ScriptedClock::kLongBurstNs);
  ASSERT_TRUE(m.long_bursts);
  const int readings = host.cpu_readings;
  EXPECT_EQ(burst(clock, m,
                  [&] {
                    host.run(150000);
                    host.preempted(3000000);
                    host.run(50000);
                  }),
            200000);
  EXPECT_EQ(host.cpu_readings, readings + 2);
}

TEST(BurstClock, WithoutDeparturesAPreemptedBurstIsChargedItsShareOfTheWallTime) {
  ScriptedHost host;
  host.sees_departures = false;
  ScriptedClock clock(1e9, ScriptedProbes(&host));
  ASSERT_FALSE(clock.sees_departures());
  BurstMarks m;
  // Short and not preempted: the TSC.
  EXPECT_EQ(burst(clock, m, [&] { host.run(5000); }), 5000);
  // Preempted for 3 ms: the wall time 3.005 ms times the thread's share of the CPU since the
  // last reading at construction (5 + 5 us on the CPU of 3.01 ms).
  const std::int64_t charged = burst(clock, m, [&] {
    host.run(2000);
    host.preempted(3000000);
    host.run(3000);
  });
  EXPECT_EQ(charged, static_cast<std::int64_t>(3005000.0 * (10000.0 / 3010000.0)));
}

}  // namespace
}  // namespace simmpi::runtime
