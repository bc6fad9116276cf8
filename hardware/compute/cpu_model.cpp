// SPDX-License-Identifier: Apache-2.0
// The CPU roofline model and the node description it is built from.
#include "hardware/compute/cpu_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::hardware {

NodeSpec NodeSpec::from_config(const runtime::Config& c) {
  NodeSpec n;
  n.sockets = static_cast<int>(c.integer("node.sockets"));
  n.cores_per_socket = static_cast<int>(c.integer("node.cores_per_socket"));
  n.frequency_hz = c.frequency_hz("node.frequency");
  double avx = c.frequency_hz("node.avx512_frequency");
  n.vector_frequency_hz = avx > 0 ? avx : n.frequency_hz;
  n.flops_per_cycle = c.real("node.flops_per_cycle");
  n.memory_Bps = c.bandwidth_Bps("node.memory_bw");
  n.core_memory_Bps = c.bandwidth_Bps("node.core_memory_bw");
  n.ranks_per_node = static_cast<int>(c.integer("node.ranks_per_node"));
  n.cores_per_rank = static_cast<int>(c.integer("node.cores_per_rank"));
  n.validate();
  return n;
}

void NodeSpec::validate() const {
  auto require = [](bool ok, const char* what, double v, const char* fix) {
    if (!ok)
      throw ConfigError(
          strprintf("%s = %g: must be positive, or every computation would take "
                    "no (or infinite) time; %s",
                    what, v, fix));
  };
  require(sockets > 0, "node.sockets", sockets, "e.g. 2");
  require(cores_per_socket > 0, "node.cores_per_socket", cores_per_socket, "e.g. 28");
  require(cores_per_rank > 0, "node.cores_per_rank", cores_per_rank, "e.g. 1");
  require(ranks_per_node > 0, "node.ranks_per_node", ranks_per_node, "e.g. 1");
  require(frequency_hz > 0, "node.frequency", frequency_hz, "e.g. \"2.7GHz\"");
  require(vector_frequency_hz > 0, "node.avx512_frequency", vector_frequency_hz, "e.g. \"1.8GHz\"");
  require(flops_per_cycle > 0 && std::isfinite(flops_per_cycle), "node.flops_per_cycle",
          flops_per_cycle, "e.g. 32 for two AVX-512 FMA units");
  require(memory_Bps > 0, "node.memory_bw", memory_Bps, "e.g. \"200GB/s\"");
  require(core_memory_Bps > 0, "node.core_memory_bw", core_memory_Bps, "e.g. \"12GB/s\"");
}

double NodeSpec::rank_cores() const {
  return std::min<double>(cores_per_rank, static_cast<double>(cores()) / ranks_per_node);
}

double NodeSpec::rank_peak_flops(Precision p, bool vector_clock) const {
  double f = vector_clock ? vector_frequency_hz : frequency_hz;
  return rank_cores() * f * flops_per_cycle * (p == Precision::Single ? 2.0 : 1.0);
}

double NodeSpec::rank_memory_Bps() const {
  return std::min(memory_Bps / ranks_per_node, rank_cores() * core_memory_Bps);
}

EfficiencyClass efficiency_for(const EfficiencyProfile* profile, Device device,
                               const ComputeTask& task, std::set<std::string>& warned,
                               std::mutex& warned_mutex) {
  if (!profile) return EfficiencyClass{};
  KernelId id{task.kernel, task.precision};
  if (const EfficiencyClass* c = profile->find(device, id, task.size())) return *c;
  std::string name = std::string(device == Device::Cpu ? "cpu." : "gpu.") +
                     kernel_name(task.kernel, task.precision);
  std::lock_guard<std::mutex> lock(warned_mutex);
  if (warned.insert(name).second)
    std::fprintf(stderr,
                 "simmpi: warning: compute profile %s has no entry for kernel %s; it runs at its "
                 "roofline bound (efficiency 1, no overhead). Calibrate it with "
                 "simmpi-calibrate or add [%s] to the profile.\n",
                 profile->source().c_str(), name.c_str(), name.c_str());
  return EfficiencyClass{};
}

CpuModel::CpuModel(const NodeSpec& node, std::shared_ptr<const EfficiencyProfile> profile)
    : node_(node), profile_(std::move(profile)) {
  node_.validate();
}

double CpuModel::seconds(const ComputeTask& task) const {
  if (task.ops <= 0 && task.bytes <= 0) return 0;  // an empty call (a zero dimension)
  EfficiencyClass e = efficiency_for(profile_.get(), Device::Cpu, task, warned_, warned_mutex_);
  double bw = node_.rank_memory_Bps();
  double t = 0;
  switch (bound_of(task.kernel)) {
    case Bound::Compute:
      t = std::max(task.ops / (node_.rank_peak_flops(task.precision) * e.efficiency),
                   task.bytes / bw);
      break;
    case Bound::Memory:
      t = std::max(task.bytes / (bw * e.efficiency),
                   task.ops / node_.rank_peak_flops(task.precision));
      break;
    case Bound::Either:
      t = std::max(task.ops / node_.rank_peak_flops(task.precision, false), task.bytes / bw) /
          e.efficiency;
      break;
  }
  return t + e.overhead_s;
}

runtime::SimTime CpuModel::time(const ComputeTask& task) const {
  return runtime::SimTime::from_seconds(seconds(task));
}

}  // namespace simmpi::hardware
