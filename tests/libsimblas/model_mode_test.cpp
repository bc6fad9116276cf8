// SPDX-License-Identifier: Apache-2.0
// Model mode touches no operand: every routine is called with operands on pages that cannot be
// read or written (any access would crash the test), and data-dependent results take their
// documented stand-in values.
#include <cblas.h>
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cmath>

#include "test_support.hpp"

extern "C" {
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*,
            const double*, const int*, const double*, const int*, const double*, double*,
            const int*);
void dtrsm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const double*, const double*, const int*, double*, const int*);
int idamax_(const int*, const double*, const int*);
void dgetrf_(const int*, const int*, double*, const int*, int*, int*);
void dgetrs_(const char*, const int*, const int*, const double*, const int*, const int*, double*,
             const int*, int*);
void dlaswp_(const int*, double*, const int*, const int*, const int*, const int*, const int*);
void dlacpy_(const char*, const int*, const int*, const double*, const int*, double*, const int*);
double dlange_(const char*, const int*, const int*, const double*, const int*, double*);
}

namespace simmpi::blas::testing {
namespace {

// 1 MiB that faults on any access.
class NoAccess {
 public:
  NoAccess() : p_(mmap(nullptr, kBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) {}
  ~NoAccess() { munmap(p_, kBytes); }
  double* d() const { return static_cast<double*>(p_); }
  float* f() const { return static_cast<float*>(p_); }

 private:
  static constexpr std::size_t kBytes = 1 << 20;
  void* p_;
};

constexpr auto kCol = CblasColMajor;
constexpr auto kRow = CblasRowMajor;

TEST(ModelMode, Level3TouchesNoOperand) {
  TaskRecorder r(Mode::Model);
  NoAccess m;
  double* a = m.d();
  for (auto order : {kCol, kRow})
    for (auto t : {CblasNoTrans, CblasTrans}) {
      cblas_dgemm(order, t, t, 20, 20, 20, 1.0, a, 20, a, 20, 0.0, a, 20);
      cblas_dsymm(order, CblasLeft, CblasUpper, 20, 20, 1.0, a, 20, a, 20, 1.0, a, 20);
      cblas_dsyrk(order, CblasLower, t, 20, 20, 1.0, a, 20, 1.0, a, 20);
      cblas_dsyr2k(order, CblasUpper, t, 20, 20, 1.0, a, 20, a, 20, 1.0, a, 20);
      cblas_dtrmm(order, CblasRight, CblasUpper, t, CblasUnit, 20, 20, 2.0, a, 20, a, 20);
      cblas_dtrsm(order, CblasLeft, CblasLower, t, CblasNonUnit, 20, 20, 2.0, a, 20, a, 20);
      cblas_sgemm(order, t, t, 20, 20, 20, 1.0f, m.f(), 20, m.f(), 20, 1.0f, m.f(), 20);
      cblas_strsm(order, CblasRight, CblasLower, t, CblasUnit, 20, 20, 1.0f, m.f(), 20, m.f(), 20);
    }
  int n = 20;
  double one = 1;
  dgemm_("N", "T", &n, &n, &n, &one, a, &n, a, &n, &one, a, &n);
  dtrsm_("L", "L", "N", "U", &n, &n, &one, a, &n, a, &n);
  EXPECT_EQ(r.tasks.size(), 4u * 8 + 2);
}

TEST(ModelMode, Level2TouchesNoOperand) {
  TaskRecorder r(Mode::Model);
  NoAccess m;
  double* a = m.d();
  for (auto order : {kCol, kRow}) {
    cblas_dgemv(order, CblasTrans, 20, 10, 1.0, a, 20, a, 1, 0.0, a, 1);
    cblas_dgbmv(order, CblasNoTrans, 20, 10, 2, 3, 1.0, a, 6, a, 1, 1.0, a, -1);
    cblas_dsymv(order, CblasUpper, 20, 1.0, a, 20, a, 1, 1.0, a, 1);
    cblas_dsbmv(order, CblasLower, 20, 2, 1.0, a, 3, a, 1, 1.0, a, 1);
    cblas_dspmv(order, CblasUpper, 20, 1.0, a, a, 1, 1.0, a, 1);
    cblas_dtrmv(order, CblasUpper, CblasNoTrans, CblasUnit, 20, a, 20, a, 1);
    cblas_dtbmv(order, CblasLower, CblasTrans, CblasNonUnit, 20, 2, a, 3, a, 1);
    cblas_dtpmv(order, CblasUpper, CblasNoTrans, CblasUnit, 20, a, a, 1);
    cblas_dtrsv(order, CblasLower, CblasTrans, CblasNonUnit, 20, a, 20, a, 1);
    cblas_dtbsv(order, CblasUpper, CblasNoTrans, CblasUnit, 20, 2, a, 3, a, 1);
    cblas_dtpsv(order, CblasLower, CblasNoTrans, CblasNonUnit, 20, a, a, 1);
    cblas_dger(order, 20, 10, 1.0, a, 1, a, 1, a, 20);
    cblas_dsyr(order, CblasUpper, 20, 1.0, a, 1, a, 20);
    cblas_dspr(order, CblasUpper, 20, 1.0, a, 1, a);
    cblas_dsyr2(order, CblasLower, 20, 1.0, a, 1, a, 1, a, 20);
    cblas_dspr2(order, CblasLower, 20, 1.0, a, 1, a, 1, a);
    cblas_sgemv(order, CblasNoTrans, 20, 10, 1.0f, m.f(), 20, m.f(), 1, 0.0f, m.f(), 1);
  }
  EXPECT_EQ(r.tasks.size(), 2u * 17);
}

TEST(ModelMode, Level1TouchesNoOperandAndReturnsStandIns) {
  TaskRecorder r(Mode::Model);
  NoAccess m;
  double* x = m.d();
  cblas_dswap(10, x, 1, x, -1);
  cblas_dscal(10, 2.0, x, 1);
  cblas_dcopy(10, x, 1, x, 2);
  cblas_daxpy(10, 2.0, x, 1, x, 1);
  cblas_drot(10, x, 1, x, 1, 0.6, 0.8);
  double param[5] = {-1, 1, 0, 0, 1};
  cblas_drotm(10, x, 1, x, 1, param);
  // The values of all-ones operands.
  EXPECT_EQ(cblas_ddot(10, x, 1, x, 1), 10.0);
  EXPECT_EQ(cblas_sdot(10, m.f(), 1, m.f(), 1), 10.0f);
  EXPECT_EQ(cblas_dsdot(10, m.f(), 1, m.f(), 1), 10.0);
  EXPECT_EQ(cblas_sdsdot(10, 0.5f, m.f(), 1, m.f(), 1), 10.5f);
  EXPECT_EQ(cblas_dnrm2(16, x, 1), 4.0);
  EXPECT_EQ(cblas_dasum(10, x, 1), 10.0);
  for (int i = 0; i < 50; ++i) {
    auto k = cblas_idamax(7, x, 1);
    EXPECT_LT(k, 7u);
    int n = 7, inc = 1;
    int f = idamax_(&n, x, &inc);  // Fortran: 1-based
    EXPECT_GE(f, 1);
    EXPECT_LE(f, 7);
  }
  EXPECT_EQ(cblas_idamax(0, x, 1), 0u);
}

TEST(ModelMode, StandInIndicesCoverTheRange) {
  TaskRecorder r(Mode::Model);
  NoAccess m;
  std::vector<int> seen(5);
  for (int i = 0; i < 200; ++i) ++seen[cblas_idamax(5, m.d(), 1)];
  for (int c : seen) EXPECT_GT(c, 10) << "a pseudo-random index should reach every position";
}

TEST(ModelMode, LapackTouchesNoMatrix) {
  TaskRecorder r(Mode::Model);
  NoAccess mem;
  double* a = mem.d();
  int m = 9, n = 6, info = -1;
  int ipiv[6];
  dgetrf_(&m, &n, a, &m, ipiv, &info);
  EXPECT_EQ(info, 0);
  for (int i = 0; i < n; ++i) {
    EXPECT_GE(ipiv[i], i + 1) << "pivot rows come from the unfactored part";
    EXPECT_LE(ipiv[i], m);
  }
  int nrhs = 3;
  dgetrs_("T", &n, &nrhs, a, &m, ipiv, a, &m, &info);
  EXPECT_EQ(info, 0);
  int k1 = 1, k2 = 6, inc = 1;
  dlaswp_(&nrhs, a, &m, &k1, &k2, reinterpret_cast<int*>(a), &inc);  // ipiv is not read
  dlacpy_("U", &m, &n, a, &m, a, &m);
  EXPECT_EQ(dlange_("M", &m, &n, a, &m, nullptr), 1.0);
  EXPECT_EQ(dlange_("1", &m, &n, a, &m, nullptr), 9.0);
  EXPECT_EQ(dlange_("I", &m, &n, a, &m, nullptr), 6.0);
  EXPECT_DOUBLE_EQ(dlange_("F", &m, &n, a, &m, nullptr), std::sqrt(54.0));
}

}  // namespace
}  // namespace simmpi::blas::testing
