// SPDX-License-Identifier: Apache-2.0
// Execute mode computes what the reference BLAS and LAPACK compute: every routine, with its
// transposes, triangles, sides, diagonals and (for vectors) increments, on seeded random
// operands, called through the Fortran symbols of both SimBLAS and the netlib reference.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "fortran_api.hpp"
#include "test_support.hpp"

namespace simmpi::blas::testing {

const Api& simblas() {
  static const Api api = {
#define SIMMPI_OURS(name) &::name,
      SIMMPI_FORTRAN_ROUTINES(SIMMPI_OURS) SIMMPI_LAPACK_ROUTINES(SIMMPI_OURS)
#undef SIMMPI_OURS
  };
  return api;
}

const Api* reference() {
  static const Api* api = []() -> const Api* {
    const int flags = RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND;
    void* blas = dlopen("/usr/lib/x86_64-linux-gnu/blas/libblas.so.3", flags);
    if (!blas) blas = dlopen("libblas.so.3", flags);
    void* lapack = dlopen("/usr/lib/x86_64-linux-gnu/lapack/liblapack.so.3", flags);
    if (!lapack) lapack = dlopen("liblapack.so.3", flags);
    if (!blas || !lapack) return nullptr;
    static Api a;
#define SIMMPI_REF(name) a.name = reinterpret_cast<decltype(a.name)>(dlsym(blas, #name));
    SIMMPI_FORTRAN_ROUTINES(SIMMPI_REF)
#undef SIMMPI_REF
#define SIMMPI_REF(name) a.name = reinterpret_cast<decltype(a.name)>(dlsym(lapack, #name));
    SIMMPI_LAPACK_ROUTINES(SIMMPI_REF)
#undef SIMMPI_REF
    return &a;
  }();
  return api;
}

namespace {

constexpr int kLd = 12;  // leading dimension of every matrix (larger than any dimension used)

// The operands one call sees; each implementation gets an identical copy.
struct Data {
  std::vector<double> a, b, c, x, y, out;
  std::vector<float> fa, fb, fc;
  std::vector<int> ipiv;
};

Data random_data(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Data d;
  for (auto* v : {&d.a, &d.b, &d.c}) {
    v->resize(kLd * kLd);
    for (double& e : *v) e = u(rng);
  }
  for (int i = 0; i < kLd; ++i) d.a[i + i * kLd] += 4;  // triangles of full storage solve well
  for (auto* v : {&d.x, &d.y}) {
    v->resize(40);
    for (double& e : *v) e = u(rng);
  }
  for (double e : d.a) d.fa.push_back(static_cast<float>(e));
  for (double e : d.b) d.fb.push_back(static_cast<float>(e));
  for (double e : d.c) d.fc.push_back(static_cast<float>(e));
  d.ipiv = {3, 5, 3, 8, 5, 6, 9, 8};
  return d;
}

template <class T>
void expect_near(const std::vector<T>& ours, const std::vector<T>& ref, double tol,
                 const std::string& what) {
  ASSERT_EQ(ours.size(), ref.size()) << what;
  for (std::size_t i = 0; i < ours.size(); ++i)
    ASSERT_NEAR(ours[i], ref[i], tol * std::max(1.0, std::fabs(static_cast<double>(ref[i]))))
        << what << ", element " << i;
}

// Runs `call` on identical operands with SimBLAS (execute mode) and the reference; compares
// every operand afterwards.
void compare(const std::string& what, const std::function<void(const Api&, Data&)>& call,
             double tol = 1e-12, unsigned seed = 7) {
  const Api* ref = reference();
  if (!ref) GTEST_SKIP() << "no reference BLAS/LAPACK (apt-get install libblas3 liblapack3)";
  Data ours = random_data(seed), theirs = random_data(seed);
  {
    TaskRecorder r(Mode::Execute);
    call(simblas(), ours);
  }
  call(*ref, theirs);
  for (auto [o, t, n] : {std::tuple{&ours.a, &theirs.a, "a"},
                         {&ours.b, &theirs.b, "b"},
                         {&ours.c, &theirs.c, "c"},
                         {&ours.x, &theirs.x, "x"},
                         {&ours.y, &theirs.y, "y"},
                         {&ours.out, &theirs.out, "result"}})
    expect_near(*o, *t, tol, what + ": " + n);
  expect_near(ours.fb, theirs.fb, 1e-4, what + ": single b");
  expect_near(ours.fc, theirs.fc, 1e-4, what + ": single c");
  EXPECT_EQ(ours.ipiv, theirs.ipiv) << what;
}

const int kM = 7, kN = 5, kK = 6, kLdv = kLd;
const double kAlpha = 0.7, kBeta = -0.4, kZero = 0;
const char* kTrans[] = {"N", "T"};
const char* kUplo[] = {"U", "L"};
const char* kDiag[] = {"N", "U"};
const char* kSide[] = {"L", "R"};

TEST(Execute, Gemm) {
  for (const char* ta : kTrans)
    for (const char* tb : kTrans)
      for (const double* beta : {&kBeta, &kZero})
        compare(std::string("dgemm ") + ta + tb, [&](const Api& f, Data& d) {
          f.dgemm_(ta, tb, &kM, &kN, &kK, &kAlpha, d.a.data(), &kLdv, d.b.data(), &kLdv, beta,
                   d.c.data(), &kLdv);
          const float fa = 0.7f, fb = -0.4f;
          f.sgemm_(ta, tb, &kM, &kN, &kK, &fa, d.fa.data(), &kLdv, d.fb.data(), &kLdv, &fb,
                   d.fc.data(), &kLdv);
        });
}

TEST(Execute, SymmSyrkSyr2k) {
  for (const char* s : kSide)
    for (const char* u : kUplo)
      compare(std::string("dsymm ") + s + u, [&](const Api& f, Data& d) {
        f.dsymm_(s, u, &kM, &kN, &kAlpha, d.a.data(), &kLdv, d.b.data(), &kLdv, &kBeta, d.c.data(),
                 &kLdv);
      });
  for (const char* u : kUplo)
    for (const char* t : kTrans) {
      compare(std::string("dsyrk ") + u + t, [&](const Api& f, Data& d) {
        f.dsyrk_(u, t, &kN, &kK, &kAlpha, d.a.data(), &kLdv, &kBeta, d.c.data(), &kLdv);
      });
      compare(std::string("dsyr2k ") + u + t, [&](const Api& f, Data& d) {
        f.dsyr2k_(u, t, &kN, &kK, &kAlpha, d.a.data(), &kLdv, d.b.data(), &kLdv, &kZero, d.c.data(),
                  &kLdv);
      });
    }
}

TEST(Execute, TrmmTrsm) {
  for (const char* s : kSide)
    for (const char* u : kUplo)
      for (const char* t : kTrans)
        for (const char* dg : kDiag)
          compare(
              std::string("dtrmm/dtrsm ") + s + u + t + dg,
              [&](const Api& f, Data& d) {
                f.dtrmm_(s, u, t, dg, &kM, &kN, &kAlpha, d.a.data(), &kLdv, d.b.data(), &kLdv);
                f.dtrsm_(s, u, t, dg, &kM, &kN, &kAlpha, d.a.data(), &kLdv, d.c.data(), &kLdv);
                const float one = 1;
                f.strsm_(s, u, t, dg, &kM, &kN, &one, d.fa.data(), &kLdv, d.fb.data(), &kLdv);
              },
              1e-10);
}

TEST(Execute, GeneralLevel2) {
  for (const char* t : kTrans)
    for (int inc : {1, -2})
      compare(std::string("dgemv/dgbmv ") + t + std::to_string(inc), [&](const Api& f, Data& d) {
        f.dgemv_(t, &kM, &kN, &kAlpha, d.a.data(), &kLdv, d.x.data(), &inc, &kBeta, d.y.data(),
                 &inc);
        const int kl = 2, ku = 1;
        f.dgbmv_(t, &kM, &kN, &kl, &ku, &kAlpha, d.b.data(), &kLdv, d.y.data(), &inc, &kZero,
                 d.x.data(), &inc);
      });
  compare("dger", [&](const Api& f, Data& d) {
    const int incx = 1, incy = -3;
    f.dger_(&kM, &kN, &kAlpha, d.x.data(), &incx, d.y.data(), &incy, d.c.data(), &kLdv);
  });
}

TEST(Execute, SymmetricLevel2) {
  for (const char* u : kUplo)
    compare(std::string("symmetric level 2 ") + u, [&](const Api& f, Data& d) {
      const int inc = 1, k = 2, n = kN;
      f.dsymv_(u, &n, &kAlpha, d.a.data(), &kLdv, d.x.data(), &inc, &kBeta, d.y.data(), &inc);
      f.dsbmv_(u, &n, &k, &kAlpha, d.b.data(), &kLdv, d.y.data(), &inc, &kBeta, d.x.data(), &inc);
      f.dspmv_(u, &n, &kAlpha, d.c.data(), d.x.data(), &inc, &kZero, d.y.data(), &inc);
      f.dsyr_(u, &n, &kAlpha, d.x.data(), &inc, d.a.data(), &kLdv);
      f.dspr_(u, &n, &kAlpha, d.y.data(), &inc, d.c.data());
      f.dsyr2_(u, &n, &kAlpha, d.x.data(), &inc, d.y.data(), &inc, d.b.data(), &kLdv);
      f.dspr2_(u, &n, &kAlpha, d.x.data(), &inc, d.y.data(), &inc, d.c.data() + 40);
    });
}

// Band and packed triangles get a dominant diagonal so the solves stay well conditioned.
void dominant_band_and_packed(Data& d, bool upper, int n, int k) {
  for (int j = 0; j < n; ++j) {
    d.b[(upper ? k : 0) + j * kLd] += 4;
    d.c[upper ? j + j * (j + 1) / 2 : j * (2 * n - j + 1) / 2] += 4;
  }
}

TEST(Execute, TriangularLevel2) {
  for (const char* u : kUplo)
    for (const char* t : kTrans)
      for (const char* dg : kDiag)
        compare(
            std::string("triangular level 2 ") + u + t + dg,
            [&](const Api& f, Data& d) {
              const int n = kM, k = 2, inc = 1, back = -1;
              dominant_band_and_packed(d, *u == 'U', n, k);
              f.dtrmv_(u, t, dg, &n, d.a.data(), &kLdv, d.x.data(), &inc);
              f.dtrsv_(u, t, dg, &n, d.a.data(), &kLdv, d.y.data(), &back);
              f.dtbmv_(u, t, dg, &n, &k, d.b.data(), &kLdv, d.x.data() + 10, &inc);
              f.dtbsv_(u, t, dg, &n, &k, d.b.data(), &kLdv, d.y.data() + 10, &inc);
              f.dtpmv_(u, t, dg, &n, d.c.data(), d.x.data() + 20, &back);
              f.dtpsv_(u, t, dg, &n, d.c.data(), d.y.data() + 20, &inc);
            },
            1e-10);
}

TEST(Execute, Level1) {
  for (int incy : {1, -2})
    compare("level 1, incy " + std::to_string(incy), [&](const Api& f, Data& d) {
      const int n = 9, inc = 1, inc3 = 3;
      f.daxpy_(&n, &kAlpha, d.x.data(), &inc, d.y.data(), &incy);
      f.dscal_(&n, &kBeta, d.x.data(), &inc3);
      f.dswap_(&n, d.x.data(), &inc, d.y.data() + 20, &incy);
      f.dcopy_(&n, d.y.data(), &incy, d.a.data(), &inc);
      d.out.push_back(f.ddot_(&n, d.x.data(), &inc, d.y.data(), &incy));
      d.out.push_back(f.dnrm2_(&n, d.x.data(), &inc3));
      d.out.push_back(f.dasum_(&n, d.y.data(), &inc));
      d.out.push_back(f.idamax_(&n, d.y.data(), &inc3));
      const double c = 0.6, s = 0.8;
      f.drot_(&n, d.x.data(), &inc, d.y.data(), &incy, &c, &s);
      for (double flag : {-1.0, 0.0, 1.0, -2.0}) {
        double param[5] = {flag, 0.3, -0.2, 0.5, 1.1};
        f.drotm_(&n, d.x.data(), &incy, d.y.data(), &inc, param);
      }
      double a = 3, b = -4, cc, ss;
      f.drotg_(&a, &b, &cc, &ss);
      d.out.insert(d.out.end(), {a, b, cc, ss});
      for (double y1 : {0.5, 3.0, 1e-5}) {
        double d1 = 2, d2 = 0.7, x1 = 1.5, param[5] = {};
        f.drotmg_(&d1, &d2, &x1, &y1, param);
        d.out.insert(d.out.end(), {d1, d2, x1, param[0], param[1], param[2], param[3], param[4]});
      }
      d.out.push_back(f.dsdot_(&n, d.fa.data(), &inc, d.fb.data(), &inc));
    });
}

TEST(Execute, Lapack) {
  compare(
      "dgetrf, dgetrs",
      [&](const Api& f, Data& d) {
        const int m = 9, n = 8, nrhs = 3;
        int info = -1;
        std::vector<int> ipiv(8);
        f.dgetrf_(&m, &n, d.b.data(), &kLdv, ipiv.data(), &info);
        d.out.push_back(info);
        d.ipiv = ipiv;
        f.dgetrf_(&n, &n, d.a.data(), &kLdv, ipiv.data(), &info);
        for (const char* t : kTrans)
          f.dgetrs_(t, &n, &nrhs, d.a.data(), &kLdv, ipiv.data(), d.c.data(), &kLdv, &info);
        d.out.push_back(info);
      },
      1e-10);
  compare(
      "dlaswp, dlacpy, dlange",
      [&](const Api& f, Data& d) {
        const int n = 6, k1 = 2, k2 = 7, m = 9;
        for (int inc : {1, -1}) f.dlaswp_(&n, d.a.data(), &kLdv, &k1, &k2, d.ipiv.data(), &inc);
        for (const char* u : {"U", "L", "A"})
          f.dlacpy_(u, &m, &n, d.a.data() + 2 * (*u - 'A'), &kLdv, d.b.data(), &kLdv);
        std::vector<double> work(12);
        for (const char* nm : {"M", "1", "O", "I", "F", "E"})
          d.out.push_back(f.dlange_(nm, &m, &n, d.c.data(), &kLdv, work.data()));
      },
      1e-12);
}

}  // namespace
}  // namespace simmpi::blas::testing
