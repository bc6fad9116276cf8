// SPDX-License-Identifier: Apache-2.0
// The departure mark: the thread's rseq area found through glibc, and a check that this kernel
// clears the mark.
#include "runtime/host_time/cpu_departures.hpp"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#define SIMMPI_HAVE_RSEQ 1
#endif

namespace simmpi::runtime {
namespace {

#ifdef SIMMPI_HAVE_RSEQ
// The kernel checks, before anything else, that the 32 bits before a descriptor's abort address
// hold the signature the thread registered (glibc's RSEQ_SIG); the abort address is never jumped
// to, since no instruction is inside an empty section.
const std::uint32_t kSignatureThenAbort[2] = {RSEQ_SIG, 0};
const struct rseq_cs kEmptySection = {
    /*version=*/0, /*flags=*/0, /*start_ip=*/0, /*post_commit_offset=*/0,
    /*abort_ip=*/reinterpret_cast<std::uintptr_t>(&kSignatureThenAbort[1])};
#endif

}  // namespace

CpuDepartures::CpuDepartures() {
#ifdef SIMMPI_HAVE_RSEQ
  if (__rseq_size == 0) return;  // glibc registered no area for this thread
  auto* area = reinterpret_cast<struct rseq*>(static_cast<char*>(__builtin_thread_pointer()) +
                                              __rseq_offset);
  rseq_cs_ = reinterpret_cast<volatile std::uint64_t*>(&area->rseq_cs);
  mark_ = reinterpret_cast<std::uintptr_t>(&kEmptySection);
  // A sleep is a context switch: a kernel that does not clear the mark then is not one this
  // works with. Timer slack makes each sleep last tens of microseconds; three tries in case one
  // did not sleep at all. The system call itself: the MPI layer makes nanosleep simulated.
  for (int i = 0; i < 3; ++i) {
    mark();
    const timespec pause{0, 1000};
    syscall(SYS_nanosleep, &pause, nullptr);
    if (has_left()) return;
  }
  *rseq_cs_ = 0;
  rseq_cs_ = nullptr;
#endif
}

}  // namespace simmpi::runtime
