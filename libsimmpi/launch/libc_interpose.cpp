// SPDX-License-Identifier: Apache-2.0
// C library functions whose meaning changes when a "process" is a rank fiber:
//  - exit() ends the calling rank, not the simulator, after running that rank's atexit handlers;
//  - __cxa_atexit/atexit from the program's code register handlers of the calling rank;
//  - gettimeofday, clock_gettime, time and clock read simulated time, and cost mpi.poll_cost
//    like MPI_Wtime, so programs that time themselves with them see simulated time.
// Outside ranks (the loader, the simulator itself) each forwards to the real function.
// These definitions live in libsimmpi.so, which the program links before libc, so the dynamic
// linker binds the program's (and its libraries') calls here.
#include <dlfcn.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>

#include "libsimmpi/core/world.hpp"
#include "libsimmpi/launch/rank_life.hpp"
#include "runtime/privatize/program_image.hpp"

namespace {

using simmpi::mpi::World;

// The calling rank, or -1 outside the simulation's ranks.
int calling_rank() {
  auto* s = simmpi::runtime::Scheduler::instance();
  return s && s->current() && World::exists() ? s->current()->owner() : -1;
}

template <class F>
F real(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

// Simulated time read by a rank's clock call, after charging the polling cost.
simmpi::runtime::SimTime rank_clock() {
  World& w = World::get();
  w.scheduler().settle();  // the rank's lazily charged computations end before the read
  w.spend(w.params().poll_cost);
  return w.now();
}

std::int64_t epoch_s() {
  return World::get().params().epoch_s;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"), noreturn)) void exit(int status) noexcept {
  int rank = calling_rank();
  if (rank >= 0) simmpi::mpi::RankLives::instance()->end_rank(rank, status);
  real<void (*)(int)>("exit")(status);
  __builtin_unreachable();
}

__attribute__((visibility("default"))) int __cxa_atexit(void (*fn)(void*), void* arg,
                                                        void* dso) noexcept {
  int rank = calling_rank();
  if (rank >= 0 && dso == simmpi::runtime::ProgramImage::instance().dso_handle()) {
    simmpi::mpi::RankLives::instance()->add_exit_handler(rank, fn, arg);
    return 0;
  }
  return real<int (*)(void (*)(void*), void*, void*)>("__cxa_atexit")(fn, arg, dso);
}

__attribute__((visibility("default"))) int gettimeofday(struct timeval* tv, void* tz) noexcept {
  if (calling_rank() < 0) return static_cast<int>(syscall(SYS_gettimeofday, tv, tz));
  std::int64_t ps = rank_clock().ps();
  tv->tv_sec = epoch_s() + ps / 1000000000000LL;
  tv->tv_usec = (ps % 1000000000000LL) / 1000000;
  return 0;
}

__attribute__((visibility("default"))) int clock_gettime(clockid_t clk,
                                                         struct timespec* ts) noexcept {
  if (calling_rank() < 0) return static_cast<int>(syscall(SYS_clock_gettime, clk, ts));
  std::int64_t ps = rank_clock().ps();
  ts->tv_sec = (clk == CLOCK_REALTIME ? epoch_s() : 0) + ps / 1000000000000LL;
  ts->tv_nsec = (ps % 1000000000000LL) / 1000;
  return 0;
}

__attribute__((visibility("default"))) time_t time(time_t* out) noexcept {
  time_t t;
  if (calling_rank() < 0)
    t = static_cast<time_t>(syscall(SYS_time, nullptr));
  else
    t = static_cast<time_t>(epoch_s() + rank_clock().ps() / 1000000000000LL);
  if (out) *out = t;
  return t;
}

__attribute__((visibility("default"))) clock_t clock() noexcept {
  if (calling_rank() < 0) return real<clock_t (*)()>("clock")();
  return static_cast<clock_t>(rank_clock().ps() / (1000000000000LL / CLOCKS_PER_SEC));
}

}  // extern "C"
