// SPDX-License-Identifier: Apache-2.0
// GPU roofline, link and device timeline.
#include "hardware/compute/gpu_model.hpp"

#include <algorithm>

#include "hardware/compute/cpu_model.hpp"
#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {

GpuSpec GpuSpec::from_config(const runtime::Config& c) {
  GpuSpec g;
  g.count = static_cast<int>(c.integer("gpu.count"));
  g.peak_flops = c.flop_rate("gpu.peak_flops");
  g.sp_peak_flops = c.flop_rate("gpu.sp_peak_flops");
  g.memory_Bps = c.bandwidth_Bps("gpu.memory_bw");
  g.memory_bytes = c.size_bytes("gpu.memory");
  g.launch_latency = c.time("gpu.launch_latency");
  g.link_Bps = c.bandwidth_Bps("gpu.link_bw");
  g.link_latency = c.time("gpu.link_latency");
  g.validate();
  return g;
}

void GpuSpec::validate() const {
  if (count == 0) return;
  auto require = [](bool ok, const char* key, const char* example) {
    if (!ok)
      throw ConfigError(
          strprintf("%s must be positive when gpu.count > 0 (a zero peak would "
                    "make every GPU call take no or infinite time); e.g. %s",
                    key, example));
  };
  require(peak_flops > 0, "gpu.peak_flops", "\"67Tflops\"");
  require(sp_peak_flops > 0, "gpu.sp_peak_flops", "\"134Tflops\"");
  require(memory_Bps > 0, "gpu.memory_bw", "\"3.35TB/s\"");
  require(memory_bytes > 0, "gpu.memory", "\"80GiB\"");
  require(link_Bps > 0, "gpu.link_bw", "\"64GB/s\"");
}

GpuModel::GpuModel(const GpuSpec& spec, std::shared_ptr<const EfficiencyProfile> profile)
    : spec_(spec), profile_(std::move(profile)) {
  spec_.validate();
}

runtime::SimTime GpuModel::kernel_time(const ComputeTask& task) const {
  if (task.ops <= 0 && task.bytes <= 0) return {};
  SIMMPI_ASSERT(spec_.count > 0, "a GPU kernel was timed on a node without GPUs");
  EfficiencyClass e = efficiency_for(profile_.get(), Device::Gpu, task, warned_, warned_mutex_);
  double peak = task.precision == Precision::Single ? spec_.sp_peak_flops : spec_.peak_flops;
  double t_ops = task.ops / peak, t_bytes = task.bytes / spec_.memory_Bps;
  double t = bound_of(task.kernel) == Bound::Memory ? std::max(t_bytes / e.efficiency, t_ops)
                                                    : std::max(t_ops / e.efficiency, t_bytes);
  return runtime::SimTime::from_seconds(t + e.overhead_s);
}

runtime::SimTime GpuModel::copy_time(std::uint64_t bytes, CopyKind kind) const {
  auto b = static_cast<double>(bytes);
  if (kind == CopyKind::DeviceToDevice) return runtime::transfer_time(2 * b, spec_.memory_Bps);
  return spec_.link_latency + runtime::transfer_time(b, spec_.link_Bps);
}

runtime::SimTime GpuDevice::occupy(Engine engine, runtime::SimTime earliest,
                                   runtime::SimTime duration) {
  runtime::SimTime& free_at = free_at_[static_cast<int>(engine)];
  runtime::SimTime start = runtime::max(free_at, earliest);
  free_at = start + duration;
  return free_at;
}

bool GpuDevice::reserve(std::uint64_t bytes, std::uint64_t capacity) {
  if (bytes > capacity || used_bytes_ > capacity - bytes) return false;
  used_bytes_ += bytes;
  return true;
}

void GpuDevice::release(std::uint64_t bytes) {
  SIMMPI_ASSERT(bytes <= used_bytes_, "GPU memory released (%llu B) exceeds what is in use",
                static_cast<unsigned long long>(bytes));
  used_bytes_ -= bytes;
}

}  // namespace simmpi::hardware
