// SPDX-License-Identifier: Apache-2.0
// CBLAS level 1: the C entry points, forwarding to the routines (increments and order need no
// translation at level 1).
#include <cblas.h>

#include "libsimblas/routines/level1.hpp"

namespace b = simmpi::blas;

extern "C" {

float cblas_sdsdot(const int n, const float alpha, const float* x, const int incx, const float* y,
                   const int incy) {
  return static_cast<float>(alpha + b::dsdot(n, x, incx, y, incy));
}
double cblas_dsdot(const int n, const float* x, const int incx, const float* y, const int incy) {
  return b::dsdot(n, x, incx, y, incy);
}
float cblas_sdot(const int n, const float* x, const int incx, const float* y, const int incy) {
  return b::dot(n, x, incx, y, incy);
}
double cblas_ddot(const int n, const double* x, const int incx, const double* y, const int incy) {
  return b::dot(n, x, incx, y, incy);
}
float cblas_snrm2(const int n, const float* x, const int incx) {
  return b::nrm2(n, x, incx);
}
double cblas_dnrm2(const int n, const double* x, const int incx) {
  return b::nrm2(n, x, incx);
}
float cblas_sasum(const int n, const float* x, const int incx) {
  return b::asum(n, x, incx);
}
double cblas_dasum(const int n, const double* x, const int incx) {
  return b::asum(n, x, incx);
}
// CBLAS indices start at 0; an empty vector gives 0.
CBLAS_INDEX cblas_isamax(const int n, const float* x, const int incx) {
  auto i = b::iamax(n, x, incx);
  return i < 0 ? 0 : static_cast<CBLAS_INDEX>(i);
}
CBLAS_INDEX cblas_idamax(const int n, const double* x, const int incx) {
  auto i = b::iamax(n, x, incx);
  return i < 0 ? 0 : static_cast<CBLAS_INDEX>(i);
}
void cblas_sswap(const int n, float* x, const int incx, float* y, const int incy) {
  b::swap(n, x, incx, y, incy);
}
void cblas_dswap(const int n, double* x, const int incx, double* y, const int incy) {
  b::swap(n, x, incx, y, incy);
}
void cblas_scopy(const int n, const float* x, const int incx, float* y, const int incy) {
  b::copy(n, x, incx, y, incy);
}
void cblas_dcopy(const int n, const double* x, const int incx, double* y, const int incy) {
  b::copy(n, x, incx, y, incy);
}
void cblas_saxpy(const int n, const float alpha, const float* x, const int incx, float* y,
                 const int incy) {
  b::axpy(n, alpha, x, incx, y, incy);
}
void cblas_daxpy(const int n, const double alpha, const double* x, const int incx, double* y,
                 const int incy) {
  b::axpy(n, alpha, x, incx, y, incy);
}
void cblas_srotg(float* a, float* bb, float* c, float* s) {
  b::rotg(a, bb, c, s);
}
void cblas_drotg(double* a, double* bb, double* c, double* s) {
  b::rotg(a, bb, c, s);
}
void cblas_srotmg(float* d1, float* d2, float* b1, const float b2, float* p) {
  b::rotmg(d1, d2, b1, b2, p);
}
void cblas_drotmg(double* d1, double* d2, double* b1, const double b2, double* p) {
  b::rotmg(d1, d2, b1, b2, p);
}
void cblas_srot(const int n, float* x, const int incx, float* y, const int incy, const float c,
                const float s) {
  b::rot(n, x, incx, y, incy, c, s);
}
void cblas_drot(const int n, double* x, const int incx, double* y, const int incy, const double c,
                const double s) {
  b::rot(n, x, incx, y, incy, c, s);
}
void cblas_srotm(const int n, float* x, const int incx, float* y, const int incy, const float* p) {
  b::rotm(n, x, incx, y, incy, p);
}
void cblas_drotm(const int n, double* x, const int incx, double* y, const int incy,
                 const double* p) {
  b::rotm(n, x, incx, y, incy, p);
}
void cblas_sscal(const int n, const float alpha, float* x, const int incx) {
  b::scal(n, alpha, x, incx);
}
void cblas_dscal(const int n, const double alpha, double* x, const int incx) {
  b::scal(n, alpha, x, incx);
}

}  // extern "C"
