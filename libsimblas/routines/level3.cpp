// SPDX-License-Identifier: Apache-2.0
// BLAS level 3: argument checks, cost and charge; the computations are in exec_*.cpp.
#include "libsimblas/routines/level3.hpp"

#include "libsimblas/core/charge.hpp"
#include "libsimblas/core/cost.hpp"

namespace simmpi::blas {
namespace {

struct Checker {
  std::string name;
  Checker(int elem_size, const char* base) : name(routine_name(elem_size, base)) {}
  const Checker& dim(const char* arg, I v) const {
    check_dim(name.c_str(), arg, v);
    return *this;
  }
  const Checker& ld(const char* arg, I v, I rows) const {
    check_ld(name.c_str(), arg, v, rows);
    return *this;
  }
};

}  // namespace

template <class T>
void gemm(Trans ta, Trans tb, I m, I n, I k, T alpha, const T* a, I lda, const T* b, I ldb, T beta,
          T* c, I ldc) {
  Checker(sizeof(T), "gemm")
      .dim("m", m)
      .dim("n", n)
      .dim("k", k)
      .ld("lda", lda, ta == Trans::No ? m : k)
      .ld("ldb", ldb, tb == Trans::No ? k : n)
      .ld("ldc", ldc, m);
  if (auto charged = charge(cost::gemm(sizeof(T), m, n, k, beta != T(0))))
    exec::gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <class T>
void symm(Side s, Uplo u, I m, I n, T alpha, const T* a, I lda, const T* b, I ldb, T beta, T* c,
          I ldc) {
  Checker(sizeof(T), "symm")
      .dim("m", m)
      .dim("n", n)
      .ld("lda", lda, s == Side::Left ? m : n)
      .ld("ldb", ldb, m)
      .ld("ldc", ldc, m);
  if (auto charged = charge(cost::symm(sizeof(T), s, m, n, beta != T(0))))
    exec::symm(s, u, m, n, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <class T>
void syrk(Uplo u, Trans t, I n, I k, T alpha, const T* a, I lda, T beta, T* c, I ldc) {
  Checker(sizeof(T), "syrk")
      .dim("n", n)
      .dim("k", k)
      .ld("lda", lda, t == Trans::No ? n : k)
      .ld("ldc", ldc, n);
  if (auto charged = charge(cost::syrk(sizeof(T), n, k, beta != T(0))))
    exec::syrk(u, t, n, k, alpha, a, lda, beta, c, ldc);
}

template <class T>
void syr2k(Uplo u, Trans t, I n, I k, T alpha, const T* a, I lda, const T* b, I ldb, T beta, T* c,
           I ldc) {
  I rows = t == Trans::No ? n : k;
  Checker(sizeof(T), "syr2k")
      .dim("n", n)
      .dim("k", k)
      .ld("lda", lda, rows)
      .ld("ldb", ldb, rows)
      .ld("ldc", ldc, n);
  if (auto charged = charge(cost::syr2k(sizeof(T), n, k, beta != T(0))))
    exec::syr2k(u, t, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

template <class T>
void trmm(Side s, Uplo u, Trans t, Diag d, I m, I n, T alpha, const T* a, I lda, T* b, I ldb) {
  Checker(sizeof(T), "trmm")
      .dim("m", m)
      .dim("n", n)
      .ld("lda", lda, s == Side::Left ? m : n)
      .ld("ldb", ldb, m);
  if (auto charged = charge(cost::trmm(sizeof(T), s, m, n)))
    exec::trmm(s, u, t, d, m, n, alpha, a, lda, b, ldb);
}

template <class T>
void trsm(Side s, Uplo u, Trans t, Diag d, I m, I n, T alpha, const T* a, I lda, T* b, I ldb) {
  Checker(sizeof(T), "trsm")
      .dim("m", m)
      .dim("n", n)
      .ld("lda", lda, s == Side::Left ? m : n)
      .ld("ldb", ldb, m);
  if (auto charged = charge(cost::trsm(sizeof(T), s, m, n)))
    exec::trsm(s, u, t, d, m, n, alpha, a, lda, b, ldb);
}

#define SIMMPI_LEVEL3(T)                                                               \
  template void gemm<T>(Trans, Trans, I, I, I, T, const T*, I, const T*, I, T, T*, I); \
  template void symm<T>(Side, Uplo, I, I, T, const T*, I, const T*, I, T, T*, I);      \
  template void syrk<T>(Uplo, Trans, I, I, T, const T*, I, T, T*, I);                  \
  template void syr2k<T>(Uplo, Trans, I, I, T, const T*, I, const T*, I, T, T*, I);    \
  template void trmm<T>(Side, Uplo, Trans, Diag, I, I, T, const T*, I, T*, I);         \
  template void trsm<T>(Side, Uplo, Trans, Diag, I, I, T, const T*, I, T*, I);
SIMMPI_LEVEL3(float)
SIMMPI_LEVEL3(double)
#undef SIMMPI_LEVEL3

}  // namespace simmpi::blas
