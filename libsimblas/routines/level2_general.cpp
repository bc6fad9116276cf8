// SPDX-License-Identifier: Apache-2.0
// BLAS level 2 on general matrices: gemv, gbmv, ger.
#include <algorithm>

#include "libsimblas/core/charge.hpp"
#include "libsimblas/core/cost.hpp"
#include "libsimblas/routines/level2.hpp"
#include "libsimblas/routines/strided.hpp"

namespace simmpi::blas {
namespace {

// y = beta * y, writing zeros when beta is 0 so a NaN in y does not survive (reference BLAS).
template <class T>
void scale_y(Vec<T> y, T beta) {
  if (beta == T(1)) return;
  for (I i = 0; i < y.n; ++i) y[i] = beta == T(0) ? T(0) : beta * y[i];
}

// y += alpha * op(A) x, where column j of A holds rows [lo(j), hi(j)] at a + offset(j).
template <class T, class Band>
void band_mv(Trans t, I n, T alpha, const T* a, I lda, Vec<const T> x, Vec<T> y, Band band) {
  for (I j = 0; j < n; ++j) {
    I lo = band.lo(j), hi = band.hi(j);
    const T* col = a + j * lda + band.offset(j);
    if (t == Trans::No) {
      T xj = alpha * x[j];
      for (I i = lo; i <= hi; ++i) y[i] += xj * col[i];
    } else {
      T s = 0;
      for (I i = lo; i <= hi; ++i) s += col[i] * x[i];
      y[j] += alpha * s;
    }
  }
}

struct FullBand {
  I m;
  I lo(I) const { return 0; }
  I hi(I) const { return m - 1; }
  I offset(I) const { return 0; }
};

// Column j of a general band keeps A(i, j) at a[ku + i - j + j * lda].
struct GeneralBand {
  I m, kl, ku;
  I lo(I j) const { return std::max<I>(0, j - ku); }
  I hi(I j) const { return std::min(m - 1, j + kl); }
  I offset(I j) const { return ku - j; }
};

template <class T>
void check_mv(const char* name, I m, I n, I lda, I min_lda, I incx, I incy) {
  check_dim(name, "m", m);
  check_dim(name, "n", n);
  check_ld(name, "lda", lda, min_lda);
  check_inc(name, "incx", incx);
  check_inc(name, "incy", incy);
}

}  // namespace

template <class T>
void gemv(Trans t, I m, I n, T alpha, const T* a, I lda, const T* x, I incx, T beta, T* y, I incy) {
  check_mv<T>(routine_name(sizeof(T), "gemv").c_str(), m, n, lda, m, incx, incy);
  auto charged = charge(cost::gemv(sizeof(T), t, m, n, beta != T(0)));
  if (!charged) return;
  I xlen = t == Trans::No ? n : m, ylen = t == Trans::No ? m : n;
  Vec<T> vy = vec(y, ylen, incy);
  scale_y(vy, beta);
  if (alpha != T(0)) band_mv(t, n, alpha, a, lda, vec(x, xlen, incx), vy, FullBand{m});
}

template <class T>
void gbmv(Trans t, I m, I n, I kl, I ku, T alpha, const T* a, I lda, const T* x, I incx, T beta,
          T* y, I incy) {
  std::string name = routine_name(sizeof(T), "gbmv");
  check_dim(name.c_str(), "kl", kl);
  check_dim(name.c_str(), "ku", ku);
  check_mv<T>(name.c_str(), m, n, lda, kl + ku + 1, incx, incy);
  auto charged = charge(cost::gbmv(sizeof(T), t, m, n, kl, ku, beta != T(0)));
  if (!charged) return;
  I xlen = t == Trans::No ? n : m, ylen = t == Trans::No ? m : n;
  Vec<T> vy = vec(y, ylen, incy);
  scale_y(vy, beta);
  if (alpha != T(0)) band_mv(t, n, alpha, a, lda, vec(x, xlen, incx), vy, GeneralBand{m, kl, ku});
}

template <class T>
void ger(I m, I n, T alpha, const T* x, I incx, const T* y, I incy, T* a, I lda) {
  check_mv<T>(routine_name(sizeof(T), "ger").c_str(), m, n, lda, m, incx, incy);
  auto charged = charge(cost::ger(sizeof(T), m, n));
  if (!charged) return;
  auto vx = vec(x, m, incx);
  auto vy = vec(y, n, incy);
  for (I j = 0; j < n; ++j) {
    T yj = alpha * vy[j];
    for (I i = 0; i < m; ++i) a[i + j * lda] += vx[i] * yj;
  }
}

#define SIMMPI_LEVEL2_GENERAL(T)                                                   \
  template void gemv<T>(Trans, I, I, T, const T*, I, const T*, I, T, T*, I);       \
  template void gbmv<T>(Trans, I, I, I, I, T, const T*, I, const T*, I, T, T*, I); \
  template void ger<T>(I, I, T, const T*, I, const T*, I, T*, I);
SIMMPI_LEVEL2_GENERAL(float)
SIMMPI_LEVEL2_GENERAL(double)
#undef SIMMPI_LEVEL2_GENERAL

}  // namespace simmpi::blas
