// SPDX-License-Identifier: Apache-2.0
// Op and byte counts charged by every routine, called through its public interface (CBLAS or
// Fortran) in model mode with null operands, against hand counts. Elements are 8 bytes
// (d routines) or 4 (s routines); each expectation is written as elements x size.
#include <cblas.h>
#include <gtest/gtest.h>

#include "test_support.hpp"

extern "C" {
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*,
            const double*, const int*, const double*, const int*, const double*, double*,
            const int*);
void dgetrf_(const int*, const int*, double*, const int*, int*, int*);
void dgetrs_(const char*, const int*, const int*, const double*, const int*, const int*, double*,
             const int*, int*);
void dlaswp_(const int*, double*, const int*, const int*, const int*, const int*, const int*);
void dlacpy_(const char*, const int*, const int*, const double*, const int*, double*, const int*);
double dlange_(const char*, const int*, const int*, const double*, const int*, double*);
}

namespace simmpi::blas::testing {

hardware::ComputeTask TaskRecorder::only() {
  EXPECT_EQ(tasks.size(), 1u) << "expected exactly one charged task";
  hardware::ComputeTask t = tasks.empty() ? hardware::ComputeTask{} : tasks.back();
  tasks.clear();
  return t;
}

namespace {

using hardware::Kernel;
using hardware::Precision;

void expect(const hardware::ComputeTask& t, Kernel k, double ops, double bytes,
            std::array<std::int64_t, 3> dims, Precision p = Precision::Double) {
  EXPECT_EQ(t.kernel, k) << hardware::kernel_name(t.kernel, t.precision);
  EXPECT_EQ(t.precision, p);
  EXPECT_DOUBLE_EQ(t.ops, ops);
  EXPECT_DOUBLE_EQ(t.bytes, bytes);
  EXPECT_EQ(t.dims, dims);
}

constexpr auto kCol = CblasColMajor;
constexpr auto kRow = CblasRowMajor;
constexpr auto kN = CblasNoTrans;
constexpr auto kT = CblasTrans;

TEST(Cost, GemmCountsTransposesAndBeta) {
  TaskRecorder r(Mode::Model);
  // A 3x5, B 5x4, C 3x4: 2*3*4*5 = 120 flops; C read and written when beta != 0.
  cblas_dgemm(kCol, kN, kN, 3, 4, 5, 1.0, nullptr, 3, nullptr, 5, 1.0, nullptr, 3);
  expect(r.only(), Kernel::Gemm, 120, (15 + 20 + 2 * 12) * 8, {3, 4, 5});
  cblas_dgemm(kCol, kT, kT, 3, 4, 5, 1.0, nullptr, 5, nullptr, 4, 1.0, nullptr, 3);
  expect(r.only(), Kernel::Gemm, 120, (15 + 20 + 2 * 12) * 8, {3, 4, 5});
  cblas_dgemm(kCol, kN, kN, 3, 4, 5, 1.0, nullptr, 3, nullptr, 5, 0.0, nullptr, 3);
  expect(r.only(), Kernel::Gemm, 120, (15 + 20 + 12) * 8, {3, 4, 5});
  // Row-major C = A B is the column-major C^T = B^T A^T: m and n exchange.
  cblas_dgemm(kRow, kN, kN, 3, 4, 5, 1.0, nullptr, 5, nullptr, 4, 1.0, nullptr, 4);
  expect(r.only(), Kernel::Gemm, 120, (15 + 20 + 2 * 12) * 8, {4, 3, 5});
  cblas_sgemm(kCol, kN, kT, 3, 4, 5, 1.0f, nullptr, 3, nullptr, 4, 1.0f, nullptr, 3);
  expect(r.only(), Kernel::Gemm, 120, (15 + 20 + 2 * 12) * 4, {3, 4, 5}, Precision::Single);
  int m = 3, n = 4, k = 5;
  double one = 1;
  dgemm_("N", "N", &m, &n, &k, &one, nullptr, &m, nullptr, &k, &one, nullptr, &m);
  expect(r.only(), Kernel::Gemm, 120, (15 + 20 + 2 * 12) * 8, {3, 4, 5});
}

TEST(Cost, SymmSideSelectsTheSymmetricOperand) {
  TaskRecorder r(Mode::Model);
  // Left: A is 3x3 (6 stored), 2*3*4*3 = 72 flops; right: A is 4x4 (10 stored), 96 flops.
  cblas_dsymm(kCol, CblasLeft, CblasUpper, 3, 4, 1.0, nullptr, 3, nullptr, 3, 1.0, nullptr, 3);
  expect(r.only(), Kernel::Symm, 72, (6 + 12 + 24) * 8, {3, 4, 3});
  cblas_dsymm(kCol, CblasRight, CblasLower, 3, 4, 1.0, nullptr, 4, nullptr, 3, 0.0, nullptr, 3);
  expect(r.only(), Kernel::Symm, 96, (10 + 12 + 12) * 8, {3, 4, 4});
}

TEST(Cost, RankKUpdatesCountTheTriangle) {
  TaskRecorder r(Mode::Model);
  // n = 4, k = 3: the triangle has 10 elements, each 2k flops: 60 (syrk), 120 (syr2k).
  cblas_dsyrk(kCol, CblasUpper, kN, 4, 3, 1.0, nullptr, 4, 1.0, nullptr, 4);
  expect(r.only(), Kernel::Syrk, 60, (12 + 2 * 10) * 8, {4, 3, 0});
  cblas_dsyrk(kCol, CblasLower, kT, 4, 3, 1.0, nullptr, 3, 1.0, nullptr, 4);
  expect(r.only(), Kernel::Syrk, 60, (12 + 2 * 10) * 8, {4, 3, 0});
  cblas_dsyr2k(kCol, CblasUpper, kN, 4, 3, 1.0, nullptr, 4, nullptr, 4, 0.0, nullptr, 4);
  expect(r.only(), Kernel::Syr2k, 120, (24 + 10) * 8, {4, 3, 0});
}

TEST(Cost, TriangularMultiplyAndSolveBySide) {
  TaskRecorder r(Mode::Model);
  // Left: 3x3 triangle (6 stored), n * m^2 = 36 flops; right: 4x4 (10 stored), m * n^2 = 48.
  for (auto uplo : {CblasUpper, CblasLower})
    for (auto diag : {CblasUnit, CblasNonUnit}) {
      cblas_dtrsm(kCol, CblasLeft, uplo, kN, diag, 3, 4, 1.0, nullptr, 3, nullptr, 3);
      expect(r.only(), Kernel::Trsm, 36, (6 + 24) * 8, {3, 4, 0});
      cblas_dtrmm(kCol, CblasRight, uplo, kT, diag, 3, 4, 1.0, nullptr, 4, nullptr, 3);
      expect(r.only(), Kernel::Trmm, 48, (10 + 24) * 8, {3, 4, 0});
    }
  // Row-major exchanges sides and m, n: the triangle is 4x4 on the left.
  cblas_dtrsm(kRow, CblasRight, CblasUpper, kN, CblasUnit, 3, 4, 1.0, nullptr, 4, nullptr, 4);
  expect(r.only(), Kernel::Trsm, 48, (10 + 24) * 8, {4, 3, 0});
}

TEST(Cost, Level2Counts) {
  TaskRecorder r(Mode::Model);
  cblas_dgemv(kCol, kN, 3, 4, 1.0, nullptr, 3, nullptr, 1, 1.0, nullptr, 1);
  expect(r.only(), Kernel::Gemv, 24, (12 + 4 + 2 * 3) * 8, {3, 4, 0});
  cblas_dgemv(kCol, kT, 3, 4, 1.0, nullptr, 3, nullptr, 1, 1.0, nullptr, 1);
  expect(r.only(), Kernel::Gemv, 24, (12 + 3 + 2 * 4) * 8, {3, 4, 0});
  // 5x4 band, kl = 1, ku = 2: columns hold 2, 3, 4, 4 elements = 13.
  cblas_dgbmv(kCol, kN, 5, 4, 1, 2, 1.0, nullptr, 4, nullptr, 1, 0.0, nullptr, 1);
  expect(r.only(), Kernel::Gbmv, 26, (13 + 4 + 5) * 8, {5, 4, 0});
  cblas_dsymv(kCol, CblasUpper, 4, 1.0, nullptr, 4, nullptr, 1, 1.0, nullptr, 1);
  expect(r.only(), Kernel::Symv, 32, (10 + 4 + 8) * 8, {4, 0, 0});
  cblas_dspmv(kCol, CblasLower, 4, 1.0, nullptr, nullptr, 1, 1.0, nullptr, 1);
  expect(r.only(), Kernel::Spmv, 32, (10 + 4 + 8) * 8, {4, 0, 0});
  // n = 5, k = 1: 1 + 2 + 2 + 2 + 2 = 9 stored; 4 * 9 - 2 * 5 = 26 flops.
  cblas_dsbmv(kCol, CblasUpper, 5, 1, 1.0, nullptr, 2, nullptr, 1, 0.0, nullptr, 1);
  expect(r.only(), Kernel::Sbmv, 26, (9 + 5 + 5) * 8, {5, 0, 0});
  cblas_dtrmv(kCol, CblasUpper, kN, CblasNonUnit, 4, nullptr, 4, nullptr, 1);
  expect(r.only(), Kernel::Trmv, 16, (10 + 8) * 8, {4, 0, 0});
  cblas_dtrsv(kRow, CblasLower, kT, CblasUnit, 4, nullptr, 4, nullptr, 1);
  expect(r.only(), Kernel::Trsv, 16, (10 + 8) * 8, {4, 0, 0});
  cblas_dtpsv(kCol, CblasLower, kN, CblasUnit, 4, nullptr, nullptr, 1);
  expect(r.only(), Kernel::Tpsv, 16, (10 + 8) * 8, {4, 0, 0});
  // n = 5, k = 2: 1 + 2 + 3 + 3 + 3 = 12 stored; 2 * 12 - 5 = 19 flops.
  cblas_dtbmv(kCol, CblasLower, kN, CblasNonUnit, 5, 2, nullptr, 3, nullptr, 1);
  expect(r.only(), Kernel::Tbmv, 19, (12 + 10) * 8, {5, 0, 0});
  cblas_dtbsv(kCol, CblasUpper, kT, CblasNonUnit, 5, 2, nullptr, 3, nullptr, 1);
  expect(r.only(), Kernel::Tbsv, 19, (12 + 10) * 8, {5, 0, 0});
  cblas_dger(kCol, 3, 4, 1.0, nullptr, 1, nullptr, 1, nullptr, 3);
  expect(r.only(), Kernel::Ger, 24, (24 + 7) * 8, {3, 4, 0});
  cblas_dsyr(kCol, CblasUpper, 4, 1.0, nullptr, 1, nullptr, 4);
  expect(r.only(), Kernel::Syr, 20, (20 + 4) * 8, {4, 0, 0});
  cblas_dspr2(kCol, CblasUpper, 4, 1.0, nullptr, 1, nullptr, 1, nullptr);
  expect(r.only(), Kernel::Spr2, 40, (20 + 8) * 8, {4, 0, 0});
  cblas_ssyr2(kCol, CblasLower, 4, 1.0f, nullptr, 1, nullptr, 1, nullptr, 4);
  expect(r.only(), Kernel::Syr2, 40, (20 + 8) * 4, {4, 0, 0}, Precision::Single);
}

TEST(Cost, Level1Counts) {
  TaskRecorder r(Mode::Model);
  cblas_daxpy(10, 2.0, nullptr, 1, nullptr, 1);
  expect(r.only(), Kernel::Axpy, 20, 30 * 8, {10, 0, 0});
  cblas_dscal(10, 2.0, nullptr, 1);
  expect(r.only(), Kernel::Scal, 10, 20 * 8, {10, 0, 0});
  cblas_dcopy(10, nullptr, 1, nullptr, -1);
  expect(r.only(), Kernel::Copy, 0, 20 * 8, {10, 0, 0});
  cblas_dswap(10, nullptr, 2, nullptr, 1);
  expect(r.only(), Kernel::Swap, 0, 40 * 8, {10, 0, 0});
  cblas_ddot(10, nullptr, 1, nullptr, 1);
  expect(r.only(), Kernel::Dot, 20, 20 * 8, {10, 0, 0});
  cblas_dnrm2(10, nullptr, 1);
  expect(r.only(), Kernel::Nrm2, 20, 10 * 8, {10, 0, 0});
  cblas_dasum(10, nullptr, 1);
  expect(r.only(), Kernel::Asum, 10, 10 * 8, {10, 0, 0});
  cblas_idamax(10, nullptr, 1);
  expect(r.only(), Kernel::Iamax, 10, 10 * 8, {10, 0, 0});
  cblas_drot(10, nullptr, 1, nullptr, 1, 0.6, 0.8);
  expect(r.only(), Kernel::Rot, 60, 40 * 8, {10, 0, 0});
  cblas_saxpy(10, 2.0f, nullptr, 1, nullptr, 1);
  expect(r.only(), Kernel::Axpy, 20, 30 * 4, {10, 0, 0}, Precision::Single);
}

TEST(Cost, LapackCounts) {
  TaskRecorder r(Mode::Model);
  int m = 6, n = 4, lda = 6, info = -1, ipiv[4];
  // Right-looking LU, step j: (m-j-1) scalings + 2 (m-j-1)(n-j-1): 14 + 2 * 26 = 66.
  dgetrf_(&m, &n, nullptr, &lda, ipiv, &info);
  expect(r.only(), Kernel::Getrf, 66, 2 * 24 * 8, {6, 4, 0});
  EXPECT_EQ(info, 0);
  int sq = 4;
  dgetrf_(&sq, &sq, nullptr, &sq, ipiv, &info);  // 2/3 n^3 - 1/2 n^2 - 1/6 n = 34
  expect(r.only(), Kernel::Getrf, 34, 2 * 16 * 8, {4, 4, 0});
  // getrs = laswp + two triangular solves.
  int nrhs = 2;
  dgetrs_("N", &sq, &nrhs, nullptr, &sq, ipiv, nullptr, &sq, &info);
  ASSERT_EQ(r.tasks.size(), 3u);
  expect(r.tasks[0], Kernel::Laswp, 0, 4 * 2 * 4 * 8, {2, 4, 0});
  expect(r.tasks[1], Kernel::Trsm, 32, (10 + 16) * 8, {4, 2, 0});
  r.tasks.clear();
  int k1 = 1, k2 = 3, inc = 1, cols = 5;
  dlaswp_(&cols, nullptr, &lda, &k1, &k2, ipiv, &inc);
  expect(r.only(), Kernel::Laswp, 0, 4 * 5 * 3 * 8, {5, 3, 0});
  int three = 3, five = 5;
  dlacpy_("U", &three, &five, nullptr, &three, nullptr, &three);  // 1 + 2 + 3 + 3 + 3
  expect(r.only(), Kernel::Lacpy, 0, 2 * 12 * 8, {3, 5, 0});
  dlacpy_("L", &five, &three, nullptr, &five, nullptr, &five);  // 5 + 4 + 3
  expect(r.only(), Kernel::Lacpy, 0, 2 * 12 * 8, {5, 3, 0});
  dlacpy_("A", &three, &five, nullptr, &three, nullptr, &three);
  expect(r.only(), Kernel::Lacpy, 0, 2 * 15 * 8, {3, 5, 0});
  dlange_("F", &three, &sq, nullptr, &three, nullptr);
  expect(r.only(), Kernel::Lange, 24, 12 * 8, {3, 4, 0});
}

TEST(Cost, EmptyCallsCostNothing) {
  TaskRecorder r(Mode::Model);
  cblas_dgemm(kCol, kN, kN, 0, 4, 5, 1.0, nullptr, 1, nullptr, 5, 1.0, nullptr, 1);
  hardware::ComputeTask t = r.only();
  EXPECT_EQ(t.ops, 0);
  EXPECT_EQ(t.bytes, 0);  // the reference BLAS returns at once
  cblas_daxpy(0, 2.0, nullptr, 1, nullptr, 1);
  EXPECT_EQ(r.only().bytes, 0);
}

}  // namespace
}  // namespace simmpi::blas::testing
