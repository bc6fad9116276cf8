// SPDX-License-Identifier: Apache-2.0
// Measures the host time of a process's own code between two library calls (a "burst"), cheaply
// enough to do at every MPI call.
//
// The thread CPU clock is the right measure (other processes on the host do not inflate it) but
// costs a system call: 1.4 us on the KVM guests we run on, twice the host time of a simulated
// ping-pong round trip. The time-stamp counter costs 12 ns but counts wall time, which includes
// any time the OS gave this thread's core to another process. So:
//   - a burst is timed with the TSC, and that is what short bursts are charged: a burst of a few
//     microseconds is rarely preempted;
//   - a process whose previous burst was long (kLongBurstNs or more) also reads the CPU clock at
//     both ends, so the bursts of a compute loop are charged their CPU time, at a cost of at
//     most 2.8% of their length;
//   - a long burst after a short one (no CPU reading at its start) is charged its wall time
//     scaled by the fraction of wall time the thread was on a CPU since the last CPU reading.
// Only one thread runs processes, so one CPU reading serves every process for that correction.
#pragma once

#include <cstdint>

namespace simmpi::runtime {

// A process's measurement state (one per process, kept by the scheduler).
struct BurstMarks {
  std::uint64_t tsc = 0;     // TSC when the current segment of own code started
  std::int64_t cpu_ns = -1;  // thread CPU clock then, or -1 when not read
  std::int64_t sum_ns = 0;   // host time of the burst's earlier segments (see pause)
  std::int64_t wall_ns = 0;  // their wall time
  bool long_bursts = false;  // the last burst was long: read the CPU clock at both ends
};

class BurstClock {
 public:
  // Bursts of at least this much wall time read the thread CPU clock (see above).
  static constexpr std::int64_t kLongBurstNs = 100000;

  // `tsc_hz`: the time-stamp counter's frequency (hardware::HostModel measures it).
  explicit BurstClock(double tsc_hz);

  // A segment of own code starts (a library call returns, a thread starts).
  void start(BurstMarks& m) const;
  // A segment ends without ending the burst (an OpenMP region, charged otherwise, starts).
  void pause(BurstMarks& m);
  // The burst ends (a library call starts): its host time in ns, the marks reset.
  std::int64_t stop(BurstMarks& m);

 private:
  std::int64_t ticks_to_ns(std::uint64_t ticks) const {
    return static_cast<std::int64_t>(static_cast<double>(ticks) * ns_per_tick_);
  }
  void note_cpu_reading(std::uint64_t tsc, std::int64_t cpu_ns);

  double ns_per_tick_;
  std::int64_t tsc_probe_ns_ = 0;  // what start() + pause() measure with nothing between them
  std::int64_t cpu_probe_ns_ = 0;  // the same on the CPU clock (one system call)
  std::uint64_t last_tsc_ = 0;     // the last CPU-clock reading, for the preemption correction
  std::int64_t last_cpu_ns_ = 0;
};

}  // namespace simmpi::runtime
