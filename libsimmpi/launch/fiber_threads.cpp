// SPDX-License-Identifier: Apache-2.0
// Helpers shared by the pthread, semaphore and OpenMP interposers (see fiber_threads.hpp).
#include "libsimmpi/launch/fiber_threads.hpp"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstdint>

#include "libsimmpi/core/world.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {

// libsimmpi.so is loaded, and its initializers run, on the thread that later runs the
// simulation (the program's main thread).
const void* const g_simulation_thread = __builtin_thread_pointer();

namespace {

runtime::Process* g_host_region = nullptr;

// The addresses libsimmpi.so is loaded at (looked up on first use, on the simulation's thread).
std::uintptr_t g_own_begin = 0, g_own_end = 0;

int note_own_segments(dl_phdr_info* info, std::size_t, void* base) {
  if (reinterpret_cast<void*>(info->dlpi_addr) != base) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    const std::uintptr_t b = info->dlpi_addr + ph.p_vaddr;
    if (g_own_begin == 0 || b < g_own_begin) g_own_begin = b;
    g_own_end = std::max<std::uintptr_t>(g_own_end, b + ph.p_memsz);
  }
  return 1;
}

bool is_own_code(const void* address) {
  if (g_own_end == 0) {
    Dl_info self{};
    dladdr(reinterpret_cast<void*>(&note_own_segments), &self);
    dl_iterate_phdr(&note_own_segments, self.dli_fbase);
    SIMMPI_ASSERT(g_own_end != 0, "libsimmpi.so's segments were not found");
  }
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  return a >= g_own_begin && a < g_own_end;
}

}  // namespace

runtime::Process* fiber_caller(const void* call_site) {
  if (!on_simulation_thread() || is_own_code(call_site)) return nullptr;
  runtime::Scheduler* s = runtime::Scheduler::instance();
  runtime::Process* p = s ? s->current() : nullptr;
  // Inside an MPI call (a user reduction, an error handler) the program's code is the library's
  // guest; its pthread calls are the real ones, as they never need to wait for another fiber.
  if (!p || p->current_call || p->ordinal() < 0 || p == g_host_region || !World::exists())
    return nullptr;
  return p;
}

int program_rank() {
  auto* s = runtime::Scheduler::instance();
  if (!on_simulation_thread() || !s || !s->current() || s->current() == g_host_region ||
      !World::exists())
    return -1;
  return s->current()->owner();
}

runtime::Process* host_region_process() {
  return g_host_region;
}

void set_host_region_process(runtime::Process* p) {
  g_host_region = p;
}

FiberCall::FiberCall(runtime::Process& p, const char* name)
    : sched(*runtime::Scheduler::instance()), process(p), library_(sched, name) {
  sched.settle();
}

runtime::SimTime deadline_of(const timespec& abstime, clockid_t clock) {
  std::int64_t s = abstime.tv_sec;
  if (clock == CLOCK_REALTIME) s -= World::get().params().epoch_s;
  if (s < 0) return runtime::SimTime();
  constexpr std::int64_t kMaxSeconds = INT64_MAX / 1000000000000LL - 1;
  if (s >= kMaxSeconds) return runtime::SimTime::max();
  return runtime::SimTime::from_ps(s * 1000000000000LL + abstime.tv_nsec * 1000LL);
}

std::string process_name(int process_id) {
  return runtime::Scheduler::instance()->process(process_id).name();
}

}  // namespace simmpi::mpi
