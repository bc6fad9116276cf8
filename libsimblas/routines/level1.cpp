// SPDX-License-Identifier: Apache-2.0
// BLAS level 1: cost, charge, and (when asked) the reference algorithms.
#include "libsimblas/routines/level1.hpp"

#include <cmath>
#include <utility>

#include "libsimblas/core/charge.hpp"
#include "libsimblas/core/cost.hpp"
#include "libsimblas/routines/strided.hpp"

namespace simmpi::blas {
namespace {

using hardware::Kernel;

template <class T>
Charged run(Kernel k, I n) {
  return charge(cost::level1(sizeof(T), k, n < 0 ? 0 : n));
}

}  // namespace

template <class T>
void swap(I n, T* x, I incx, T* y, I incy) {
  auto charged = run<T>(Kernel::Swap, n);
  if (!charged) return;
  auto vx = vec(x, n, incx), vy = vec(y, n, incy);
  for (I i = 0; i < n; ++i) std::swap(vx[i], vy[i]);
}

template <class T>
void scal(I n, T alpha, T* x, I incx) {
  if (incx <= 0) n = 0;  // the reference BLAS returns at once
  auto charged = run<T>(Kernel::Scal, n);
  if (!charged) return;
  for (I i = 0; i < n; ++i) x[i * incx] *= alpha;
}

template <class T>
void copy(I n, const T* x, I incx, T* y, I incy) {
  auto charged = run<T>(Kernel::Copy, n);
  if (!charged) return;
  auto vx = vec(x, n, incx);
  auto vy = vec(y, n, incy);
  for (I i = 0; i < n; ++i) vy[i] = vx[i];
}

template <class T>
void axpy(I n, T alpha, const T* x, I incx, T* y, I incy) {
  if (alpha == T(0) && computes_results()) n = 0;  // BLAS's quick return, only on real values
  auto charged = run<T>(Kernel::Axpy, n);
  if (!charged) return;
  auto vx = vec(x, n, incx);
  auto vy = vec(y, n, incy);
  for (I i = 0; i < n; ++i) vy[i] += alpha * vx[i];
}

template <class T>
T dot(I n, const T* x, I incx, const T* y, I incy) {
  if (n <= 0) n = 0;
  auto charged = run<T>(Kernel::Dot, n);
  if (!charged) return static_cast<T>(n);
  auto vx = vec(x, n, incx);
  auto vy = vec(y, n, incy);
  T s = 0;
  for (I i = 0; i < n; ++i) s += vx[i] * vy[i];
  return s;
}

double dsdot(I n, const float* x, I incx, const float* y, I incy) {
  if (n <= 0) n = 0;
  if (!run<float>(Kernel::Dot, n)) return static_cast<double>(n);
  auto vx = vec(x, n, incx);
  auto vy = vec(y, n, incy);
  double s = 0;
  for (I i = 0; i < n; ++i) s += static_cast<double>(vx[i]) * static_cast<double>(vy[i]);
  return s;
}

// Scaled sum of squares, so neither overflow nor underflow occurs (reference dnrm2 before 3.10).
template <class T>
T nrm2(I n, const T* x, I incx) {
  if (n < 1 || incx == 0) n = 0;
  auto charged = run<T>(Kernel::Nrm2, n);
  if (!charged) return std::sqrt(static_cast<T>(n));
  T scale = 0, ssq = 1;
  I step = incx < 0 ? -incx : incx;
  for (I i = 0; i < n; ++i) {
    T v = x[i * step];
    if (v == T(0)) continue;
    T a = std::fabs(v);
    if (scale < a) {
      ssq = 1 + ssq * (scale / a) * (scale / a);
      scale = a;
    } else {
      ssq += (a / scale) * (a / scale);
    }
  }
  return scale * std::sqrt(ssq);
}

template <class T>
T asum(I n, const T* x, I incx) {
  if (n < 1 || incx <= 0) n = 0;
  auto charged = run<T>(Kernel::Asum, n);
  if (!charged) return static_cast<T>(n);
  T s = 0;
  for (I i = 0; i < n; ++i) s += std::fabs(x[i * incx]);
  return s;
}

template <class T>
I iamax(I n, const T* x, I incx) {
  if (n < 1 || incx <= 0) return (void)run<T>(Kernel::Iamax, 0), -1;
  auto charged = run<T>(Kernel::Iamax, n);
  if (!charged) return stand_in_index(n);
  I best = 0;
  T max = std::fabs(x[0]);
  for (I i = 1; i < n; ++i)
    if (std::fabs(x[i * incx]) > max) max = std::fabs(x[i * incx]), best = i;
  return best;
}

template <class T>
void rot(I n, T* x, I incx, T* y, I incy, T c, T s) {
  auto charged = run<T>(Kernel::Rot, n);
  if (!charged) return;
  auto vx = vec(x, n, incx), vy = vec(y, n, incy);
  for (I i = 0; i < n; ++i) {
    T a = vx[i], b = vy[i];
    vx[i] = c * a + s * b;
    vy[i] = c * b - s * a;
  }
}

// param = (flag, h11, h21, h12, h22); flag -2: identity, -1: full H, 0: unit diagonal,
// 1: h12 = 1, h21 = -1 (reference drotm).
template <class T>
void rotm(I n, T* x, I incx, T* y, I incy, const T* param) {
  auto charged = run<T>(Kernel::Rotm, n);
  if (!charged) return;
  T flag = param[0], h11, h12, h21, h22;
  if (flag == T(-2)) return;
  if (flag < T(0)) {
    h11 = param[1], h21 = param[2], h12 = param[3], h22 = param[4];
  } else if (flag == T(0)) {
    h11 = 1, h21 = param[2], h12 = param[3], h22 = 1;
  } else {
    h11 = param[1], h21 = -1, h12 = 1, h22 = param[4];
  }
  auto vx = vec(x, n, incx), vy = vec(y, n, incy);
  for (I i = 0; i < n; ++i) {
    T a = vx[i], b = vy[i];
    vx[i] = h11 * a + h12 * b;
    vy[i] = h21 * a + h22 * b;
  }
}

template <class T>
void rotg(T* a, T* b, T* c, T* s) {
  (void)run<T>(Kernel::Rot, 1);  // scalars: always computed
  T roe = std::fabs(*a) > std::fabs(*b) ? *a : *b;
  T scale = std::fabs(*a) + std::fabs(*b);
  if (scale == T(0)) {
    *c = 1, *s = 0, *a = 0, *b = 0;
    return;
  }
  T r = scale * std::sqrt((*a / scale) * (*a / scale) + (*b / scale) * (*b / scale));
  r = std::copysign(T(1), roe) * r;
  *c = *a / r;
  *s = *b / r;
  T z = 1;
  if (std::fabs(*a) > std::fabs(*b)) z = *s;
  if (std::fabs(*b) >= std::fabs(*a) && *c != T(0)) z = 1 / *c;
  *a = r;
  *b = z;
}

template void swap<float>(I, float*, I, float*, I);
template void swap<double>(I, double*, I, double*, I);
template void scal<float>(I, float, float*, I);
template void scal<double>(I, double, double*, I);
template void copy<float>(I, const float*, I, float*, I);
template void copy<double>(I, const double*, I, double*, I);
template void axpy<float>(I, float, const float*, I, float*, I);
template void axpy<double>(I, double, const double*, I, double*, I);
template float dot<float>(I, const float*, I, const float*, I);
template double dot<double>(I, const double*, I, const double*, I);
template float nrm2<float>(I, const float*, I);
template double nrm2<double>(I, const double*, I);
template float asum<float>(I, const float*, I);
template double asum<double>(I, const double*, I);
template I iamax<float>(I, const float*, I);
template I iamax<double>(I, const double*, I);
template void rot<float>(I, float*, I, float*, I, float, float);
template void rot<double>(I, double*, I, double*, I, double, double);
template void rotm<float>(I, float*, I, float*, I, const float*);
template void rotm<double>(I, double*, I, double*, I, const double*);
template void rotg<float>(float*, float*, float*, float*);
template void rotg<double>(double*, double*, double*, double*);

}  // namespace simmpi::blas
