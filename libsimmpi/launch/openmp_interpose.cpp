// SPDX-License-Identifier: Apache-2.0
// OpenMP parallel regions (GCC's libgomp) run by a rank or one of its threads: the region runs
// on the host's cores, with libgomp's real OS threads, and costs the rank its critical path on
// the node's cores (node.cores_per_rank) instead of the host time its own thread spent.
//
// GCC compiles `#pragma omp parallel` (and its combined forms) into a call of GOMP_parallel*
// with the region's body as fn(data), which every thread of the team calls once. The wrappers
// here hand libgomp a body that runs fn and adds the calling thread's CPU time (the thread CPU
// clock, so that other threads on the host's cores do not inflate it) to the region's total and
// maximum. The region then costs
//     max(longest thread, total of all threads / cores)
// of host time: the lower bound of the makespan of the threads' work on `cores` cores (Graham,
// "Bounds on multiprocessing timing anomalies", 1969), which a balanced region reaches; the
// scheduler scales it to the simulated CPU like the rest of the rank's code. While the region
// runs, the pthread calls of libgomp and of the region's threads go to the C library
// (fiber_threads.hpp: host_region_process).
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "hardware/compute/compute_model.hpp"
#include "hardware/platform.hpp"
#include "libsimmpi/core/world.hpp"
#include "libsimmpi/launch/fiber_threads.hpp"
#include "libsimmpi/launch/real_function.hpp"

namespace simmpi::mpi {
namespace {

using Body = void (*)(void*);

// The program calls clock_gettime as simulated time (libc_interpose.cpp): ask the kernel.
std::int64_t thread_cpu_ns() {
  timespec ts{};
  syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

// What the team's threads measure, each from its own OS thread.
struct Region {
  Body fn;
  void* data;
  std::atomic<std::int64_t> total_ns{0};
  std::atomic<std::int64_t> longest_ns{0};
};

void timed_body(void* arg) {
  auto* r = static_cast<Region*>(arg);
  const std::int64_t start = thread_cpu_ns();
  r->fn(r->data);
  const std::int64_t ns = thread_cpu_ns() - start;
  r->total_ns.fetch_add(ns, std::memory_order_relaxed);
  std::int64_t longest = r->longest_ns.load(std::memory_order_relaxed);
  while (ns > longest && !r->longest_ns.compare_exchange_weak(longest, ns)) {
  }
}

// The rank's process when this region is to be charged its critical path: called from a rank's
// or a thread's own code, and not nested in another region.
runtime::Process* region_caller(const void* call_site) {
  return host_region_process() ? nullptr : fiber_caller(call_site);
}

// When the region being run started, in simulated seconds (read by omp_get_wtime inside it).
double g_region_start_s = 0;

double region_cores() {
  return hardware::Platform::instance()->compute().cpu().node().rank_cores();
}

// Runs `start(body, data)`, libgomp's real entry point with its other arguments bound, timing
// the region when a rank runs it.
template <class Start>
auto run_region(const void* call_site, Body fn, void* data, Start start) {
  runtime::Process* p = region_caller(call_site);
  if (!p) return start(fn, data);
  runtime::Scheduler& s = *runtime::Scheduler::instance();
  Region r{fn, data};
  s.pause_own_time();
  g_region_start_s = s.local_now().seconds();
  set_host_region_process(p);
  auto restore = [&] {
    set_host_region_process(nullptr);
    const double critical_ns = std::max(static_cast<double>(r.longest_ns.load()),
                                        static_cast<double>(r.total_ns.load()) / region_cores());
    s.resume_own_time(static_cast<std::int64_t>(critical_ns));
  };
  if constexpr (std::is_void_v<decltype(start(fn, data))>) {
    start(&timed_body, &r);
    restore();
  } else {
    auto result = start(&timed_body, &r);
    restore();
    return result;
  }
}

constexpr const char* kLibgomp = "libgomp.so.1";

using Parallel = void (*)(Body, void*, unsigned, unsigned);
using ParallelReductions = unsigned (*)(Body, void*, unsigned, unsigned);
using LoopChunked = void (*)(Body, void*, unsigned, long, long, long, long, unsigned);
using LoopRuntime = void (*)(Body, void*, unsigned, long, long, long, unsigned);
using Sections = void (*)(Body, void*, unsigned, unsigned, unsigned);

constinit RealFunction<Parallel> real_parallel{"GOMP_parallel", kLibgomp};
constinit RealFunction<ParallelReductions> real_parallel_reductions{"GOMP_parallel_reductions",
                                                                    kLibgomp};
constinit RealFunction<LoopChunked> real_loop_static{"GOMP_parallel_loop_static", kLibgomp};
constinit RealFunction<LoopChunked> real_loop_dynamic{"GOMP_parallel_loop_dynamic", kLibgomp};
constinit RealFunction<LoopChunked> real_loop_guided{"GOMP_parallel_loop_guided", kLibgomp};
constinit RealFunction<LoopChunked> real_loop_nonmonotonic_dynamic{
    "GOMP_parallel_loop_nonmonotonic_dynamic", kLibgomp};
constinit RealFunction<LoopChunked> real_loop_nonmonotonic_guided{
    "GOMP_parallel_loop_nonmonotonic_guided", kLibgomp};
constinit RealFunction<LoopRuntime> real_loop_runtime{"GOMP_parallel_loop_runtime", kLibgomp};
constinit RealFunction<LoopRuntime> real_loop_nonmonotonic_runtime{
    "GOMP_parallel_loop_nonmonotonic_runtime", kLibgomp};
constinit RealFunction<LoopRuntime> real_loop_maybe_nonmonotonic_runtime{
    "GOMP_parallel_loop_maybe_nonmonotonic_runtime", kLibgomp};
constinit RealFunction<Sections> real_sections{"GOMP_parallel_sections", kLibgomp};

void loop_chunked(const void* site, RealFunction<LoopChunked>& real, Body fn, void* data,
                  unsigned threads, long start, long end, long incr, long chunk, unsigned flags) {
  run_region(site, fn, data,
             [&](Body f, void* d) { real(f, d, threads, start, end, incr, chunk, flags); });
}

void loop_runtime(const void* site, RealFunction<LoopRuntime>& real, Body fn, void* data,
                  unsigned threads, long start, long end, long incr, unsigned flags) {
  run_region(site, fn, data,
             [&](Body f, void* d) { real(f, d, threads, start, end, incr, flags); });
}

}  // namespace
}  // namespace simmpi::mpi

using namespace simmpi::mpi;

extern "C" {

__attribute__((visibility("default"))) void GOMP_parallel(Body fn, void* data, unsigned threads,
                                                          unsigned flags) {
  run_region(__builtin_return_address(0), fn, data,
             [&](Body f, void* d) { real_parallel(f, d, threads, flags); });
}

__attribute__((visibility("default"))) unsigned GOMP_parallel_reductions(Body fn, void* data,
                                                                         unsigned threads,
                                                                         unsigned flags) {
  return run_region(__builtin_return_address(0), fn, data, [&](Body f, void* d) {
    return real_parallel_reductions(f, d, threads, flags);
  });
}

__attribute__((visibility("default"))) void GOMP_parallel_sections(Body fn, void* data,
                                                                   unsigned threads, unsigned count,
                                                                   unsigned flags) {
  run_region(__builtin_return_address(0), fn, data,
             [&](Body f, void* d) { real_sections(f, d, threads, count, flags); });
}

__attribute__((visibility("default"))) void GOMP_parallel_loop_static(Body fn, void* data,
                                                                      unsigned threads, long start,
                                                                      long end, long incr,
                                                                      long chunk, unsigned flags) {
  loop_chunked(__builtin_return_address(0), real_loop_static, fn, data, threads, start, end, incr,
               chunk, flags);
}

__attribute__((visibility("default"))) void GOMP_parallel_loop_dynamic(Body fn, void* data,
                                                                       unsigned threads, long start,
                                                                       long end, long incr,
                                                                       long chunk, unsigned flags) {
  loop_chunked(__builtin_return_address(0), real_loop_dynamic, fn, data, threads, start, end, incr,
               chunk, flags);
}

__attribute__((visibility("default"))) void GOMP_parallel_loop_guided(Body fn, void* data,
                                                                      unsigned threads, long start,
                                                                      long end, long incr,
                                                                      long chunk, unsigned flags) {
  loop_chunked(__builtin_return_address(0), real_loop_guided, fn, data, threads, start, end, incr,
               chunk, flags);
}

__attribute__((visibility("default"))) void GOMP_parallel_loop_nonmonotonic_dynamic(
    Body fn, void* data, unsigned threads, long start, long end, long incr, long chunk,
    unsigned flags) {
  loop_chunked(__builtin_return_address(0), real_loop_nonmonotonic_dynamic, fn, data, threads,
               start, end, incr, chunk, flags);
}

__attribute__((visibility("default"))) void GOMP_parallel_loop_nonmonotonic_guided(
    Body fn, void* data, unsigned threads, long start, long end, long incr, long chunk,
    unsigned flags) {
  loop_chunked(__builtin_return_address(0), real_loop_nonmonotonic_guided, fn, data, threads, start,
               end, incr, chunk, flags);
}

__attribute__((visibility("default"))) void GOMP_parallel_loop_runtime(Body fn, void* data,
                                                                       unsigned threads, long start,
                                                                       long end, long incr,
                                                                       unsigned flags) {
  loop_runtime(__builtin_return_address(0), real_loop_runtime, fn, data, threads, start, end, incr,
               flags);
}

__attribute__((visibility("default"))) void GOMP_parallel_loop_nonmonotonic_runtime(
    Body fn, void* data, unsigned threads, long start, long end, long incr, unsigned flags) {
  loop_runtime(__builtin_return_address(0), real_loop_nonmonotonic_runtime, fn, data, threads,
               start, end, incr, flags);
}

__attribute__((visibility("default"))) void GOMP_parallel_loop_maybe_nonmonotonic_runtime(
    Body fn, void* data, unsigned threads, long start, long end, long incr, unsigned flags) {
  loop_runtime(__builtin_return_address(0), real_loop_maybe_nonmonotonic_runtime, fn, data, threads,
               start, end, incr, flags);
}

// In a rank's code: simulated time, as MPI_Wtime. Inside a region (the threads of its team are
// real OS threads, which must not touch the scheduler): the time at which the region started.
__attribute__((visibility("default"))) double omp_get_wtime() {
  simmpi::runtime::Process* p =
      host_region_process() ? nullptr : fiber_caller(__builtin_return_address(0));
  if (!p) return g_region_start_s;
  FiberCall call(*p, "omp_get_wtime");
  World& w = World::get();
  w.spend(w.params().poll_cost);
  return w.now().seconds();
}

}  // extern "C"
