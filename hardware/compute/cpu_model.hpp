// SPDX-License-Identifier: Apache-2.0
// Roofline model of one rank's share of a CPU node (Williams, Waterman, Patterson, "Roofline",
// CACM 52(4), 2009), with per-kernel efficiencies from a calibration profile:
//   compute-bound kernels  t = max(ops / (P * e), bytes / B) + theta
//   memory-bound kernels   t = max(bytes / (B * e), ops / P) + theta
//   generic code           t = max(ops / (P_scalar * e), bytes / (B * e)) + theta
// P is the rank's peak (cores of the rank x vector clock x flops per cycle; single precision
// doubles it), B its memory bandwidth, e and theta the profile's efficiency and overhead for
// the kernel and size class (e = 1, theta = 0 without an entry: the roofline bound itself).
// The max with the other roofline term keeps a call from ever beating the bound.
#pragma once

#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "hardware/compute/compute_task.hpp"
#include "hardware/compute/efficiency_profile.hpp"
#include "runtime/core/sim_time.hpp"

namespace simmpi::runtime {
class Config;
}

namespace simmpi::hardware {

// The node as the node.* keys describe it, and one rank's share of it.
struct NodeSpec {
  int sockets = 1;
  int cores_per_socket = 1;
  double frequency_hz = 0;         // clock of scalar code
  double vector_frequency_hz = 0;  // clock under AVX/AVX-512 load (dense kernels)
  double flops_per_cycle = 0;      // double-precision flops per core per cycle
  double memory_Bps = 0;           // whole node
  double core_memory_Bps = 0;      // what one core can draw alone
  int ranks_per_node = 1;
  int cores_per_rank = 1;

  static NodeSpec from_config(const runtime::Config& config);
  // Throws ConfigError when a peak or bandwidth is not positive.
  void validate() const;
  int cores() const { return sockets * cores_per_socket; }
  // Cores a rank computes with: cores_per_rank, less when ranks_per_node * cores_per_rank
  // oversubscribes the node (then the node's cores are time-shared evenly).
  double rank_cores() const;
  // Peak of one rank for dense vector kernels (vector clock) or for generic code.
  double rank_peak_flops(Precision p, bool vector_clock = true) const;
  // min(node bandwidth / ranks_per_node, rank_cores * core bandwidth): one core cannot draw the
  // whole node's bandwidth, and ranks on a node share it.
  double rank_memory_Bps() const;
};

class CpuModel {
 public:
  // `profile` may be null: then every kernel runs at its roofline bound without warning. With a
  // profile, a kernel missing from it falls back to the bound and warns once.
  CpuModel(const NodeSpec& node, std::shared_ptr<const EfficiencyProfile> profile);

  const NodeSpec& node() const { return node_; }
  // Time of `task` on one rank. Thread-compatible; warns on stderr once per missing kernel.
  runtime::SimTime time(const ComputeTask& task) const;
  // The same in seconds, unrounded (the calibration tool compares against measurements).
  double seconds(const ComputeTask& task) const;

 private:
  NodeSpec node_;
  std::shared_ptr<const EfficiencyProfile> profile_;
  mutable std::mutex warned_mutex_;
  mutable std::set<std::string> warned_;
};

// Looks up `task` in `profile` for `device`; when absent from a (non-null) profile, warns once
// per kernel (recorded in `warned`) and returns the bound's class (efficiency 1, overhead 0).
EfficiencyClass efficiency_for(const EfficiencyProfile* profile, Device device,
                               const ComputeTask& task, std::set<std::string>& warned,
                               std::mutex& warned_mutex);

}  // namespace simmpi::hardware
