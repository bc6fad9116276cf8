// SPDX-License-Identifier: Apache-2.0
// BLAS level 3 for float and double on column-major operands (the Fortran argument lists). Each
// checks its arguments, charges its cost and computes (with Eigen) only when asked.
#pragma once

#include <cstdint>

#include "libsimblas/core/blas_args.hpp"

namespace simmpi::blas {

using I = std::int64_t;

template <class T>
void gemm(Trans ta, Trans tb, I m, I n, I k, T alpha, const T* a, I lda, const T* b, I ldb, T beta,
          T* c, I ldc);
template <class T>
void symm(Side s, Uplo u, I m, I n, T alpha, const T* a, I lda, const T* b, I ldb, T beta, T* c,
          I ldc);
template <class T>
void syrk(Uplo u, Trans t, I n, I k, T alpha, const T* a, I lda, T beta, T* c, I ldc);
template <class T>
void syr2k(Uplo u, Trans t, I n, I k, T alpha, const T* a, I lda, const T* b, I ldb, T beta, T* c,
           I ldc);
template <class T>
void trmm(Side s, Uplo u, Trans t, Diag d, I m, I n, T alpha, const T* a, I lda, T* b, I ldb);
template <class T>
void trsm(Side s, Uplo u, Trans t, Diag d, I m, I n, T alpha, const T* a, I lda, T* b, I ldb);

// The computations alone (no check, no charge), for routines built from them (getrf, cuBLAS).
namespace exec {
template <class T>
void gemm(Trans ta, Trans tb, I m, I n, I k, T alpha, const T* a, I lda, const T* b, I ldb, T beta,
          T* c, I ldc);
template <class T>
void symm(Side s, Uplo u, I m, I n, T alpha, const T* a, I lda, const T* b, I ldb, T beta, T* c,
          I ldc);
template <class T>
void syrk(Uplo u, Trans t, I n, I k, T alpha, const T* a, I lda, T beta, T* c, I ldc);
template <class T>
void syr2k(Uplo u, Trans t, I n, I k, T alpha, const T* a, I lda, const T* b, I ldb, T beta, T* c,
           I ldc);
template <class T>
void trmm(Side s, Uplo u, Trans t, Diag d, I m, I n, T alpha, const T* a, I lda, T* b, I ldb);
template <class T>
void trsm(Side s, Uplo u, Trans t, Diag d, I m, I n, T alpha, const T* a, I lda, T* b, I ldb);
}  // namespace exec

}  // namespace simmpi::blas
