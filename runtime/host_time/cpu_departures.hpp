// SPDX-License-Identifier: Apache-2.0
// Whether the calling thread has left its CPU (the host preempted it, it slept, it migrated, a
// signal came) since a mark, for the price of one memory load.
//
// It uses the thread's restartable-sequences area (rseq(2)), which glibc (2.35 and later)
// registers for every thread. Whenever the kernel returns to a thread after a context switch, a
// migration or a signal, it looks at the area's rseq_cs field and, when the thread is not inside
// the critical section rseq_cs names, clears the field. mark() points rseq_cs at a descriptor of
// an empty section, which no instruction is ever inside, so the field stays as marked while the
// thread keeps its CPU and is cleared as soon as it has lost it. A program library that uses rseq
// critical sections of its own overwrites the field: that reads as a departure too, which only
// costs the caller a reading of the CPU clock.
#pragma once

#include <cstdint>

namespace simmpi::runtime {

class CpuDepartures {
 public:
  // For the calling thread, which must be the one that calls mark() and has_left(). Not available
  // when the thread has no rseq area (glibc before 2.35, glibc.pthread.rseq=0, a kernel before
  // 4.18, a seccomp filter) or when the kernel does not clear a mark across a sleep.
  CpuDepartures();

  bool is_available() const { return rseq_cs_ != nullptr; }
  // Only when available.
  void mark() { *rseq_cs_ = mark_; }
  bool has_left() const { return *rseq_cs_ != mark_; }

 private:
  volatile std::uint64_t* rseq_cs_ = nullptr;  // the thread's rseq area's rseq_cs field
  std::uint64_t mark_ = 0;                     // the empty section's descriptor
};

}  // namespace simmpi::runtime
