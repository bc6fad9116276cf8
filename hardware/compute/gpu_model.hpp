// SPDX-License-Identifier: Apache-2.0
// GPU model: each node has gpu.count identical devices. A device kernel is timed by the same
// roofline as the CPU (peak flops and HBM bandwidth of the device, efficiency and overhead from
// the profile's [gpu.<kernel>] entries); a host-device copy costs the link's latency plus bytes
// over its bandwidth (PCIe or NVLink: only the numbers differ).
//
// A GpuDevice is the device's timeline: one compute engine that runs kernels one after another
// (a BLAS kernel fills the device), and one copy engine per direction, so copies overlap
// kernels and each other only across directions, as on devices with two DMA engines. Callers
// (the CUDA layer) add stream order on top.
#pragma once

#include <cstdint>
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

struct GpuSpec {
  int count = 0;          // devices per node
  double peak_flops = 0;  // double precision, per device
  double sp_peak_flops = 0;
  double memory_Bps = 0;  // HBM
  std::uint64_t memory_bytes = 0;
  runtime::SimTime launch_latency;
  double link_Bps = 0;  // host <-> device, each direction
  runtime::SimTime link_latency;

  static GpuSpec from_config(const runtime::Config& config);
  // Throws ConfigError when devices exist but a peak or bandwidth is not positive.
  void validate() const;
};

enum class CopyKind { HostToDevice, DeviceToHost, DeviceToDevice };

class GpuModel {
 public:
  GpuModel(const GpuSpec& spec, std::shared_ptr<const EfficiencyProfile> profile);
  const GpuSpec& spec() const { return spec_; }
  // Device time of a kernel (without the launch latency, which the host pays).
  runtime::SimTime kernel_time(const ComputeTask& task) const;
  // Time a copy occupies its engine: link latency + bytes / link bandwidth, or for a copy
  // inside a device, reading and writing HBM.
  runtime::SimTime copy_time(std::uint64_t bytes, CopyKind kind) const;

 private:
  GpuSpec spec_;
  std::shared_ptr<const EfficiencyProfile> profile_;
  mutable std::mutex warned_mutex_;
  mutable std::set<std::string> warned_;
};

class GpuDevice {
 public:
  enum class Engine { Compute, HostToDevice, DeviceToHost };
  // Runs work of `duration` on `engine` as soon as the engine is free and `earliest` has come;
  // returns when it ends.
  runtime::SimTime occupy(Engine engine, runtime::SimTime earliest, runtime::SimTime duration);
  // Device memory bookkeeping; reserve() is false when `bytes` does not fit in `capacity`.
  bool reserve(std::uint64_t bytes, std::uint64_t capacity);
  void release(std::uint64_t bytes);
  std::uint64_t used_bytes() const { return used_bytes_; }

 private:
  runtime::SimTime free_at_[3];
  std::uint64_t used_bytes_ = 0;
};

}  // namespace simmpi::hardware
