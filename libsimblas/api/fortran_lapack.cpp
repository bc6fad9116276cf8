// SPDX-License-Identifier: Apache-2.0
// The Fortran LAPACK symbols HPL-style codes call: ?getrf_, ?getrs_, ?laswp_, ?lacpy_, ?lange_.
#include "libsimblas/routines/lapack.hpp"

namespace b = simmpi::blas;

#define API extern "C" __attribute__((visibility("default")))

#define SIMMPI_F77_LAPACK(p, T)                                                                \
  API void p##getrf_(const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info) { \
    *info = static_cast<int>(b::getrf(*m, *n, a, *lda, ipiv));                                 \
  }                                                                                            \
  API void p##getrs_(const char* t, const int* n, const int* nrhs, const T* a, const int* lda, \
                     const int* ipiv, T* bb, const int* ldb, int* info) {                      \
    *info = static_cast<int>(                                                                  \
        b::getrs(b::trans_of(t, __func__, "trans"), *n, *nrhs, a, *lda, ipiv, bb, *ldb));      \
  }                                                                                            \
  API void p##laswp_(const int* n, T* a, const int* lda, const int* k1, const int* k2,         \
                     const int* ipiv, const int* incx) {                                       \
    b::laswp(*n, a, *lda, *k1, *k2, ipiv, *incx);                                              \
  }                                                                                            \
  API void p##lacpy_(const char* uplo, const int* m, const int* n, const T* a, const int* lda, \
                     T* bb, const int* ldb) {                                                  \
    b::lacpy(*uplo, *m, *n, a, *lda, bb, *ldb);                                                \
  }                                                                                            \
  /* work is not needed: the one-norm and infinity norm are summed internally. */              \
  API T p##lange_(const char* norm, const int* m, const int* n, const T* a, const int* lda,    \
                  T* /*work*/) {                                                               \
    return b::lange(*norm, *m, *n, a, *lda);                                                   \
  }

SIMMPI_F77_LAPACK(s, float)
SIMMPI_F77_LAPACK(d, double)
