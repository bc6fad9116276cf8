// SPDX-License-Identifier: Apache-2.0
// Efficiency profile: per kernel and size class, the fraction of the roofline bound a kernel
// reaches and its fixed cost per call. Written by tools/simmpi-calibrate from measurements on
// real hardware, named by a platform file (blas.profile), read by the CPU and GPU models.
//
// A kernel's time is t = mu * ops + theta (compute-bound) or t = mu * bytes + theta
// (memory-bound), the linear model of the HPL/Frontera simulator's calibration. The profile
// stores mu as an efficiency relative to the peak (mu = 1 / (peak * efficiency)) so one profile
// can be applied to a node with more cores or another clock: efficiencies carry over, peaks come
// from the platform. theta is stored as `overhead`.
//
// File format (TOML):
//   format = 1
//   [reference]                      # machine it was measured on (informational)
//   description = "Xeon 8280, OpenBLAS 0.3.21, 1 thread"
//   peak_flops = "73.6Gflops"        # per rank, double precision
//   memory_bw = "12GB/s"             # per rank
//   [cpu.dgemm]                      # or [gpu.dgemm]
//   classes = [ { up_to = 96, efficiency = 0.82, overhead = "1.5us" },
//               { efficiency = 0.9, overhead = "3us", r2 = 0.9998, samples = 12 } ]
// A call whose size (smallest positive dimension) is at most a class's up_to uses the first
// such class; larger sizes use the last class. r2 and samples document the fit.
// Efficiencies are relative to the node's peak flops or its rank memory bandwidth, so a class
// whose operands stay in cache can exceed 1 for memory-bound kernels (it is faster than main
// memory); a compute-bound kernel above 1 means the node's declared peak is too low.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "hardware/compute/compute_task.hpp"

namespace simmpi::hardware {

enum class Device { Cpu, Gpu };

struct EfficiencyClass {
  std::int64_t up_to = 0;  // largest size in this class; 0 for the open last class
  double efficiency = 1;   // fraction of the peak (compute-bound) or bandwidth (memory-bound)
  double overhead_s = 0;   // theta, seconds per call
  double r2 = -1;          // coefficient of determination of the fit; -1 when not given
  int samples = 0;         // measurements the fit used; 0 when not given
};

class EfficiencyProfile {
 public:
  EfficiencyProfile() = default;
  // Reads a profile file. Throws ConfigError naming the file, line and key on any problem.
  static EfficiencyProfile load(const std::string& path);
  // Same for TOML text; `source_name` stands for the file name in messages.
  static EfficiencyProfile parse(std::string_view text, const std::string& source_name);

  // Where the profile came from ("" for one built in memory).
  const std::string& source() const { return source_; }
  bool has(Device d, KernelId k) const;
  // The class of `size` for kernel `k`, or nullptr when the profile has no entry for it.
  const EfficiencyClass* find(Device d, KernelId k, std::int64_t size) const;
  // Replaces the classes of `k` (sorted by up_to, open class last; at least one).
  void set(Device d, KernelId k, std::vector<EfficiencyClass> classes);

  std::string description;
  double reference_peak_flops = 0;  // 0 when not given
  double reference_memory_Bps = 0;

  // The profile as TOML that parse() reads back.
  std::string to_toml() const;

 private:
  static std::string key(Device d, KernelId k);
  std::string source_;
  std::map<std::string, std::vector<EfficiencyClass>> kernels_;  // "cpu.dgemm" -> classes
};

}  // namespace simmpi::hardware
