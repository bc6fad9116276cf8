// SPDX-License-Identifier: Apache-2.0
// The modified Givens rotation setup (reference BLAS drotmg, with its rescaling by gam = 4096
// that keeps d1 and d2 within [1/gam^2, gam^2]). Scalars only: it always computes.
#include <cmath>

#include "libsimblas/core/charge.hpp"
#include "libsimblas/core/cost.hpp"
#include "libsimblas/routines/level1.hpp"

namespace simmpi::blas {
namespace {

template <class T>
struct Rotmg {
  T flag = 0, h11 = 0, h12 = 0, h21 = 0, h22 = 0;

  void zero(T* d1, T* d2, T* x1) {
    flag = -1, h11 = h12 = h21 = h22 = 0;
    *d1 = *d2 = *x1 = 0;
  }
  void make_full() {
    if (flag == T(0))
      h11 = 1, h22 = 1;
    else
      h21 = -1, h12 = 1;
    flag = -1;
  }
  // Brings |d| into range; `first` selects the row of H that is rescaled with it.
  void rescale(T* d, T* x1, bool first) {
    const T gam = 4096, gamsq = gam * gam, rgamsq = 1 / gamsq;
    while (*d != T(0) && (std::fabs(*d) <= rgamsq || std::fabs(*d) >= gamsq)) {
      make_full();
      T f = std::fabs(*d) <= rgamsq ? 1 / gam : gam;
      *d = std::fabs(*d) <= rgamsq ? *d * gamsq : *d / gamsq;
      if (first)
        *x1 *= f, h11 *= f, h12 *= f;
      else
        h21 *= f, h22 *= f;
    }
  }
};

}  // namespace

template <class T>
void rotmg(T* d1, T* d2, T* x1, T y1, T* param) {
  (void)charge(cost::level1(sizeof(T), hardware::Kernel::Rotm, 1));  // always computed below
  Rotmg<T> r;
  if (*d1 < T(0)) {
    r.zero(d1, d2, x1);
  } else {
    T p2 = *d2 * y1;
    if (p2 == T(0)) {
      param[0] = -2;
      return;
    }
    T p1 = *d1 * *x1, q2 = p2 * y1, q1 = p1 * *x1;
    if (std::fabs(q1) > std::fabs(q2)) {
      r.h21 = -y1 / *x1, r.h12 = p2 / p1;
      T u = 1 - r.h12 * r.h21;
      if (u > T(0)) {
        r.flag = 0, *d1 /= u, *d2 /= u, *x1 *= u;
      } else {
        r.zero(d1, d2, x1);
      }
    } else if (q2 < T(0)) {
      r.zero(d1, d2, x1);
    } else {
      r.flag = 1, r.h11 = p1 / p2, r.h22 = *x1 / y1;
      T u = 1 + r.h11 * r.h22, t = *d2 / u;
      *d2 = *d1 / u, *d1 = t, *x1 = y1 * u;
    }
    r.rescale(d1, x1, true);
    r.rescale(d2, x1, false);
  }
  if (r.flag < T(0))
    param[1] = r.h11, param[2] = r.h21, param[3] = r.h12, param[4] = r.h22;
  else if (r.flag == T(0))
    param[2] = r.h21, param[3] = r.h12;
  else
    param[1] = r.h11, param[4] = r.h22;
  param[0] = r.flag;
}

template void rotmg<float>(float*, float*, float*, float, float*);
template void rotmg<double>(double*, double*, double*, double, double*);

}  // namespace simmpi::blas
