// SPDX-License-Identifier: Apache-2.0
// The Fortran 77 BLAS symbols (dgemm_, ...), as gfortran and C programs calling the Fortran
// interface expect them: every argument by address, options as characters (the hidden length
// arguments that follow are not needed and ignored), functions returning REAL return float.
#include "libsimblas/routines/level1.hpp"
#include "libsimblas/routines/level2.hpp"
#include "libsimblas/routines/level3.hpp"

namespace b = simmpi::blas;

#define API extern "C" __attribute__((visibility("default")))

// Level 1.
#define SIMMPI_F77_L1(p, T)                                                                       \
  API void p##swap_(const int* n, T* x, const int* incx, T* y, const int* incy) {                 \
    b::swap(*n, x, *incx, y, *incy);                                                              \
  }                                                                                               \
  API void p##scal_(const int* n, const T* alpha, T* x, const int* incx) {                        \
    b::scal(*n, *alpha, x, *incx);                                                                \
  }                                                                                               \
  API void p##copy_(const int* n, const T* x, const int* incx, T* y, const int* incy) {           \
    b::copy(*n, x, *incx, y, *incy);                                                              \
  }                                                                                               \
  API void p##axpy_(const int* n, const T* alpha, const T* x, const int* incx, T* y,              \
                    const int* incy) {                                                            \
    b::axpy(*n, *alpha, x, *incx, y, *incy);                                                      \
  }                                                                                               \
  API T p##dot_(const int* n, const T* x, const int* incx, const T* y, const int* incy) {         \
    return b::dot(*n, x, *incx, y, *incy);                                                        \
  }                                                                                               \
  API T p##nrm2_(const int* n, const T* x, const int* incx) {                                     \
    return b::nrm2(*n, x, *incx);                                                                 \
  }                                                                                               \
  API T p##asum_(const int* n, const T* x, const int* incx) {                                     \
    return b::asum(*n, x, *incx);                                                                 \
  }                                                                                               \
  /* Fortran indices start at 1; 0 for an empty vector. */                                        \
  API int i##p##amax_(const int* n, const T* x, const int* incx) {                                \
    return static_cast<int>(b::iamax(*n, x, *incx) + 1);                                          \
  }                                                                                               \
  API void p##rot_(const int* n, T* x, const int* incx, T* y, const int* incy, const T* c,        \
                   const T* s) {                                                                  \
    b::rot(*n, x, *incx, y, *incy, *c, *s);                                                       \
  }                                                                                               \
  API void p##rotm_(const int* n, T* x, const int* incx, T* y, const int* incy, const T* param) { \
    b::rotm(*n, x, *incx, y, *incy, param);                                                       \
  }                                                                                               \
  API void p##rotg_(T* a, T* bb, T* c, T* s) {                                                    \
    b::rotg(a, bb, c, s);                                                                         \
  }                                                                                               \
  API void p##rotmg_(T* d1, T* d2, T* x1, const T* y1, T* param) {                                \
    b::rotmg(d1, d2, x1, *y1, param);                                                             \
  }

SIMMPI_F77_L1(s, float)
SIMMPI_F77_L1(d, double)

API float sdsdot_(const int* n, const float* sb, const float* x, const int* incx, const float* y,
                  const int* incy) {
  return static_cast<float>(*sb + b::dsdot(*n, x, *incx, y, *incy));
}
API double dsdot_(const int* n, const float* x, const int* incx, const float* y, const int* incy) {
  return b::dsdot(*n, x, *incx, y, *incy);
}

// Level 2.
#define TR(c) b::trans_of(c, __func__, #c)
#define UP(c) b::uplo_of(c, __func__, #c)
#define DG(c) b::diag_of(c, __func__, #c)
#define SD(c) b::side_of(c, __func__, #c)
#define SIMMPI_F77_L2(p, T)                                                                        \
  API void p##gemv_(const char* t, const int* m, const int* n, const T* alpha, const T* a,         \
                    const int* lda, const T* x, const int* incx, const T* beta, T* y,              \
                    const int* incy) {                                                             \
    b::gemv(TR(t), *m, *n, *alpha, a, *lda, x, *incx, *beta, y, *incy);                            \
  }                                                                                                \
  API void p##gbmv_(const char* t, const int* m, const int* n, const int* kl, const int* ku,       \
                    const T* alpha, const T* a, const int* lda, const T* x, const int* incx,       \
                    const T* beta, T* y, const int* incy) {                                        \
    b::gbmv(TR(t), *m, *n, *kl, *ku, *alpha, a, *lda, x, *incx, *beta, y, *incy);                  \
  }                                                                                                \
  API void p##symv_(const char* u, const int* n, const T* alpha, const T* a, const int* lda,       \
                    const T* x, const int* incx, const T* beta, T* y, const int* incy) {           \
    b::symv(UP(u), *n, *alpha, a, *lda, x, *incx, *beta, y, *incy);                                \
  }                                                                                                \
  API void p##sbmv_(const char* u, const int* n, const int* k, const T* alpha, const T* a,         \
                    const int* lda, const T* x, const int* incx, const T* beta, T* y,              \
                    const int* incy) {                                                             \
    b::sbmv(UP(u), *n, *k, *alpha, a, *lda, x, *incx, *beta, y, *incy);                            \
  }                                                                                                \
  API void p##spmv_(const char* u, const int* n, const T* alpha, const T* ap, const T* x,          \
                    const int* incx, const T* beta, T* y, const int* incy) {                       \
    b::spmv(UP(u), *n, *alpha, ap, x, *incx, *beta, y, *incy);                                     \
  }                                                                                                \
  API void p##trmv_(const char* u, const char* t, const char* d, const int* n, const T* a,         \
                    const int* lda, T* x, const int* incx) {                                       \
    b::trmv(UP(u), TR(t), DG(d), *n, a, *lda, x, *incx);                                           \
  }                                                                                                \
  API void p##tbmv_(const char* u, const char* t, const char* d, const int* n, const int* k,       \
                    const T* a, const int* lda, T* x, const int* incx) {                           \
    b::tbmv(UP(u), TR(t), DG(d), *n, *k, a, *lda, x, *incx);                                       \
  }                                                                                                \
  API void p##tpmv_(const char* u, const char* t, const char* d, const int* n, const T* ap, T* x,  \
                    const int* incx) {                                                             \
    b::tpmv(UP(u), TR(t), DG(d), *n, ap, x, *incx);                                                \
  }                                                                                                \
  API void p##trsv_(const char* u, const char* t, const char* d, const int* n, const T* a,         \
                    const int* lda, T* x, const int* incx) {                                       \
    b::trsv(UP(u), TR(t), DG(d), *n, a, *lda, x, *incx);                                           \
  }                                                                                                \
  API void p##tbsv_(const char* u, const char* t, const char* d, const int* n, const int* k,       \
                    const T* a, const int* lda, T* x, const int* incx) {                           \
    b::tbsv(UP(u), TR(t), DG(d), *n, *k, a, *lda, x, *incx);                                       \
  }                                                                                                \
  API void p##tpsv_(const char* u, const char* t, const char* d, const int* n, const T* ap, T* x,  \
                    const int* incx) {                                                             \
    b::tpsv(UP(u), TR(t), DG(d), *n, ap, x, *incx);                                                \
  }                                                                                                \
  API void p##ger_(const int* m, const int* n, const T* alpha, const T* x, const int* incx,        \
                   const T* y, const int* incy, T* a, const int* lda) {                            \
    b::ger(*m, *n, *alpha, x, *incx, y, *incy, a, *lda);                                           \
  }                                                                                                \
  API void p##syr_(const char* u, const int* n, const T* alpha, const T* x, const int* incx, T* a, \
                   const int* lda) {                                                               \
    b::syr(UP(u), *n, *alpha, x, *incx, a, *lda);                                                  \
  }                                                                                                \
  API void p##spr_(const char* u, const int* n, const T* alpha, const T* x, const int* incx,       \
                   T* ap) {                                                                        \
    b::spr(UP(u), *n, *alpha, x, *incx, ap);                                                       \
  }                                                                                                \
  API void p##syr2_(const char* u, const int* n, const T* alpha, const T* x, const int* incx,      \
                    const T* y, const int* incy, T* a, const int* lda) {                           \
    b::syr2(UP(u), *n, *alpha, x, *incx, y, *incy, a, *lda);                                       \
  }                                                                                                \
  API void p##spr2_(const char* u, const int* n, const T* alpha, const T* x, const int* incx,      \
                    const T* y, const int* incy, T* ap) {                                          \
    b::spr2(UP(u), *n, *alpha, x, *incx, y, *incy, ap);                                            \
  }

SIMMPI_F77_L2(s, float)
SIMMPI_F77_L2(d, double)

// Level 3.
#define SIMMPI_F77_L3(p, T)                                                                        \
  API void p##gemm_(const char* ta, const char* tb, const int* m, const int* n, const int* k,      \
                    const T* alpha, const T* a, const int* lda, const T* bb, const int* ldb,       \
                    const T* beta, T* c, const int* ldc) {                                         \
    b::gemm(TR(ta), TR(tb), *m, *n, *k, *alpha, a, *lda, bb, *ldb, *beta, c, *ldc);                \
  }                                                                                                \
  API void p##symm_(const char* s, const char* u, const int* m, const int* n, const T* alpha,      \
                    const T* a, const int* lda, const T* bb, const int* ldb, const T* beta, T* c,  \
                    const int* ldc) {                                                              \
    b::symm(SD(s), UP(u), *m, *n, *alpha, a, *lda, bb, *ldb, *beta, c, *ldc);                      \
  }                                                                                                \
  API void p##syrk_(const char* u, const char* t, const int* n, const int* k, const T* alpha,      \
                    const T* a, const int* lda, const T* beta, T* c, const int* ldc) {             \
    b::syrk(UP(u), TR(t), *n, *k, *alpha, a, *lda, *beta, c, *ldc);                                \
  }                                                                                                \
  API void p##syr2k_(const char* u, const char* t, const int* n, const int* k, const T* alpha,     \
                     const T* a, const int* lda, const T* bb, const int* ldb, const T* beta, T* c, \
                     const int* ldc) {                                                             \
    b::syr2k(UP(u), TR(t), *n, *k, *alpha, a, *lda, bb, *ldb, *beta, c, *ldc);                     \
  }                                                                                                \
  API void p##trmm_(const char* s, const char* u, const char* t, const char* d, const int* m,      \
                    const int* n, const T* alpha, const T* a, const int* lda, T* bb,               \
                    const int* ldb) {                                                              \
    b::trmm(SD(s), UP(u), TR(t), DG(d), *m, *n, *alpha, a, *lda, bb, *ldb);                        \
  }                                                                                                \
  API void p##trsm_(const char* s, const char* u, const char* t, const char* d, const int* m,      \
                    const int* n, const T* alpha, const T* a, const int* lda, T* bb,               \
                    const int* ldb) {                                                              \
    b::trsm(SD(s), UP(u), TR(t), DG(d), *m, *n, *alpha, a, *lda, bb, *ldb);                        \
  }

SIMMPI_F77_L3(s, float)
SIMMPI_F77_L3(d, double)
