// SPDX-License-Identifier: Apache-2.0
// Sets up how the program's own code is charged (runtime.host_time*) from the configuration, the
// node and the host, and says in the run's summary what it amounted to.
#pragma once

#include <memory>
#include <string>

#include "hardware/compute/cpu_model.hpp"
#include "hardware/compute/host_model.hpp"
#include "runtime/config/config.hpp"
#include "runtime/host_time/own_time.hpp"
#include "runtime/sched/scheduler.hpp"

namespace simmpi::mpi {

struct LaunchOptions;

// What the summary says of the own code's charge.
struct OwnTimeNote {
  std::string ratio_text;  // e.g. "x1.106 (clock: host 2.99 GHz / node 2.70 GHz; flops ...)"
  std::string replayed_from;
};

// The OwnTime for this run, or nullptr with runtime.host_time = ignore. Throws ConfigError for
// a bad key, an unusable host calibration or a compute profile recorded for another run.
std::unique_ptr<runtime::OwnTime> make_own_time(const runtime::Config& config,
                                                const hardware::NodeSpec& node,
                                                const LaunchOptions& o, OwnTimeNote& note);

// The summary's lines on the program's own code (nothing when it was not charged).
void print_own_time_summary(runtime::Scheduler& sched, const OwnTimeNote& note);

}  // namespace simmpi::mpi
