// SPDX-License-Identifier: Apache-2.0
// A small simulation for tests: a platform from --set style settings and ranks that run a
// test body as fibers, so SimBLAS calls are charged as in a real run.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hardware/platform.hpp"
#include "runtime/config/config.hpp"
#include "runtime/privatize/program_image.hpp"
#include "runtime/sched/scheduler.hpp"

namespace simmpi::blas::testing {

class Sim {
 public:
  explicit Sim(const std::vector<std::string>& settings, int ranks = 1) : ranks_(ranks) {
    for (const std::string& s : settings) config_.set(s);
    platform_ = std::make_unique<hardware::Platform>(engine_, ranks, config_);
  }
  // Runs body(rank) on every rank; returns when all have finished.
  void run(std::function<void(int)> body) {
    body_ = std::move(body);
    runtime::Scheduler sched(
        engine_, ranks_, runtime::Scheduler::Options{256 * 1024, 4},
        runtime::make_privatizer("none", runtime::ProgramImage::instance(), ranks_));
    for (int r = 0; r < ranks_; ++r) sched.spawn(r, &Sim::entry, this);
    sched.run();
  }
  // Simulated seconds since the start of the run (inside a rank).
  // The calling rank's time (its lazily charged computations included), or the engine's.
  double now_s() const {
    runtime::Scheduler::instance()->settle();
    return engine_.now().seconds();
  }
  hardware::Platform& platform() { return *platform_; }

 private:
  static void entry(void* self) {
    auto* s = static_cast<Sim*>(self);
    s->body_(runtime::Scheduler::instance()->current()->id());
  }
  int ranks_;
  runtime::Engine engine_;
  runtime::Config config_;
  std::unique_ptr<hardware::Platform> platform_;
  std::function<void(int)> body_;
};

}  // namespace simmpi::blas::testing
