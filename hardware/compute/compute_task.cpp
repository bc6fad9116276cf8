// SPDX-License-Identifier: Apache-2.0
// Kernel names and classification.
#include "hardware/compute/compute_task.hpp"

#include <algorithm>

namespace simmpi::hardware {
namespace {

constexpr const char* kBaseNames[kKernelCount] = {
    "gemm",    "symm",  "syrk",  "syr2k",   "trmm",   "trsm", "getrf",                   // level 3
    "gemv",    "gbmv",  "symv",  "sbmv",    "spmv",   "trmv", "tbmv",  "tpmv",  "trsv",  // level 2
    "tbsv",    "tpsv",  "ger",   "syr",     "spr",    "syr2", "spr2",                    //
    "axpy",    "scal",  "copy",  "swap",    "dot",    "nrm2", "asum",  "iamax", "rot",
    "rotm",                                            // level 1
    "laswp",   "lacpy", "lange", "memcopy", "memset",  //
    "generic",
};

}  // namespace

Bound bound_of(Kernel k) {
  if (k == Kernel::Generic) return Bound::Either;
  return k <= Kernel::Getrf ? Bound::Compute : Bound::Memory;
}

std::int64_t ComputeTask::size() const {
  std::int64_t s = 0;
  for (std::int64_t d : dims)
    if (d > 0) s = s == 0 ? d : std::min(s, d);
  return s;
}

std::string kernel_name(Kernel k, Precision p) {
  const char* base = kBaseNames[static_cast<int>(k)];
  if (k == Kernel::Generic) return base;
  return std::string(p == Precision::Double ? "d" : "s") + base;
}

std::optional<KernelId> parse_kernel_name(std::string_view name) {
  if (name == "generic") return KernelId{Kernel::Generic, Precision::Double};
  if (name.size() < 2 || (name[0] != 'd' && name[0] != 's')) return std::nullopt;
  Precision p = name[0] == 'd' ? Precision::Double : Precision::Single;
  for (int i = 0; i < kKernelCount - 1; ++i)
    if (name.substr(1) == kBaseNames[i]) return KernelId{static_cast<Kernel>(i), p};
  return std::nullopt;
}

std::string kernel_name_list() {
  std::string s;
  for (int i = 0; i < kKernelCount; ++i) {
    auto k = static_cast<Kernel>(i);
    s += (s.empty() ? "" : ", ") + kernel_name(k, Precision::Double);
    if (k != Kernel::Generic) s += ", " + kernel_name(k, Precision::Single);
  }
  return s;
}

}  // namespace simmpi::hardware
