// SPDX-License-Identifier: Apache-2.0
// BLAS level 1 for float and double, behind both the CBLAS and the Fortran interfaces. Each
// charges its cost (core/charge.hpp) and computes only when asked.
//
// Model-mode results (the data is not read): dot = n and nrm2 = sqrt(n) and asum = n, the values
// for operands whose every element is 1; iamax = a seeded pseudo-random index in [0, n).
// rotg and rotmg work on scalars and always compute.
#pragma once

#include <cstdint>

namespace simmpi::blas {

template <class T>
void swap(std::int64_t n, T* x, std::int64_t incx, T* y, std::int64_t incy);
template <class T>
void scal(std::int64_t n, T alpha, T* x, std::int64_t incx);
template <class T>
void copy(std::int64_t n, const T* x, std::int64_t incx, T* y, std::int64_t incy);
template <class T>
void axpy(std::int64_t n, T alpha, const T* x, std::int64_t incx, T* y, std::int64_t incy);
template <class T>
T dot(std::int64_t n, const T* x, std::int64_t incx, const T* y, std::int64_t incy);
// Single-precision operands accumulated in double (sdsdot adds sb and rounds to float).
double dsdot(std::int64_t n, const float* x, std::int64_t incx, const float* y, std::int64_t incy);
template <class T>
T nrm2(std::int64_t n, const T* x, std::int64_t incx);
template <class T>
T asum(std::int64_t n, const T* x, std::int64_t incx);
// Index from 0 of the first element of largest |x(i)|; -1 when n < 1 or incx < 1.
template <class T>
std::int64_t iamax(std::int64_t n, const T* x, std::int64_t incx);
template <class T>
void rot(std::int64_t n, T* x, std::int64_t incx, T* y, std::int64_t incy, T c, T s);
template <class T>
void rotm(std::int64_t n, T* x, std::int64_t incx, T* y, std::int64_t incy, const T* param);
template <class T>
void rotg(T* a, T* b, T* c, T* s);
template <class T>
void rotmg(T* d1, T* d2, T* x1, T y1, T* param);

}  // namespace simmpi::blas
