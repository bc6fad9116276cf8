// SPDX-License-Identifier: Apache-2.0
// Charging compute tasks to the calling rank.
#include "libsimblas/core/charge.hpp"

#include "hardware/compute/compute_model.hpp"
#include "hardware/platform.hpp"
#include "runtime/core/error.hpp"
#include "runtime/sched/scheduler.hpp"

namespace simmpi::blas {
namespace {

std::optional<Mode> g_outside_mode;
TaskObserver g_observer = nullptr;
void* g_observer_ctx = nullptr;
std::uint64_t g_stand_in_calls = 0;
DeviceTarget* g_device_target = nullptr;

// splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", 2014).
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

hardware::ComputeModel* running_model() {
  auto* s = runtime::Scheduler::instance();
  auto* p = hardware::Platform::instance();
  return s && s->current() && p ? &p->compute() : nullptr;
}

int calling_node() {
  auto* s = runtime::Scheduler::instance();
  auto* p = hardware::Platform::instance();
  return s && s->current() && p ? p->node_of(s->current()->id()) : -1;
}

Charged::~Charged() {
  if (auto* s = runtime::Scheduler::instance()) s->leave_library();
}

Charged charge(const hardware::ComputeTask& task) {
  runtime::Scheduler* s = runtime::Scheduler::instance();
  if (s) s->enter_library();  // balanced by ~Charged
  if (g_observer) g_observer(task, g_observer_ctx);
  if (g_device_target) return Charged(g_device_target->charge(task));
  hardware::ComputeModel* model = running_model();
  if (!model) return Charged(g_outside_mode.value_or(Mode::Execute) == Mode::Execute);
  s->sleep_until(s->engine().now() + model->cpu().time(task));
  return Charged(model->executes_kernels());
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
