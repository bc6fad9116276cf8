// SPDX-License-Identifier: Apache-2.0
// The one path every SimBLAS, LAPACK and SIMMPI_COMPUTE call takes:
//
//     if (charge(task)) compute the result;
//
// charge() lets the modeled time of `task` pass for the calling rank (the node's CPU model,
// through the scheduler) and says whether the call must also produce its result: always outside
// a simulation (the calibration tool, unit tests), and inside one when blas.mode = execute.
// In model mode the caller touches no operand and returns the deterministic stand-ins below
// where a result steers the program's control flow; and a call's time never depends on the
// values it is given, scalars included: they may come from meaningless (folded) data, as
// HPL's DAXPY alphas do.
#pragma once

#include <cstdint>
#include <optional>

#include "hardware/compute/compute_task.hpp"
#include "runtime/core/sim_time.hpp"

namespace simmpi::hardware {
class ComputeModel;
}

namespace simmpi::blas {

// What charge() returns: true when the caller must compute the result. While it lives the call
// counts as library time, not the program's own (runtime.host_time = measure), so keep it until
// the computation is done:   if (auto charged = charge(task)) compute...;
class [[nodiscard]] Charged {
 public:
  explicit Charged(bool execute) : execute_(execute) {}
  ~Charged();
  Charged(const Charged&) = delete;
  Charged& operator=(const Charged&) = delete;
  explicit operator bool() const { return execute_; }

 private:
  bool execute_;
};

// Charges `task` to the calling rank; may yield (switch fibers) while simulated time passes.
// Inside a ScopedDeviceTarget the task goes to that device (a cuBLAS call's stream) instead,
// without yielding.
Charged charge(const hardware::ComputeTask& task);

// Deferred charging: between defer_begin() and defer_end() the calling process's charges add up
// instead of letting time pass, so a model can replace many small charges (each a possible
// switch) by one sleep of their total. Per process; other processes are unaffected. Returns
// false, changing nothing, when the calling process already defers (deferrals do not nest).
bool defer_begin();
// The time the calling process's charges added up to so far (zero when it does not defer).
runtime::SimTime deferred();
// Ends the calling process's deferral and returns the time its charges added up to.
runtime::SimTime defer_end();

// Where the tasks of one cuBLAS call go: the call runs the same routine (checks, cost,
// execution) as the CPU interfaces, with its tasks enqueued on a GPU stream.
class DeviceTarget {
 public:
  virtual ~DeviceTarget() = default;
  // Enqueues `task`; must not yield. Returns true when the caller must compute the result.
  virtual bool charge(const hardware::ComputeTask& task) = 0;
};
// Routes charge() to `target` for its lifetime. Must not be nested, nor span a yield: the
// target belongs to the rank that set it.
class ScopedDeviceTarget {
 public:
  explicit ScopedDeviceTarget(DeviceTarget& target);
  ~ScopedDeviceTarget();
  ScopedDeviceTarget(const ScopedDeviceTarget&) = delete;
  ScopedDeviceTarget& operator=(const ScopedDeviceTarget&) = delete;
};

// Tells the run's observers (the call trace) that the calling process's own code spent `t`:
// on `task`, or on nothing the model can retime (task nullptr: SIMMPI_SLEEP). Nothing inside an
// MPI call or outside a program process.
void tell_compute(const hardware::ComputeTask* task, runtime::SimTime t);

// Whether calls produce their results now: outside a simulation, or with blas.mode = execute.
bool computes_results();
// The compute model of the running simulation, or nullptr outside one (or outside a rank).
hardware::ComputeModel* running_model();
// The calling rank's node, or -1 outside a rank.
int calling_node();

// Model-mode stand-in for a data-dependent index: a pseudo-random value in [0, n) drawn from
// runtime.seed and a call counter, so runs are identical. n > 0.
std::int64_t stand_in_index(std::int64_t n);

// --- hooks for tests and tools (not for applications) ---
enum class Mode { Model, Execute };
// Outside a simulation calls execute; a test may force a mode there. nullopt restores it.
void set_mode_outside_simulation(std::optional<Mode> mode);
// Called with every task charged, inside or outside a simulation; nullptr removes it.
using TaskObserver = void (*)(const hardware::ComputeTask& task, void* ctx);
void set_task_observer(TaskObserver observer, void* ctx);

}  // namespace simmpi::blas
