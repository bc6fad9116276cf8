// SPDX-License-Identifier: Apache-2.0
// Charging compute tasks to the calling rank.
#include "libsimblas/core/charge.hpp"

#include <map>
#include <string>
#include <vector>

#include "hardware/compute/compute_model.hpp"
#include "hardware/platform.hpp"
#include "runtime/core/error.hpp"
#include "runtime/observe/observation.hpp"
#include "runtime/sched/scheduler.hpp"

namespace simmpi::blas {
namespace {

std::optional<Mode> g_outside_mode;
TaskObserver g_observer = nullptr;
void* g_observer_ctx = nullptr;
std::uint64_t g_stand_in_calls = 0;
DeviceTarget* g_device_target = nullptr;
// Per process id: the time deferred so far, or -1 ps when the process does not defer.
std::vector<runtime::SimTime> g_deferred;

// libsimmpi.so, which carries libsimblas, is loaded on the thread that runs the simulation.
const void* const g_simulation_thread = __builtin_thread_pointer();

// The scheduler, or nullptr on another OS thread (an OpenMP region's worker), which must never
// touch it: a BLAS call there is part of the region's host code (see docs/threads.md).
bool on_simulation_thread() {
  return __builtin_thread_pointer() == g_simulation_thread;
}

runtime::Scheduler* scheduler() {
  return on_simulation_thread() ? runtime::Scheduler::instance() : nullptr;
}

runtime::SimTime* deferred_of(runtime::Process* p) {
  if (!p || static_cast<std::size_t>(p->id()) >= g_deferred.size()) return nullptr;
  runtime::SimTime& t = g_deferred[static_cast<std::size_t>(p->id())];
  return t < runtime::SimTime() ? nullptr : &t;
}

// splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", 2014).
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

void tell_compute(const hardware::ComputeTask* task, runtime::SimTime t) {
  runtime::Scheduler* s = scheduler();
  runtime::Process* p = s ? s->current() : nullptr;
  // Only a program process's own code: a task charged inside an MPI call is part of the call.
  if (!p || p->ordinal() < 0 || p->current_call || !runtime::Observation::wants_records()) return;
  runtime::ComputeFacts f;
  f.process = p->id();
  f.rank = p->owner();
  f.ordinal = p->ordinal();
  if (task) {
    // Names live as long as the run: the observers keep the pointer.
    static std::map<int, std::string> names;
    f.kernel = static_cast<int>(task->kernel) * 2 + static_cast<int>(task->precision);
    auto [it, added] = names.try_emplace(f.kernel);
    if (added) it->second = hardware::kernel_name(task->kernel, task->precision);
    f.kernel_name = it->second.c_str();
    f.ops = task->ops;
    f.bytes = task->bytes;
    f.m = task->dims[0];
    f.n = task->dims[1];
    f.k = task->dims[2];
  }
  f.time = t;
  runtime::Observation::compute(f);
}

bool computes_results() {
  hardware::ComputeModel* model = running_model();
  return model ? model->executes_kernels()
               : g_outside_mode.value_or(Mode::Execute) == Mode::Execute;
}

hardware::ComputeModel* running_model() {
  auto* s = scheduler();
  auto* p = hardware::Platform::instance();
  return s && s->current() && p ? &p->compute() : nullptr;
}

int calling_node() {
  auto* s = scheduler();
  auto* p = hardware::Platform::instance();
  return s && s->current() && p ? p->node_of(s->current()->owner()) : -1;
}

Charged::~Charged() {
  if (auto* s = scheduler()) s->leave_library();
}

Charged charge(const hardware::ComputeTask& task) {
  runtime::Scheduler* s = scheduler();
  if (!on_simulation_thread() && hardware::Platform::instance())  // computed as the mode says
    return Charged(hardware::Platform::instance()->compute().executes_kernels());
  if (s) s->enter_library();  // balanced by ~Charged
  if (g_observer) g_observer(task, g_observer_ctx);
  if (g_device_target) {
    if (s) s->settle();  // the stream's work starts at the rank's own time
    return Charged(g_device_target->charge(task));
  }
  hardware::ComputeModel* model = running_model();
  if (!model) return Charged(computes_results());
  const runtime::SimTime t = model->cpu().time(task);
  if (runtime::SimTime* deferred = deferred_of(s->current())) {
    *deferred += t;
    return Charged(model->executes_kernels());
  }
  if (runtime::Observation::wants_records()) tell_compute(&task, t);
  if (model->executes_kernels()) {
    s->settle();  // the result appears when its time has passed, as on a real machine
    s->sleep_until(s->engine().now() + t);
  } else {
    s->sleep_lazily(t);  // model mode touches no data: nothing can see the time pass
  }
  return Charged(model->executes_kernels());
}

bool defer_begin() {
  runtime::Scheduler* s = scheduler();
  if (!s || !s->current()) return true;  // outside a rank charges cost nothing anyway
  if (deferred_of(s->current())) return false;
  const auto id = static_cast<std::size_t>(s->current()->id());
  if (g_deferred.size() <= id) g_deferred.resize(id + 1, runtime::SimTime::from_ps(-1));
  g_deferred[id] = runtime::SimTime();
  return true;
}

runtime::SimTime deferred() {
  runtime::Scheduler* s = scheduler();
  runtime::SimTime* deferred = deferred_of(s ? s->current() : nullptr);
  return deferred ? *deferred : runtime::SimTime();
}

runtime::SimTime defer_end() {
  runtime::Scheduler* s = scheduler();
  runtime::SimTime* deferred = deferred_of(s ? s->current() : nullptr);
  if (!deferred) return runtime::SimTime();
  runtime::SimTime total = *deferred;
  *deferred = runtime::SimTime::from_ps(-1);
  return total;
}

std::int64_t stand_in_index(std::int64_t n) {
  // Inside a simulation the sequence belongs to its model, so each run starts it afresh.
  hardware::ComputeModel* model = running_model();
  std::uint64_t seed = model ? model->seed() : 1;
  std::uint64_t draw = model ? model->next_draw() : g_stand_in_calls++;
  std::uint64_t r = mix(mix(seed) ^ draw);
  return static_cast<std::int64_t>(r % static_cast<std::uint64_t>(n));
}

ScopedDeviceTarget::ScopedDeviceTarget(DeviceTarget& target) {
  SIMMPI_ASSERT(!g_device_target, "device targets do not nest");
  g_device_target = &target;
}

ScopedDeviceTarget::~ScopedDeviceTarget() {
  g_device_target = nullptr;
}

void set_mode_outside_simulation(std::optional<Mode> mode) {
  g_outside_mode = mode;
}

void set_task_observer(TaskObserver observer, void* ctx) {
  g_observer = observer;
  g_observer_ctx = ctx;
}

}  // namespace simmpi::blas
