// SPDX-License-Identifier: Apache-2.0
// What the compute models time: a kernel identifier, its precision, how many floating-point
// operations it does, how many bytes it moves, and its shape. Callers (libsimblas, the
// SIMMPI_COMPUTE macro) count ops and bytes; the models here only turn them into time.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace simmpi::hardware {

// Kernel families. Each is compute-bound or memory-bound (see bound_of), which decides the
// roofline term its efficiency applies to.
enum class Kernel {
  // BLAS level 3 and LU: compute-bound
  Gemm,
  Symm,
  Syrk,
  Syr2k,
  Trmm,
  Trsm,
  Getrf,
  // BLAS level 2: memory-bound
  Gemv,
  Gbmv,
  Symv,
  Sbmv,
  Spmv,
  Trmv,
  Tbmv,
  Tpmv,
  Trsv,
  Tbsv,
  Tpsv,
  Ger,
  Syr,
  Spr,
  Syr2,
  Spr2,
  // BLAS level 1: memory-bound
  Axpy,
  Scal,
  Copy,
  Swap,
  Dot,
  Nrm2,
  Asum,
  Iamax,
  Rot,
  Rotm,
  // LAPACK auxiliaries and plain memory traffic: memory-bound
  Laswp,
  Lacpy,
  Lange,
  MemCopy,
  MemSet,
  // Application code charged with SIMMPI_COMPUTE: whichever roofline term is larger
  Generic,
};
inline constexpr int kKernelCount = static_cast<int>(Kernel::Generic) + 1;

enum class Precision { Double, Single };
enum class Bound { Compute, Memory, Either };

Bound bound_of(Kernel k);

struct ComputeTask {
  Kernel kernel = Kernel::Generic;
  Precision precision = Precision::Double;
  double ops = 0;    // floating-point operations
  double bytes = 0;  // bytes read plus bytes written, each operand element counted once
  // The operation's dimensions (m, n, k); unused ones are 0. The size class an efficiency is
  // looked up in is the smallest positive dimension (size()).
  std::array<std::int64_t, 3> dims{};

  std::int64_t size() const;
};

// Name of a kernel in profiles and messages: "dgemm", "strsm", "dmemcopy", "generic".
// Generic has one name for both precisions.
std::string kernel_name(Kernel k, Precision p);
struct KernelId {
  Kernel kernel;
  Precision precision;
};
// Inverse of kernel_name; nullopt when `name` names no kernel.
std::optional<KernelId> parse_kernel_name(std::string_view name);
// "dgemm, sgemm, ..." for error messages.
std::string kernel_name_list();

}  // namespace simmpi::hardware
