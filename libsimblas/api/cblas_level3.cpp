// SPDX-License-Identifier: Apache-2.0
// CBLAS level 3. A row-major call computes the transposed problem in column-major order:
// C^T = op(B)^T op(A)^T for gemm; symm, trmm and trsm swap the side and triangle and exchange m
// and n; syrk and syr2k flip the triangle and the transpose.
#include <cblas.h>

#include <utility>

#include "libsimblas/routines/level3.hpp"

namespace {

namespace b = simmpi::blas;
using b::I;

template <class T>
void gemm(const char* name, int order, int ta, int tb, I m, I n, I k, T alpha, const T* a, I lda,
          const T* bb, I ldb, T beta, T* c, I ldc) {
  b::Trans t1 = b::trans_of(ta, name, "TransA"), t2 = b::trans_of(tb, name, "TransB");
  if (b::is_row_major(order, name))
    b::gemm(t2, t1, n, m, k, alpha, bb, ldb, a, lda, beta, c, ldc);
  else
    b::gemm(t1, t2, m, n, k, alpha, a, lda, bb, ldb, beta, c, ldc);
}

template <class T>
void symm(const char* name, int order, int side, int uplo, I m, I n, T alpha, const T* a, I lda,
          const T* bb, I ldb, T beta, T* c, I ldc) {
  b::Side s = b::side_of(side, name, "Side");
  b::Uplo u = b::uplo_of(uplo, name, "Uplo");
  if (b::is_row_major(order, name))
    b::symm(b::flip(s), b::flip(u), n, m, alpha, a, lda, bb, ldb, beta, c, ldc);
  else
    b::symm(s, u, m, n, alpha, a, lda, bb, ldb, beta, c, ldc);
}

template <class T>
void syrk(const char* name, int order, int uplo, int trans, I n, I k, T alpha, const T* a, I lda,
          T beta, T* c, I ldc) {
  b::Uplo u = b::uplo_of(uplo, name, "Uplo");
  b::Trans t = b::trans_of(trans, name, "Trans");
  if (b::is_row_major(order, name)) u = b::flip(u), t = b::flip(t);
  b::syrk(u, t, n, k, alpha, a, lda, beta, c, ldc);
}

template <class T>
void syr2k(const char* name, int order, int uplo, int trans, I n, I k, T alpha, const T* a, I lda,
           const T* bb, I ldb, T beta, T* c, I ldc) {
  b::Uplo u = b::uplo_of(uplo, name, "Uplo");
  b::Trans t = b::trans_of(trans, name, "Trans");
  if (b::is_row_major(order, name)) u = b::flip(u), t = b::flip(t);
  b::syr2k(u, t, n, k, alpha, a, lda, bb, ldb, beta, c, ldc);
}

// trmm (solve = false) and trsm.
template <class T>
void triangular(bool solve, const char* name, int order, int side, int uplo, int ta, int diag, I m,
                I n, T alpha, const T* a, I lda, T* bb, I ldb) {
  b::Side s = b::side_of(side, name, "Side");
  b::Uplo u = b::uplo_of(uplo, name, "Uplo");
  b::Trans t = b::trans_of(ta, name, "TransA");
  b::Diag d = b::diag_of(diag, name, "Diag");
  if (b::is_row_major(order, name)) s = b::flip(s), u = b::flip(u), std::swap(m, n);
  if (solve)
    b::trsm(s, u, t, d, m, n, alpha, a, lda, bb, ldb);
  else
    b::trmm(s, u, t, d, m, n, alpha, a, lda, bb, ldb);
}

}  // namespace

extern "C" {

#define SIMMPI_CBLAS_L3(p, T)                                                                      \
  void cblas_##p##gemm(const enum CBLAS_ORDER o, const enum CBLAS_TRANSPOSE ta,                    \
                       const enum CBLAS_TRANSPOSE tb, const int m, const int n, const int k,       \
                       const T alpha, const T* a, const int lda, const T* bb, const int ldb,       \
                       const T beta, T* c, const int ldc) {                                        \
    gemm<T>("cblas_" #p "gemm", o, ta, tb, m, n, k, alpha, a, lda, bb, ldb, beta, c, ldc);         \
  }                                                                                                \
  void cblas_##p##symm(const enum CBLAS_ORDER o, const enum CBLAS_SIDE s, const enum CBLAS_UPLO u, \
                       const int m, const int n, const T alpha, const T* a, const int lda,         \
                       const T* bb, const int ldb, const T beta, T* c, const int ldc) {            \
    symm<T>("cblas_" #p "symm", o, s, u, m, n, alpha, a, lda, bb, ldb, beta, c, ldc);              \
  }                                                                                                \
  void cblas_##p##syrk(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u,                          \
                       const enum CBLAS_TRANSPOSE t, const int n, const int k, const T alpha,      \
                       const T* a, const int lda, const T beta, T* c, const int ldc) {             \
    syrk<T>("cblas_" #p "syrk", o, u, t, n, k, alpha, a, lda, beta, c, ldc);                       \
  }                                                                                                \
  void cblas_##p##syr2k(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u,                         \
                        const enum CBLAS_TRANSPOSE t, const int n, const int k, const T alpha,     \
                        const T* a, const int lda, const T* bb, const int ldb, const T beta, T* c, \
                        const int ldc) {                                                           \
    syr2k<T>("cblas_" #p "syr2k", o, u, t, n, k, alpha, a, lda, bb, ldb, beta, c, ldc);            \
  }                                                                                                \
  void cblas_##p##trmm(const enum CBLAS_ORDER o, const enum CBLAS_SIDE s, const enum CBLAS_UPLO u, \
                       const enum CBLAS_TRANSPOSE ta, const enum CBLAS_DIAG d, const int m,        \
                       const int n, const T alpha, const T* a, const int lda, T* bb,               \
                       const int ldb) {                                                            \
    triangular<T>(false, "cblas_" #p "trmm", o, s, u, ta, d, m, n, alpha, a, lda, bb, ldb);        \
  }                                                                                                \
  void cblas_##p##trsm(const enum CBLAS_ORDER o, const enum CBLAS_SIDE s, const enum CBLAS_UPLO u, \
                       const enum CBLAS_TRANSPOSE ta, const enum CBLAS_DIAG d, const int m,        \
                       const int n, const T alpha, const T* a, const int lda, T* bb,               \
                       const int ldb) {                                                            \
    triangular<T>(true, "cblas_" #p "trsm", o, s, u, ta, d, m, n, alpha, a, lda, bb, ldb);         \
  }

SIMMPI_CBLAS_L3(s, float)
SIMMPI_CBLAS_L3(d, double)
#undef SIMMPI_CBLAS_L3

}  // extern "C"
