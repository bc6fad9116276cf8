// SPDX-License-Identifier: Apache-2.0
// CBLAS level 2. A row-major matrix is the column-major storage of its transpose, so a
// row-major call becomes the column-major routine on A^T: general matrices swap m and n (and a
// band's kl and ku) and flip the transpose; symmetric ones flip the triangle; triangular ones
// flip both triangle and transpose.
#include <cblas.h>

#include "libsimblas/routines/level2.hpp"

namespace {

namespace b = simmpi::blas;
using b::I;

template <class T>
void gemv(const char* name, int order, int ta, I m, I n, T alpha, const T* a, I lda, const T* x,
          I incx, T beta, T* y, I incy) {
  b::Trans t = b::trans_of(ta, name, "TransA");
  if (b::is_row_major(order, name))
    b::gemv(b::flip(t), n, m, alpha, a, lda, x, incx, beta, y, incy);
  else
    b::gemv(t, m, n, alpha, a, lda, x, incx, beta, y, incy);
}

template <class T>
void gbmv(const char* name, int order, int ta, I m, I n, I kl, I ku, T alpha, const T* a, I lda,
          const T* x, I incx, T beta, T* y, I incy) {
  b::Trans t = b::trans_of(ta, name, "TransA");
  if (b::is_row_major(order, name))
    b::gbmv(b::flip(t), n, m, ku, kl, alpha, a, lda, x, incx, beta, y, incy);
  else
    b::gbmv(t, m, n, kl, ku, alpha, a, lda, x, incx, beta, y, incy);
}

// Triangle and transpose of the column-major view.
struct TriArgs {
  b::Uplo u;
  b::Trans t;
  b::Diag d;
};
TriArgs tri_args(const char* name, int order, int uplo, int ta, int diag) {
  TriArgs r{b::uplo_of(uplo, name, "Uplo"), b::trans_of(ta, name, "TransA"),
            b::diag_of(diag, name, "Diag")};
  if (b::is_row_major(order, name)) r.u = b::flip(r.u), r.t = b::flip(r.t);
  return r;
}

b::Uplo sym_uplo(const char* name, int order, int uplo) {
  b::Uplo u = b::uplo_of(uplo, name, "Uplo");
  return b::is_row_major(order, name) ? b::flip(u) : u;
}

}  // namespace

extern "C" {

#define SIMMPI_CBLAS_L2(p, T)                                                                      \
  void cblas_##p##gemv(const enum CBLAS_ORDER o, const enum CBLAS_TRANSPOSE ta, const int m,       \
                       const int n, const T alpha, const T* a, const int lda, const T* x,          \
                       const int incx, const T beta, T* y, const int incy) {                       \
    gemv<T>("cblas_" #p "gemv", o, ta, m, n, alpha, a, lda, x, incx, beta, y, incy);               \
  }                                                                                                \
  void cblas_##p##gbmv(const enum CBLAS_ORDER o, const enum CBLAS_TRANSPOSE ta, const int m,       \
                       const int n, const int kl, const int ku, const T alpha, const T* a,         \
                       const int lda, const T* x, const int incx, const T beta, T* y,              \
                       const int incy) {                                                           \
    gbmv<T>("cblas_" #p "gbmv", o, ta, m, n, kl, ku, alpha, a, lda, x, incx, beta, y, incy);       \
  }                                                                                                \
  void cblas_##p##trmv(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u,                          \
                       const enum CBLAS_TRANSPOSE ta, const enum CBLAS_DIAG d, const int n,        \
                       const T* a, const int lda, T* x, const int incx) {                          \
    TriArgs r = tri_args("cblas_" #p "trmv", o, u, ta, d);                                         \
    b::trmv(r.u, r.t, r.d, n, a, lda, x, incx);                                                    \
  }                                                                                                \
  void cblas_##p##tbmv(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u,                          \
                       const enum CBLAS_TRANSPOSE ta, const enum CBLAS_DIAG d, const int n,        \
                       const int k, const T* a, const int lda, T* x, const int incx) {             \
    TriArgs r = tri_args("cblas_" #p "tbmv", o, u, ta, d);                                         \
    b::tbmv(r.u, r.t, r.d, n, k, a, lda, x, incx);                                                 \
  }                                                                                                \
  void cblas_##p##tpmv(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u,                          \
                       const enum CBLAS_TRANSPOSE ta, const enum CBLAS_DIAG d, const int n,        \
                       const T* ap, T* x, const int incx) {                                        \
    TriArgs r = tri_args("cblas_" #p "tpmv", o, u, ta, d);                                         \
    b::tpmv(r.u, r.t, r.d, n, ap, x, incx);                                                        \
  }                                                                                                \
  void cblas_##p##trsv(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u,                          \
                       const enum CBLAS_TRANSPOSE ta, const enum CBLAS_DIAG d, const int n,        \
                       const T* a, const int lda, T* x, const int incx) {                          \
    TriArgs r = tri_args("cblas_" #p "trsv", o, u, ta, d);                                         \
    b::trsv(r.u, r.t, r.d, n, a, lda, x, incx);                                                    \
  }                                                                                                \
  void cblas_##p##tbsv(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u,                          \
                       const enum CBLAS_TRANSPOSE ta, const enum CBLAS_DIAG d, const int n,        \
                       const int k, const T* a, const int lda, T* x, const int incx) {             \
    TriArgs r = tri_args("cblas_" #p "tbsv", o, u, ta, d);                                         \
    b::tbsv(r.u, r.t, r.d, n, k, a, lda, x, incx);                                                 \
  }                                                                                                \
  void cblas_##p##tpsv(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u,                          \
                       const enum CBLAS_TRANSPOSE ta, const enum CBLAS_DIAG d, const int n,        \
                       const T* ap, T* x, const int incx) {                                        \
    TriArgs r = tri_args("cblas_" #p "tpsv", o, u, ta, d);                                         \
    b::tpsv(r.u, r.t, r.d, n, ap, x, incx);                                                        \
  }                                                                                                \
  void cblas_##p##symv(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u, const int n,             \
                       const T alpha, const T* a, const int lda, const T* x, const int incx,       \
                       const T beta, T* y, const int incy) {                                       \
    b::symv(sym_uplo("cblas_" #p "symv", o, u), n, alpha, a, lda, x, incx, beta, y, incy);         \
  }                                                                                                \
  void cblas_##p##sbmv(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u, const int n,             \
                       const int k, const T alpha, const T* a, const int lda, const T* x,          \
                       const int incx, const T beta, T* y, const int incy) {                       \
    b::sbmv(sym_uplo("cblas_" #p "sbmv", o, u), n, k, alpha, a, lda, x, incx, beta, y, incy);      \
  }                                                                                                \
  void cblas_##p##spmv(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u, const int n,             \
                       const T alpha, const T* ap, const T* x, const int incx, const T beta, T* y, \
                       const int incy) {                                                           \
    b::spmv(sym_uplo("cblas_" #p "spmv", o, u), n, alpha, ap, x, incx, beta, y, incy);             \
  }                                                                                                \
  void cblas_##p##ger(const enum CBLAS_ORDER o, const int m, const int n, const T alpha,           \
                      const T* x, const int incx, const T* y, const int incy, T* a,                \
                      const int lda) {                                                             \
    if (b::is_row_major(o, "cblas_" #p "ger"))                                                     \
      b::ger(n, m, alpha, y, incy, x, incx, a, lda);                                               \
    else                                                                                           \
      b::ger(m, n, alpha, x, incx, y, incy, a, lda);                                               \
  }                                                                                                \
  void cblas_##p##syr(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u, const int n,              \
                      const T alpha, const T* x, const int incx, T* a, const int lda) {            \
    b::syr(sym_uplo("cblas_" #p "syr", o, u), n, alpha, x, incx, a, lda);                          \
  }                                                                                                \
  void cblas_##p##spr(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u, const int n,              \
                      const T alpha, const T* x, const int incx, T* ap) {                          \
    b::spr(sym_uplo("cblas_" #p "spr", o, u), n, alpha, x, incx, ap);                              \
  }                                                                                                \
  void cblas_##p##syr2(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u, const int n,             \
                       const T alpha, const T* x, const int incx, const T* y, const int incy,      \
                       T* a, const int lda) {                                                      \
    b::syr2(sym_uplo("cblas_" #p "syr2", o, u), n, alpha, x, incx, y, incy, a, lda);               \
  }                                                                                                \
  void cblas_##p##spr2(const enum CBLAS_ORDER o, const enum CBLAS_UPLO u, const int n,             \
                       const T alpha, const T* x, const int incx, const T* y, const int incy,      \
                       T* ap) {                                                                    \
    b::spr2(sym_uplo("cblas_" #p "spr2", o, u), n, alpha, x, incx, y, incy, ap);                   \
  }

// One definition per routine, stamped for both precisions (the C symbols need distinct names).
SIMMPI_CBLAS_L2(s, float)
SIMMPI_CBLAS_L2(d, double)
#undef SIMMPI_CBLAS_L2

}  // extern "C"
