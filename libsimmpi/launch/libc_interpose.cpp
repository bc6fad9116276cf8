// SPDX-License-Identifier: Apache-2.0
// C library functions whose meaning changes when a "process" is a rank fiber:
//  - exit() ends the calling rank, not the simulator, after running that rank's atexit handlers;
//  - __cxa_atexit/atexit from the program's code register handlers of the calling rank;
//  - gettimeofday, clock_gettime, time and clock read simulated time, and cost mpi.poll_cost
//    like MPI_Wtime, so programs that time themselves with them see simulated time;
//  - sleep, usleep, nanosleep, clock_nanosleep, and select and poll with a timeout and no
//    descriptors, let the asked simulated time pass for the rank, without sleeping on the host.
// Each is a library call for the measurement of the rank's own code (ScopedLibraryCall).
// Outside ranks (the loader, the simulator itself) each forwards to the real function.
// These definitions live in libsimmpi.so, which the program links before libc, so the dynamic
// linker binds the program's (and its libraries') calls here.
#include <poll.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "libsimmpi/core/world.hpp"
#include "libsimmpi/launch/fiber_threads.hpp"
#include "libsimmpi/launch/rank_life.hpp"
#include "libsimmpi/launch/real_function.hpp"
#include "runtime/privatize/program_image.hpp"

namespace {

using simmpi::mpi::World;

int calling_rank() {
  return simmpi::mpi::program_rank();
}

using simmpi::mpi::RealFunction;
constinit RealFunction<void (*)(int)> real_exit{"exit"};
constinit RealFunction<int (*)(void (*)(void*), void*, void*)> real_cxa_atexit{"__cxa_atexit"};
constinit RealFunction<clock_t (*)()> real_clock{"clock"};
constinit RealFunction<unsigned int (*)(unsigned int)> real_sleep{"sleep"};
constinit RealFunction<int (*)(useconds_t)> real_usleep{"usleep"};
constinit RealFunction<int (*)(const timespec*, timespec*)> real_nanosleep{"nanosleep"};
constinit RealFunction<int (*)(clockid_t, int, const timespec*, timespec*)> real_clock_nanosleep{
    "clock_nanosleep"};
constinit RealFunction<int (*)(int, fd_set*, fd_set*, fd_set*, timeval*)> real_select{"select"};
constinit RealFunction<int (*)(pollfd*, nfds_t, int)> real_poll{"poll"};

using simmpi::runtime::ScopedLibraryCall;
using simmpi::runtime::SimTime;

// Simulated time read by a rank's clock call, after charging the polling cost.
SimTime rank_clock(const char* call) {
  World& w = World::get();
  ScopedLibraryCall library(w.scheduler(), call);
  w.scheduler().settle();  // the rank's lazily charged computations end before the read
  w.spend(w.params().poll_cost);
  return w.now();
}

// The rank sleeps for `d` of simulated time (after its computations so far).
void rank_sleep(const char* call, SimTime d) {
  World& w = World::get();
  ScopedLibraryCall library(w.scheduler(), call);
  w.scheduler().settle();
  if (d > SimTime()) w.spend(d);
}

SimTime from_timespec(const timespec& ts) {
  return SimTime::from_seconds(static_cast<double>(ts.tv_sec) +
                               static_cast<double>(ts.tv_nsec) * 1e-9);
}

std::int64_t epoch_s() {
  return World::get().params().epoch_s;
}

}  // namespace

extern "C" {

__attribute__((visibility("default"), noreturn)) void exit(int status) noexcept {
  int rank = calling_rank();
  if (rank >= 0) simmpi::mpi::RankLives::instance()->end_rank(rank, status);
  real_exit(status);
  __builtin_unreachable();
}

__attribute__((visibility("default"))) int __cxa_atexit(void (*fn)(void*), void* arg,
                                                        void* dso) noexcept {
  int rank = calling_rank();
  if (rank >= 0 && simmpi::runtime::ProgramImage::instance().is_private_dso(dso)) {
    simmpi::mpi::RankLives::instance()->add_exit_handler(rank, fn, arg);
    return 0;
  }
  return real_cxa_atexit(fn, arg, dso);
}

__attribute__((visibility("default"))) int gettimeofday(struct timeval* tv, void* tz) noexcept {
  if (calling_rank() < 0) return static_cast<int>(syscall(SYS_gettimeofday, tv, tz));
  std::int64_t ps = rank_clock("gettimeofday").ps();
  tv->tv_sec = epoch_s() + ps / 1000000000000LL;
  tv->tv_usec = (ps % 1000000000000LL) / 1000000;
  return 0;
}

__attribute__((visibility("default"))) int clock_gettime(clockid_t clk,
                                                         struct timespec* ts) noexcept {
  if (calling_rank() < 0) return static_cast<int>(syscall(SYS_clock_gettime, clk, ts));
  std::int64_t ps = rank_clock("clock_gettime").ps();
  ts->tv_sec = (clk == CLOCK_REALTIME ? epoch_s() : 0) + ps / 1000000000000LL;
  ts->tv_nsec = (ps % 1000000000000LL) / 1000;
  return 0;
}

__attribute__((visibility("default"))) time_t time(time_t* out) noexcept {
  time_t t;
  if (calling_rank() < 0)
    t = static_cast<time_t>(syscall(SYS_time, nullptr));
  else
    t = static_cast<time_t>(epoch_s() + rank_clock("time").ps() / 1000000000000LL);
  if (out) *out = t;
  return t;
}

__attribute__((visibility("default"))) clock_t clock() noexcept {
  if (calling_rank() < 0) return real_clock();
  return static_cast<clock_t>(rank_clock("clock").ps() / (1000000000000LL / CLOCKS_PER_SEC));
}

__attribute__((visibility("default"))) unsigned int sleep(unsigned int seconds) {
  if (calling_rank() < 0) return real_sleep(seconds);
  rank_sleep("sleep", SimTime::from_seconds(seconds));
  return 0;
}

__attribute__((visibility("default"))) int usleep(useconds_t microseconds) {
  if (calling_rank() < 0) return real_usleep(microseconds);
  rank_sleep("usleep", SimTime::from_seconds(static_cast<double>(microseconds) * 1e-6));
  return 0;
}

__attribute__((visibility("default"))) int nanosleep(const struct timespec* req,
                                                     struct timespec* rem) {
  if (calling_rank() < 0) return real_nanosleep(req, rem);
  if (!req || req->tv_nsec < 0 || req->tv_nsec >= 1000000000 || req->tv_sec < 0) {
    errno = EINVAL;
    return -1;
  }
  rank_sleep("nanosleep", from_timespec(*req));
  if (rem) *rem = timespec{};
  return 0;
}

// Returns an error number, as clock_nanosleep does (not -1 and errno).
__attribute__((visibility("default"))) int clock_nanosleep(clockid_t clk, int flags,
                                                           const struct timespec* req,
                                                           struct timespec* rem) {
  if (calling_rank() < 0) return real_clock_nanosleep(clk, flags, req, rem);
  if (!req || req->tv_nsec < 0 || req->tv_nsec >= 1000000000 || req->tv_sec < 0) return EINVAL;
  SimTime d = from_timespec(*req);
  if (flags & TIMER_ABSTIME) {  // until the simulated clock reads *req (seconds past the epoch)
    timespec since_start = *req;
    if (clk == CLOCK_REALTIME) since_start.tv_sec -= epoch_s();
    const SimTime until = since_start.tv_sec < 0 ? SimTime() : from_timespec(since_start);
    const SimTime now = rank_clock("clock_nanosleep");
    d = until > now ? until - now : SimTime();
  }
  rank_sleep("clock_nanosleep", d);
  if (rem && !(flags & TIMER_ABSTIME)) *rem = timespec{};
  return 0;
}

// select() with no descriptors is the classic portable sleep; with descriptors it is host I/O.
__attribute__((visibility("default"))) int select(int nfds, fd_set* r, fd_set* w, fd_set* e,
                                                  struct timeval* timeout) {
  if (calling_rank() < 0 || (nfds > 0 && (r || w || e)) || !timeout)
    return real_select(nfds, r, w, e, timeout);
  rank_sleep("select", SimTime::from_seconds(static_cast<double>(timeout->tv_sec) +
                                             static_cast<double>(timeout->tv_usec) * 1e-6));
  return 0;
}

__attribute__((visibility("default"))) int poll(struct pollfd* fds, nfds_t nfds, int timeout_ms) {
  if (calling_rank() < 0 || nfds > 0 || timeout_ms < 0) return real_poll(fds, nfds, timeout_ms);
  rank_sleep("poll", SimTime::from_seconds(static_cast<double>(timeout_ms) * 1e-3));
  return 0;
}

}  // extern "C"
