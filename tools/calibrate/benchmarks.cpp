// SPDX-License-Identifier: Apache-2.0
// Benchmark cases and the training and validation plans.
#include "tools/calibrate/benchmarks.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "libsimblas/core/cost.hpp"

namespace simmpi::calibrate {
namespace {

namespace cost = blas::cost;
using hardware::Kernel;

constexpr double kBudgetS = 0.15;  // measuring time per case beyond its minimum repetitions

std::string dims(int a, int b, int c = 0) {
  return std::to_string(a) + "x" + std::to_string(b) + (c ? "x" + std::to_string(c) : "");
}

}  // namespace

Benchmark gemm_case(int m, int n, int k) {
  Benchmark b{"dgemm " + dims(m, n, k), cost::gemm(8, m, n, k, true), nullptr};
  b.measure = [m, n, k](Clock clock) {
    auto op = std::make_unique<Operands>(
        make_operands(std::int64_t{m} * k, std::int64_t{k} * n, std::int64_t{m} * n, 11));
    const double alpha = -1, beta = 1;
    return best_time(
        [&] {
          dgemm_("N", "N", &m, &n, &k, &alpha, op->a.data(), &m, op->b.data(), &k, &beta,
                 op->c.data(), &m);
        },
        clock, kBudgetS, 2);
  };
  return b;
}

Benchmark trsm_case(char side, int m, int n) {
  Benchmark b{std::string("dtrsm ") + side + " " + dims(m, n),
              cost::trsm(8, side == 'L' ? blas::Side::Left : blas::Side::Right, m, n), nullptr};
  b.measure = [side, m, n](Clock clock) {
    int order = side == 'L' ? m : n;
    auto op = std::make_unique<Operands>(
        make_operands(std::int64_t{order} * order, std::int64_t{m} * n, 0, 13));
    // Entries of size 1/order keep repeated solves bounded (no overflow, no denormals).
    for (double& x : op->a) x /= order;
    make_diagonally_dominant(op->a, order, order);
    const double one = 1;
    const char* uplo = side == 'L' ? "L" : "U";
    const char* diag = side == 'L' ? "U" : "N";
    const char s[2] = {side, 0};
    return best_time(
        [&] { dtrsm_(s, uplo, "N", diag, &m, &n, &one, op->a.data(), &order, op->b.data(), &m); },
        clock, kBudgetS, 2);
  };
  return b;
}

Benchmark gemv_case(int m, int n) {
  Benchmark b{"dgemv " + dims(m, n), cost::gemv(8, blas::Trans::No, m, n, true), nullptr};
  b.measure = [m, n](Clock clock) {
    auto op = std::make_unique<Operands>(make_operands(std::int64_t{m} * n, n, m, 17));
    const double one = 1;
    const int inc = 1;
    return best_time(
        [&] {
          dgemv_("N", &m, &n, &one, op->a.data(), &m, op->b.data(), &inc, &one, op->c.data(), &inc);
        },
        clock, kBudgetS, 3);
  };
  return b;
}

Benchmark level1_case(Kernel kernel, int n) {
  const char* name = kernel == Kernel::Axpy ? "daxpy" : kernel == Kernel::Swap ? "dswap" : "dcopy";
  Benchmark b{std::string(name) + " " + std::to_string(n), cost::level1(8, kernel, n), nullptr};
  b.measure = [kernel, n](Clock clock) {
    auto op = std::make_unique<Operands>(make_operands(n, n, 0, 19));
    const int inc = 1;
    const double alpha = 1e-3;
    return best_time(
        [&] {
          if (kernel == Kernel::Axpy)
            daxpy_(&n, &alpha, op->a.data(), &inc, op->b.data(), &inc);
          else if (kernel == Kernel::Swap)
            dswap_(&n, op->a.data(), &inc, op->b.data(), &inc);
          else
            dcopy_(&n, op->a.data(), &inc, op->b.data(), &inc);
        },
        clock, kBudgetS, 3);
  };
  return b;
}

Benchmark laswp_case(int swaps, int cols, int rows) {
  // LU's row interchanges applied to a column-major matrix (HPL's HPL_dlaswp00N, LAPACK's
  // dlaswp): row i < swaps trades places with a pivot row at or below it, a block of 32 columns
  // at a time, so every element moved is a strided access. Charged as SimBLAS charges it:
  // 4 elements of traffic per element swapped (cost::laswp).
  Benchmark b{"dlaswp " + dims(swaps, cols) + " lda " + std::to_string(rows),
              cost::laswp(8, cols, swaps), nullptr};
  b.task.dims = {swaps, cols, 0};  // as HPL's glue charges it (tools/hpl/hpl_model.c)
  b.measure = [swaps, cols, rows](Clock clock) {
    auto op = std::make_unique<Operands>(make_operands(std::int64_t{rows} * cols, 0, 0, 23));
    std::vector<int> ipiv(static_cast<std::size_t>(swaps));
    std::uint64_t x = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < swaps; ++i) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      ipiv[static_cast<std::size_t>(i)] = i + static_cast<int>((x >> 33) % (rows - i));
    }
    double* a = op->a.data();
    const std::int64_t lda = rows;
    return best_time(
        [&] {
          for (int j0 = 0; j0 < cols; j0 += 32) {
            const int j1 = std::min(cols, j0 + 32);
            for (int i = 0; i < swaps; ++i) {
              const int ip = ipiv[static_cast<std::size_t>(i)];
              if (ip == i) continue;
              for (int j = j0; j < j1; ++j) std::swap(a[j * lda + i], a[j * lda + ip]);
            }
          }
        },
        clock, kBudgetS, 3);
  };
  return b;
}

Benchmark memcopy_case(std::int64_t bytes) {
  Benchmark b{"memcpy " + std::to_string(bytes) + " B", cost::memcopy(static_cast<double>(bytes)),
              nullptr};
  b.measure = [bytes](Clock clock) {
    std::vector<char> src(static_cast<std::size_t>(bytes), 1), dst(src.size(), 0);
    return best_time([&] { std::memcpy(dst.data(), src.data(), src.size()); }, clock, kBudgetS, 3);
  };
  return b;
}

std::vector<KernelPlan> training_plan(bool quick) {
  // Smallest dimensions per size class of the dense kernels (classes end at 64, 128, 256, 512).
  std::vector<int> small = {32, 48, 64, 80, 96, 112, 128, 160, 224, 256, 320, 448, 512};
  std::vector<int> large = quick ? std::vector<int>{} : std::vector<int>{640, 896, 1280, 1792};
  const int wide = quick ? 768 : 1536;
  KernelPlan gemm{Kernel::Gemm, {64, 128, 256, 512}, {}},
      trsm{Kernel::Trsm, {64, 128, 256, 512}, {}};
  for (int d : small) {
    gemm.cases.push_back(gemm_case(d, d, d));
    gemm.cases.push_back(gemm_case(wide, wide, d));  // trailing update
    gemm.cases.push_back(gemm_case(wide, d, d));     // panel
    trsm.cases.push_back(trsm_case('L', d, d));
    trsm.cases.push_back(trsm_case('L', d, wide));  // NB x NB triangle, wide right-hand side
  }
  for (int d : large) {
    gemm.cases.push_back(gemm_case(d, d, d));
    gemm.cases.push_back(gemm_case(1792, 1792, d));
    trsm.cases.push_back(trsm_case('L', d, d));
    trsm.cases.push_back(trsm_case('L', d, 1792));
  }
  // Memory-bound kernels: classes follow the cache levels (L1 and L2 of a core, then L3), and the
  // largest sizes exceed even a large L3 so the last class is main memory.
  KernelPlan gemv{Kernel::Gemv, {128, 512}, {}};
  for (int n : {64, 128, 256, 384, 512, 1024, 1536, 2048, 3072, 4096}) {
    if (quick && n > 1024) continue;
    gemv.cases.push_back(gemv_case(n, n));
    gemv.cases.push_back(gemv_case(2 * n, n / 2));
  }
  std::vector<KernelPlan> plans = {gemm, trsm, gemv};
  for (Kernel k : {Kernel::Axpy, Kernel::Swap, Kernel::Copy}) {
    KernelPlan p{k, {2048, 65536, 2097152}, {}};
    for (int n = 256; n <= (quick ? 1 << 20 : 1 << 24); n *= 2)
      p.cases.push_back(level1_case(k, n));
    plans.push_back(p);
  }
  // LU's row interchanges (HPL's own loop; tools/hpl/hpl_model.c charges it): NB swaps over
  // the columns of a matrix larger than a core's caches.
  KernelPlan laswp{Kernel::Laswp, {}, {}};
  for (int swaps : {64, 128, 256})
    for (int cols : {256, 1024, quick ? 2048 : 4096})
      laswp.cases.push_back(laswp_case(swaps, cols, 8192));
  plans.push_back(laswp);
  KernelPlan mem{Kernel::MemCopy, {32768, 1048576, 67108864}, {}};
  for (std::int64_t b = 4096; b <= (quick ? 16 << 20 : std::int64_t{512} << 20); b *= 2)
    mem.cases.push_back(memcopy_case(b));
  plans.push_back(mem);
  return plans;
}

std::vector<Benchmark> validation_set(bool quick) {
  std::vector<Benchmark> v;
  int top = quick ? 512 : 2048;
  for (int n = 128; n <= top; n *= 2) v.push_back(gemm_case(n, n, n));
  for (int nb : {64, 128, 192, 256, 384}) {
    v.push_back(gemm_case(top, top, nb));  // trailing update
    v.push_back(gemm_case(top, nb, nb));   // tall-skinny panel product
  }
  for (int n = 128; n <= top; n *= 2) v.push_back(trsm_case('L', n, n));
  for (int nb : {64, 128, 192, 256, 384}) {
    v.push_back(trsm_case('L', nb, top));  // HPL: L11^-1 U12
    v.push_back(trsm_case('R', top, nb));  // tall-skinny B, upper triangle on the right
  }
  return v;
}

}  // namespace simmpi::calibrate
