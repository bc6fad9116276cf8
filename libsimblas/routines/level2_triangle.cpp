// SPDX-License-Identifier: Apache-2.0
// BLAS level 2 on one stored triangle (symmetric and triangular matrices) in full, band and
// packed storage. One accessor (Tri) gives each storage's element address and the rows stored
// in each column, so each algorithm is written once for the three storages.
#include <algorithm>
#include <vector>

#include "libsimblas/core/charge.hpp"
#include "libsimblas/core/cost.hpp"
#include "libsimblas/routines/level2.hpp"
#include "libsimblas/routines/strided.hpp"

namespace simmpi::blas {
namespace {

using hardware::Kernel;

enum class Format { Full, Band, Packed };

template <class T>
struct Tri {
  T* a;
  I ld;
  I n;
  I k;  // off-diagonals of a band
  Format f;
  bool upper;

  I lo(I j) const { return upper ? (f == Format::Band ? std::max<I>(0, j - k) : 0) : j; }
  I hi(I j) const { return upper ? j : (f == Format::Band ? std::min(n - 1, j + k) : n - 1); }
  // Address of A(i, j), lo(j) <= i <= hi(j) (reference BLAS storage schemes).
  T& operator()(I i, I j) const {
    switch (f) {
      case Format::Full:
        return a[i + j * ld];
      case Format::Band:
        return upper ? a[k + i - j + j * ld] : a[i - j + j * ld];
      case Format::Packed:
        break;
    }
    return upper ? a[i + j * (j + 1) / 2] : a[i - j + j * (2 * n - j + 1) / 2];
  }
};

template <class T>
void symmetric_mv(Tri<const T> A, T alpha, Vec<const T> x, T beta, Vec<T> y) {
  for (I i = 0; i < y.n; ++i) y[i] = beta == T(0) ? T(0) : beta * y[i];
  if (alpha == T(0)) return;
  for (I j = 0; j < A.n; ++j) {
    T xj = alpha * x[j], s = 0;
    for (I i = A.lo(j); i <= A.hi(j); ++i) {
      if (i == j) continue;
      y[i] += xj * A(i, j);
      s += A(i, j) * x[i];
    }
    y[j] += xj * A(j, j) + alpha * s;
  }
}

// x = op(A) x for a triangle A, through a copy of x.
template <class T>
void triangular_mv(Tri<const T> A, Trans t, Diag d, Vec<T> x) {
  std::vector<T> in(static_cast<std::size_t>(A.n));
  for (I i = 0; i < A.n; ++i) in[i] = x[i], x[i] = 0;
  for (I j = 0; j < A.n; ++j)
    for (I i = A.lo(j); i <= A.hi(j); ++i) {
      T v = i == j && d == Diag::Unit ? T(1) : A(i, j);
      if (t == Trans::No)
        x[i] += v * in[j];
      else
        x[j] += v * in[i];
    }
}

// Solves op(A) x = b in place. Column-oriented for op(A) = A, dot-product form for A^T.
template <class T>
void triangular_sv(Tri<const T> A, Trans t, Diag d, Vec<T> x) {
  bool forward = (A.upper == (t == Trans::Yes));  // lower-triangular system
  for (I s = 0; s < A.n; ++s) {
    I j = forward ? s : A.n - 1 - s;
    if (t == Trans::No) {
      if (d == Diag::NonUnit) x[j] /= A(j, j);
      for (I i = A.lo(j); i <= A.hi(j); ++i)
        if (i != j) x[i] -= x[j] * A(i, j);
    } else {
      T v = x[j];
      for (I i = A.lo(j); i <= A.hi(j); ++i)
        if (i != j) v -= A(i, j) * x[i];
      x[j] = d == Diag::NonUnit ? v / A(j, j) : v;
    }
  }
}

// A += alpha (x y^T + y x^T) on the triangle (rank2 = false: A += alpha x x^T).
template <class T>
void symmetric_update(Tri<T> A, T alpha, Vec<const T> x, Vec<const T> y, bool rank2) {
  for (I j = 0; j < A.n; ++j)
    for (I i = A.lo(j); i <= A.hi(j); ++i)
      A(i, j) += rank2 ? alpha * (x[i] * y[j] + y[i] * x[j]) : alpha * x[i] * x[j];
}

template <class T>
void check(const char* base, I n, I lda, I min_lda, I incx, I incy = 1) {
  std::string name = routine_name(sizeof(T), base);
  check_dim(name.c_str(), "n", n);
  if (lda >= 0) check_ld(name.c_str(), "lda", lda, min_lda);
  check_inc(name.c_str(), "incx", incx);
  check_inc(name.c_str(), "incy", incy);
}

template <class T>
Tri<const T> tri(const T* a, I ld, I n, I k, Format f, Uplo u) {
  return Tri<const T>{a, ld, n, k, f, u == Uplo::Upper};
}

}  // namespace

template <class T>
void symv(Uplo u, I n, T alpha, const T* a, I lda, const T* x, I incx, T beta, T* y, I incy) {
  check<T>("symv", n, lda, n, incx, incy);
  auto charged = charge(cost::symv(sizeof(T), Kernel::Symv, n, beta != T(0)));
  if (!charged) return;
  symmetric_mv(tri(a, lda, n, 0, Format::Full, u), alpha, vec(x, n, incx), beta, vec(y, n, incy));
}

template <class T>
void sbmv(Uplo u, I n, I k, T alpha, const T* a, I lda, const T* x, I incx, T beta, T* y, I incy) {
  check_dim(routine_name(sizeof(T), "sbmv").c_str(), "k", k);
  check<T>("sbmv", n, lda, k + 1, incx, incy);
  auto charged = charge(cost::sbmv(sizeof(T), n, k, beta != T(0)));
  if (!charged) return;
  symmetric_mv(tri(a, lda, n, k, Format::Band, u), alpha, vec(x, n, incx), beta, vec(y, n, incy));
}

template <class T>
void spmv(Uplo u, I n, T alpha, const T* ap, const T* x, I incx, T beta, T* y, I incy) {
  check<T>("spmv", n, -1, 0, incx, incy);
  auto charged = charge(cost::symv(sizeof(T), Kernel::Spmv, n, beta != T(0)));
  if (!charged) return;
  symmetric_mv(tri(ap, 0, n, 0, Format::Packed, u), alpha, vec(x, n, incx), beta, vec(y, n, incy));
}

template <class T>
void syr(Uplo u, I n, T alpha, const T* x, I incx, T* a, I lda) {
  check<T>("syr", n, lda, n, incx);
  auto charged = charge(cost::syr(sizeof(T), Kernel::Syr, n));
  if (!charged) return;
  auto vx = vec(x, n, incx);
  symmetric_update(Tri<T>{a, lda, n, 0, Format::Full, u == Uplo::Upper}, alpha, vx, vx, false);
}

template <class T>
void spr(Uplo u, I n, T alpha, const T* x, I incx, T* ap) {
  check<T>("spr", n, -1, 0, incx);
  auto charged = charge(cost::syr(sizeof(T), Kernel::Spr, n));
  if (!charged) return;
  auto vx = vec(x, n, incx);
  symmetric_update(Tri<T>{ap, 0, n, 0, Format::Packed, u == Uplo::Upper}, alpha, vx, vx, false);
}

template <class T>
void syr2(Uplo u, I n, T alpha, const T* x, I incx, const T* y, I incy, T* a, I lda) {
  check<T>("syr2", n, lda, n, incx, incy);
  auto charged = charge(cost::syr2(sizeof(T), Kernel::Syr2, n));
  if (!charged) return;
  symmetric_update(Tri<T>{a, lda, n, 0, Format::Full, u == Uplo::Upper}, alpha, vec(x, n, incx),
                   vec(y, n, incy), true);
}

template <class T>
void spr2(Uplo u, I n, T alpha, const T* x, I incx, const T* y, I incy, T* ap) {
  check<T>("spr2", n, -1, 0, incx, incy);
  auto charged = charge(cost::syr2(sizeof(T), Kernel::Spr2, n));
  if (!charged) return;
  symmetric_update(Tri<T>{ap, 0, n, 0, Format::Packed, u == Uplo::Upper}, alpha, vec(x, n, incx),
                   vec(y, n, incy), true);
}

template <class T>
void trmv(Uplo u, Trans t, Diag d, I n, const T* a, I lda, T* x, I incx) {
  check<T>("trmv", n, lda, n, incx);
  auto charged = charge(cost::trmv(sizeof(T), Kernel::Trmv, n));
  if (!charged) return;
  triangular_mv(tri(a, lda, n, 0, Format::Full, u), t, d, vec(x, n, incx));
}

template <class T>
void tbmv(Uplo u, Trans t, Diag d, I n, I k, const T* a, I lda, T* x, I incx) {
  check_dim(routine_name(sizeof(T), "tbmv").c_str(), "k", k);
  check<T>("tbmv", n, lda, k + 1, incx);
  auto charged = charge(cost::tbmv(sizeof(T), Kernel::Tbmv, n, k));
  if (!charged) return;
  triangular_mv(tri(a, lda, n, k, Format::Band, u), t, d, vec(x, n, incx));
}

template <class T>
void tpmv(Uplo u, Trans t, Diag d, I n, const T* ap, T* x, I incx) {
  check<T>("tpmv", n, -1, 0, incx);
  auto charged = charge(cost::trmv(sizeof(T), Kernel::Tpmv, n));
  if (!charged) return;
  triangular_mv(tri(ap, 0, n, 0, Format::Packed, u), t, d, vec(x, n, incx));
}

template <class T>
void trsv(Uplo u, Trans t, Diag d, I n, const T* a, I lda, T* x, I incx) {
  check<T>("trsv", n, lda, n, incx);
  auto charged = charge(cost::trmv(sizeof(T), Kernel::Trsv, n));
  if (!charged) return;
  triangular_sv(tri(a, lda, n, 0, Format::Full, u), t, d, vec(x, n, incx));
}

template <class T>
void tbsv(Uplo u, Trans t, Diag d, I n, I k, const T* a, I lda, T* x, I incx) {
  check_dim(routine_name(sizeof(T), "tbsv").c_str(), "k", k);
  check<T>("tbsv", n, lda, k + 1, incx);
  auto charged = charge(cost::tbmv(sizeof(T), Kernel::Tbsv, n, k));
  if (!charged) return;
  triangular_sv(tri(a, lda, n, k, Format::Band, u), t, d, vec(x, n, incx));
}

template <class T>
void tpsv(Uplo u, Trans t, Diag d, I n, const T* ap, T* x, I incx) {
  check<T>("tpsv", n, -1, 0, incx);
  auto charged = charge(cost::trmv(sizeof(T), Kernel::Tpsv, n));
  if (!charged) return;
  triangular_sv(tri(ap, 0, n, 0, Format::Packed, u), t, d, vec(x, n, incx));
}

#define SIMMPI_LEVEL2_TRIANGLE(T)                                           \
  template void symv<T>(Uplo, I, T, const T*, I, const T*, I, T, T*, I);    \
  template void sbmv<T>(Uplo, I, I, T, const T*, I, const T*, I, T, T*, I); \
  template void spmv<T>(Uplo, I, T, const T*, const T*, I, T, T*, I);       \
  template void syr<T>(Uplo, I, T, const T*, I, T*, I);                     \
  template void spr<T>(Uplo, I, T, const T*, I, T*);                        \
  template void syr2<T>(Uplo, I, T, const T*, I, const T*, I, T*, I);       \
  template void spr2<T>(Uplo, I, T, const T*, I, const T*, I, T*);          \
  template void trmv<T>(Uplo, Trans, Diag, I, const T*, I, T*, I);          \
  template void tbmv<T>(Uplo, Trans, Diag, I, I, const T*, I, T*, I);       \
  template void tpmv<T>(Uplo, Trans, Diag, I, const T*, T*, I);             \
  template void trsv<T>(Uplo, Trans, Diag, I, const T*, I, T*, I);          \
  template void tbsv<T>(Uplo, Trans, Diag, I, I, const T*, I, T*, I);       \
  template void tpsv<T>(Uplo, Trans, Diag, I, const T*, T*, I);
SIMMPI_LEVEL2_TRIANGLE(float)
SIMMPI_LEVEL2_TRIANGLE(double)
#undef SIMMPI_LEVEL2_TRIANGLE

}  // namespace simmpi::blas
