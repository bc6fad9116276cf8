// SPDX-License-Identifier: Apache-2.0
// The compute side of the machine, owned by Platform: the CPU roofline of a rank, the GPU
// model and each node's GPU timelines, and the run's choice of whether compute tasks also
// produce their results (blas.mode). Times only: nothing here knows MPI, fibers or BLAS.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "hardware/compute/cpu_model.hpp"
#include "hardware/compute/gpu_model.hpp"

namespace simmpi::runtime {
class Config;
}

namespace simmpi::hardware {

class ComputeModel {
 public:
  // Reads the node.*, gpu.* and blas.* keys and loads blas.profile (a relative path is taken
  // relative to the platform file that set it). Throws ConfigError on a bad value or profile.
  explicit ComputeModel(const runtime::Config& config);
  ComputeModel(const NodeSpec& node, const GpuSpec& gpu,
               std::shared_ptr<const EfficiencyProfile> profile, bool execute, std::uint64_t seed);

  const CpuModel& cpu() const { return cpu_; }
  const GpuModel& gpu() const { return gpu_; }
  // Timeline of device `index` (< gpu().spec().count) of `node`, created on first use.
  GpuDevice& gpu_device(int node, int index);
  // blas.mode = execute: compute tasks also compute their results.
  bool executes_kernels() const { return execute_; }
  // runtime.seed, for the deterministic stand-ins of data-dependent results in model mode.
  std::uint64_t seed() const { return seed_; }
  // Distinguishes the models of successive simulations in one process (tests run several);
  // layers that keep per-run state reset it when this changes.
  std::uint64_t serial() const { return serial_; }
  // Counts the run's pseudo-random draws (0, 1, 2...): with seed(), the next draw's input.
  std::uint64_t next_draw() { return draws_++; }
  // The loaded profile, or nullptr when blas.profile is empty.
  const EfficiencyProfile* profile() const { return profile_.get(); }

 private:
  std::shared_ptr<const EfficiencyProfile> profile_;
  CpuModel cpu_;
  GpuModel gpu_;
  bool execute_;
  std::uint64_t seed_;
  std::uint64_t draws_ = 0;
  std::uint64_t serial_;
  std::unordered_map<std::int64_t, GpuDevice> devices_;
};

// The path blas.profile names, resolved against the directory of the platform file it came
// from (its origin "dir/p.toml:12"); unchanged when absolute or set on the command line.
std::string resolve_profile_path(const std::string& path, const std::string& origin);

}  // namespace simmpi::hardware
