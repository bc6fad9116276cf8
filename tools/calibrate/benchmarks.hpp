// SPDX-License-Identifier: Apache-2.0
// The micro-benchmarks simmpi-calibrate runs on the host BLAS: each is a compute task (what
// SimBLAS would charge for the same call, from libsimblas/core/cost.hpp) and a way to time it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "hardware/compute/compute_task.hpp"
#include "tools/calibrate/host_blas.hpp"

namespace simmpi::calibrate {

struct Benchmark {
  std::string label;  // "dgemm 1536x1536x64"
  hardware::ComputeTask task;
  // Measures the call: best time in seconds.
  std::function<double(Clock)> measure;
};

Benchmark gemm_case(int m, int n, int k);
// side 'L': lower, unit triangle of order m (HPL's L11^-1 A12); 'R': upper, non-unit of order n.
Benchmark trsm_case(char side, int m, int n);
Benchmark gemv_case(int m, int n);
// kernel: Axpy, Swap or Copy.
Benchmark level1_case(hardware::Kernel kernel, int n);
Benchmark memcopy_case(std::int64_t bytes);
// LU's row interchanges: `swaps` rows trade places with pivot rows over `cols` columns of a
// rows x cols column-major matrix (HPL's HPL_dlaswp00N).
Benchmark laswp_case(int swaps, int cols, int rows);

// The training set of each calibrated kernel (`quick`: sizes up to 512 only), and the size
// classes (up_to bounds, open class last) fitted separately.
struct KernelPlan {
  hardware::Kernel kernel;
  std::vector<std::int64_t> class_bounds;
  std::vector<Benchmark> cases;
};
std::vector<KernelPlan> training_plan(bool quick);

// DGEMM and DTRSM shapes the prediction is checked on: square 128..2048 and HPL-shaped
// (trailing update M = N = 2048, K = NB; panel 2048 x NB; triangle NB x 2048) for NB 64..384.
std::vector<Benchmark> validation_set(bool quick);

}  // namespace simmpi::calibrate
