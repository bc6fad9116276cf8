// SPDX-License-Identifier: Apache-2.0
// getrf (blocked right-looking LU with partial pivoting, as LAPACK's dgetrf), getrs, laswp,
// lacpy, lange.
#include "libsimblas/routines/lapack.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <utility>
#include <vector>

#include "libsimblas/core/charge.hpp"
#include "libsimblas/core/cost.hpp"
#include "libsimblas/routines/level3.hpp"
#include "libsimblas/routines/strided.hpp"

namespace simmpi::blas {
namespace {

constexpr I kLuBlock = 64;

template <class T>
void swap_rows(T* a, I lda, I r1, I r2, I col_begin, I col_end) {
  for (I j = col_begin; j < col_end; ++j) std::swap(at(a, lda, r1, j), at(a, lda, r2, j));
}

// Unblocked LU of the panel A[j0:m, j0:j0+jb] (LAPACK dgetf2); returns the first zero pivot's
// column + 1, or 0.
template <class T>
I factor_panel(I m, I j0, I jb, T* a, I lda, int* ipiv) {
  I info = 0;
  for (I j = j0; j < j0 + jb; ++j) {
    I p = j;
    for (I i = j + 1; i < m; ++i)
      if (std::fabs(at(a, lda, i, j)) > std::fabs(at(a, lda, p, j))) p = i;
    ipiv[j] = static_cast<int>(p + 1);
    T pivot = at(a, lda, p, j);
    if (pivot != T(0)) {
      if (p != j) swap_rows(a, lda, j, p, j0, j0 + jb);
      for (I i = j + 1; i < m; ++i) at(a, lda, i, j) /= pivot;
    } else if (info == 0) {
      info = j + 1;
    }
    for (I c = j + 1; c < j0 + jb; ++c) {
      T u = at(a, lda, j, c);
      for (I i = j + 1; i < m; ++i) at(a, lda, i, c) -= at(a, lda, i, j) * u;
    }
  }
  return info;
}

template <class T>
I lu(I m, I n, T* a, I lda, int* ipiv) {
  I k = std::min(m, n), info = 0;
  for (I j = 0; j < k; j += kLuBlock) {
    I jb = std::min(kLuBlock, k - j);
    I panel_info = factor_panel(m, j, jb, a, lda, ipiv);
    if (info == 0 && panel_info != 0) info = panel_info;
    for (I r = j; r < j + jb; ++r) {
      I p = ipiv[r] - 1;
      if (p == r) continue;
      swap_rows(a, lda, r, p, 0, j);
      swap_rows(a, lda, r, p, j + jb, n);
    }
    if (j + jb >= n) continue;
    T* a12 = a + j + (j + jb) * lda;
    exec::trsm(Side::Left, Uplo::Lower, Trans::No, Diag::Unit, jb, n - j - jb, T(1),
               a + j + j * lda, lda, a12, lda);
    if (j + jb < m)
      exec::gemm(Trans::No, Trans::No, m - j - jb, n - j - jb, jb, T(-1), a + j + jb + j * lda, lda,
                 a12, lda, T(1), a12 + jb, lda);
  }
  return info;
}

}  // namespace

template <class T>
I getrf(I m, I n, T* a, I lda, int* ipiv) {
  if (m < 0) return -1;
  if (n < 0) return -2;
  if (lda < std::max<I>(1, m)) return -4;
  auto charged = charge(cost::getrf(sizeof(T), m, n));
  if (!charged) {
    for (I i = 0; i < std::min(m, n); ++i)
      ipiv[i] = static_cast<int>(i + 1 + stand_in_index(m - i));
    return 0;
  }
  return lu(m, n, a, lda, ipiv);
}

template <class T>
I getrs(Trans t, I n, I nrhs, const T* a, I lda, const int* ipiv, T* b, I ldb) {
  if (n < 0) return -2;
  if (nrhs < 0) return -3;
  if (lda < std::max<I>(1, n)) return -5;
  if (ldb < std::max<I>(1, n)) return -8;
  if (n == 0 || nrhs == 0) return 0;
  if (t == Trans::No) {
    laswp(nrhs, b, ldb, 1, n, ipiv, 1);
    trsm(Side::Left, Uplo::Lower, Trans::No, Diag::Unit, n, nrhs, T(1), a, lda, b, ldb);
    trsm(Side::Left, Uplo::Upper, Trans::No, Diag::NonUnit, n, nrhs, T(1), a, lda, b, ldb);
  } else {
    trsm(Side::Left, Uplo::Upper, Trans::Yes, Diag::NonUnit, n, nrhs, T(1), a, lda, b, ldb);
    trsm(Side::Left, Uplo::Lower, Trans::Yes, Diag::Unit, n, nrhs, T(1), a, lda, b, ldb);
    laswp(nrhs, b, ldb, 1, n, ipiv, -1);
  }
  return 0;
}

// Rows k1..k2 (1-based) are interchanged with ipiv(k1 + (i - k1) * incx) in order (incx > 0) or
// in reverse order (incx < 0), as LAPACK's dlaswp.
template <class T>
void laswp(I n, T* a, I lda, I k1, I k2, const int* ipiv, I incx) {
  I swaps = incx == 0 || k2 < k1 ? 0 : k2 - k1 + 1;
  auto charged = charge(cost::laswp(sizeof(T), std::max<I>(n, 0), swaps));
  if (!charged || swaps == 0) return;
  I i = incx > 0 ? k1 : k2, ix = incx > 0 ? k1 : k1 + (k1 - k2) * incx;  // 1-based
  for (I s = 0; s<swaps; ++s, i += incx> 0 ? 1 : -1, ix += incx) {
    I p = ipiv[ix - 1];
    if (p != i) swap_rows(a, lda, i - 1, p - 1, 0, n);
  }
}

template <class T>
void lacpy(char uplo, I m, I n, const T* a, I lda, T* b, I ldb) {
  auto charged = charge(cost::lacpy(sizeof(T), uplo, std::max<I>(m, 0), std::max<I>(n, 0)));
  if (!charged) return;
  char u = static_cast<char>(std::toupper(uplo));
  for (I j = 0; j < n; ++j) {
    I lo = u == 'L' ? j : 0, hi = u == 'U' ? std::min(j + 1, m) : m;
    for (I i = lo; i < hi; ++i) at(b, ldb, i, j) = at(a, lda, i, j);
  }
}

template <class T>
T lange(char norm, I m, I n, const T* a, I lda) {
  char c = static_cast<char>(std::toupper(norm));
  if (c != 'M' && c != '1' && c != 'O' && c != 'I' && c != 'F' && c != 'E')
    bad_argument(routine_name(sizeof(T), "lange").c_str(),
                 "norm must be one of 'M', '1', 'O', 'I', 'F', 'E'");
  if (m <= 0 || n <= 0) return (void)charge(cost::lange(sizeof(T), c, 0, 0)), T(0);
  auto charged = charge(cost::lange(sizeof(T), c, m, n));
  if (!charged) {
    if (c == 'M') return T(1);
    if (c == 'I') return static_cast<T>(n);
    if (c == 'F' || c == 'E') return std::sqrt(static_cast<T>(m) * static_cast<T>(n));
    return static_cast<T>(m);
  }
  T value = 0;
  std::vector<T> rows(c == 'I' ? static_cast<std::size_t>(m) : 0);
  T scale = 0, ssq = 1;
  for (I j = 0; j < n; ++j) {
    T col = 0;
    for (I i = 0; i < m; ++i) {
      T v = std::fabs(at(a, lda, i, j));
      if (c == 'M') value = std::max(value, v);
      if (c == '1' || c == 'O') col += v;
      if (c == 'I') rows[i] += v;
      if ((c == 'F' || c == 'E') && v != T(0)) {
        if (scale < v)
          ssq = 1 + ssq * (scale / v) * (scale / v), scale = v;
        else
          ssq += (v / scale) * (v / scale);
      }
    }
    value = std::max(value, col);
  }
  if (c == 'I') value = *std::max_element(rows.begin(), rows.end());
  if (c == 'F' || c == 'E') value = scale * std::sqrt(ssq);
  return value;
}

#define SIMMPI_LAPACK(T)                                            \
  template I getrf<T>(I, I, T*, I, int*);                           \
  template I getrs<T>(Trans, I, I, const T*, I, const int*, T*, I); \
  template void laswp<T>(I, T*, I, I, I, const int*, I);            \
  template void lacpy<T>(char, I, I, const T*, I, T*, I);           \
  template T lange<T>(char, I, I, const T*, I);
SIMMPI_LAPACK(float)
SIMMPI_LAPACK(double)
#undef SIMMPI_LAPACK

}  // namespace simmpi::blas
