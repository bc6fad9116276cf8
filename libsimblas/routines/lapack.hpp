// SPDX-License-Identifier: Apache-2.0
// The LAPACK routines HPL-style codes call, for float and double, column-major, with LAPACK's
// 1-based pivot indices. getrs, built from laswp and trsm, charges what those charge.
//
// Model mode (no data is read): getrf fills ipiv with seeded pseudo-random pivots, ipiv(i) in
// [i, m] as partial pivoting could choose, and reports info = 0; lange returns the norm of an
// all-ones matrix (max: 1, one: m, infinity: n, Frobenius: sqrt(m n)).
#pragma once

#include <cstdint>

#include "libsimblas/core/blas_args.hpp"

namespace simmpi::blas {

using I = std::int64_t;

// Returns LAPACK's info: 0, -i for a bad argument i, or j > 0 when U(j, j) is exactly zero.
template <class T>
I getrf(I m, I n, T* a, I lda, int* ipiv);
template <class T>
I getrs(Trans t, I n, I nrhs, const T* a, I lda, const int* ipiv, T* b, I ldb);
template <class T>
void laswp(I n, T* a, I lda, I k1, I k2, const int* ipiv, I incx);
// uplo 'U' or 'L' copies that triangle (trapezoid), anything else the whole matrix.
template <class T>
void lacpy(char uplo, I m, I n, const T* a, I lda, T* b, I ldb);
// norm 'M' (max |a|), '1' or 'O', 'I', 'F' or 'E'.
template <class T>
T lange(char norm, I m, I n, const T* a, I lda);

}  // namespace simmpi::blas
