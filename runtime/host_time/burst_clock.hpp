// SPDX-License-Identifier: Apache-2.0
// Measures the host time of a process's own code between two library calls (a "burst"), cheaply
// enough to do at every MPI call.
//
// The thread CPU clock is the right measure (other processes on the host do not inflate it) but
// costs a system call: 1.4 us on the KVM guests we run on, twice the host time of a simulated
// ping-pong round trip. The time-stamp counter costs 12-20 ns but counts wall time, which
// includes any time the OS gave this thread's core to another process. So:
//   - a burst is timed with the TSC, and that is what it is charged while the thread kept its
//     CPU, which CpuDepartures tells for the price of a memory load;
//   - when the thread left its CPU during the burst, the CPU clock is read at its end, and the
//     burst is charged the CPU time since the last CPU reading less the wall time from that
//     reading to the burst's start (all of it on the CPU: a departure there would have been seen
//     at the start, and a reading taken then). A short burst that the host preempted for a 3 ms
//     time slice is charged its few microseconds, not the slice;
//   - a process whose previous burst was long (kLongBurstNs or more) reads the CPU clock at both
//     ends of the next one, so the bursts of a compute loop are charged their CPU time, at a cost
//     of at most 2.8% of their length (the CPU clock leaves out what a hypervisor steals, which
//     no departure shows);
//   - where departures cannot be seen (no rseq area), a long burst after a short one (no CPU
//     reading at its start) is charged its wall time scaled by the fraction of wall time the
//     thread was on a CPU since the last CPU reading: a preempted short burst is then charged part
//     of the other process's time slice.
// Only one thread runs processes, so one CPU reading serves every process.
//
// BasicBurstClock takes its clocks from `Probes` so that a test can drive them: ticks() (the
// TSC), cpu_ns() (the thread CPU clock), and a departure watch: watches_departures(),
// mark_departures(), has_left_cpu().
#pragma once

#include <cstdint>

#include "runtime/host_time/cpu_departures.hpp"

namespace simmpi::runtime {

// A process's measurement state (one per process, kept by the scheduler).
struct BurstMarks {
  std::uint64_t tsc = 0;     // TSC when the current segment of own code started
  std::int64_t cpu_ns = -1;  // thread CPU clock then, or -1 when not read
  std::int64_t sum_ns = 0;   // host time of the burst's earlier segments (see pause)
  bool long_bursts = false;  // the last burst was long: read the CPU clock at both ends
};

// This host's clocks.
class HostProbes {
 public:
  static std::uint64_t ticks() { return __builtin_ia32_rdtsc(); }
  static std::int64_t cpu_ns();
  bool watches_departures() const { return departures_.is_available(); }
  void mark_departures() { departures_.mark(); }
  bool has_left_cpu() const { return departures_.has_left(); }

 private:
  CpuDepartures departures_;
};

template <class Probes>
class BasicBurstClock {
 public:
  // Bursts after one of at least this much host time read the thread CPU clock (see above).
  static constexpr std::int64_t kLongBurstNs = 100000;

  // `tsc_hz`: the time-stamp counter's frequency (hardware::HostModel measures it).
  explicit BasicBurstClock(double tsc_hz, Probes probes = Probes());

  // Whether a preempted burst is charged its CPU time (departures are seen) or a share of its
  // wall time.
  bool sees_departures() const { return watching_; }

  // A segment of own code starts (a library call returns, a thread starts).
  void start(BurstMarks& m);
  // A segment ends without ending the burst (an OpenMP region, charged otherwise, starts).
  void pause(BurstMarks& m);
  // The burst ends (a library call starts): its host time in ns, the marks reset.
  std::int64_t stop(BurstMarks& m);

 private:
  std::int64_t ticks_to_ns(std::uint64_t ticks) const {
    return static_cast<std::int64_t>(static_cast<double>(ticks) * ns_per_tick_);
  }
  // Reads the CPU clock, the new base for departures; `tsc`: the TSC just before.
  std::int64_t read_cpu(std::uint64_t tsc);
  // A segment from m.tsc to `now` without a CPU reading at its start.
  std::int64_t departed_ns(const BurstMarks& m, std::uint64_t now);
  std::int64_t scaled_ns(std::uint64_t now, std::int64_t wall);

  Probes probes_;
  bool watching_;
  double ns_per_tick_;
  std::int64_t tsc_probe_ns_ = 0;  // what start() + pause() measure with nothing between them
  std::int64_t cpu_probe_ns_ = 0;  // the same on the CPU clock (one system call)
  std::uint64_t last_tsc_ = 0;     // the last CPU-clock reading: the TSC just before it
  std::int64_t last_cpu_ns_ = 0;   // and the CPU clock
};

// Defined in burst_clock_impl.hpp, instantiated for the host in burst_clock.cpp.
extern template class BasicBurstClock<HostProbes>;
using BurstClock = BasicBurstClock<HostProbes>;

}  // namespace simmpi::runtime
