// SPDX-License-Identifier: Apache-2.0
// Shared by the SimBLAS tests: a recorder of the tasks routines charge, and a scope that runs
// routines in model or execute mode outside a simulation.
#pragma once

#include <vector>

#include "hardware/compute/compute_task.hpp"
#include "libsimblas/core/charge.hpp"

namespace simmpi::blas::testing {

class TaskRecorder {
 public:
  explicit TaskRecorder(Mode mode) {
    set_mode_outside_simulation(mode);
    set_task_observer([](const hardware::ComputeTask& t,
                         void* self) { static_cast<TaskRecorder*>(self)->tasks.push_back(t); },
                      this);
  }
  ~TaskRecorder() {
    set_task_observer(nullptr, nullptr);
    set_mode_outside_simulation(std::nullopt);
  }
  // The one task charged since the last call; fails the test if there was not exactly one.
  hardware::ComputeTask only();
  std::vector<hardware::ComputeTask> tasks;
};

}  // namespace simmpi::blas::testing
