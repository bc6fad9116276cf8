// SPDX-License-Identifier: Apache-2.0
// BLAS level 2 for float and double on column-major operands (the Fortran argument lists);
// CBLAS row-major calls are mapped onto these by the CBLAS layer. Each checks its arguments,
// charges its cost and computes only when asked (core/charge.hpp).
#pragma once

#include <cstdint>

#include "libsimblas/core/blas_args.hpp"

namespace simmpi::blas {

using I = std::int64_t;

template <class T>
void gemv(Trans t, I m, I n, T alpha, const T* a, I lda, const T* x, I incx, T beta, T* y, I incy);
template <class T>
void gbmv(Trans t, I m, I n, I kl, I ku, T alpha, const T* a, I lda, const T* x, I incx, T beta,
          T* y, I incy);
template <class T>
void ger(I m, I n, T alpha, const T* x, I incx, const T* y, I incy, T* a, I lda);

// Symmetric: full (symv), band with k off-diagonals (sbmv), packed (spmv).
template <class T>
void symv(Uplo u, I n, T alpha, const T* a, I lda, const T* x, I incx, T beta, T* y, I incy);
template <class T>
void sbmv(Uplo u, I n, I k, T alpha, const T* a, I lda, const T* x, I incx, T beta, T* y, I incy);
template <class T>
void spmv(Uplo u, I n, T alpha, const T* ap, const T* x, I incx, T beta, T* y, I incy);
template <class T>
void syr(Uplo u, I n, T alpha, const T* x, I incx, T* a, I lda);
template <class T>
void spr(Uplo u, I n, T alpha, const T* x, I incx, T* ap);
template <class T>
void syr2(Uplo u, I n, T alpha, const T* x, I incx, const T* y, I incy, T* a, I lda);
template <class T>
void spr2(Uplo u, I n, T alpha, const T* x, I incx, const T* y, I incy, T* ap);

// Triangular multiply (x = op(A) x) and solve (op(A) x = b), full, band, packed.
template <class T>
void trmv(Uplo u, Trans t, Diag d, I n, const T* a, I lda, T* x, I incx);
template <class T>
void tbmv(Uplo u, Trans t, Diag d, I n, I k, const T* a, I lda, T* x, I incx);
template <class T>
void tpmv(Uplo u, Trans t, Diag d, I n, const T* ap, T* x, I incx);
template <class T>
void trsv(Uplo u, Trans t, Diag d, I n, const T* a, I lda, T* x, I incx);
template <class T>
void tbsv(Uplo u, Trans t, Diag d, I n, I k, const T* a, I lda, T* x, I incx);
template <class T>
void tpsv(Uplo u, Trans t, Diag d, I n, const T* ap, T* x, I incx);

}  // namespace simmpi::blas
