// SPDX-License-Identifier: Apache-2.0
// Execute mode of gemm, symm, syrk and syr2k, with Eigen. beta = 0 overwrites C without reading
// it (a NaN there does not survive), as the reference BLAS does.
#include <Eigen/Core>

#include "libsimblas/routines/eigen_maps.hpp"
#include "libsimblas/routines/level3.hpp"

namespace simmpi::blas::exec {
namespace {

template <class T, class M>
void scale(M&& c, T beta) {
  if (beta == T(0))
    c.setZero();
  else if (beta != T(1))
    c *= beta;
}

// beta * C on the uplo triangle only.
template <class T>
void scale_triangle(MatMap<T>& c, Uplo u, T beta) {
  if (u == Uplo::Upper)
    scale(c.template triangularView<Eigen::Upper>(), beta);
  else
    scale(c.template triangularView<Eigen::Lower>(), beta);
}

}  // namespace

template <class T>
void gemm(Trans ta, Trans tb, I m, I n, I k, T alpha, const T* a, I lda, const T* b, I ldb, T beta,
          T* c, I ldc) {
  auto C = mat(c, m, n, ldc);
  scale(C, beta);
  if (alpha == T(0) || k == 0 || m == 0 || n == 0) return;
  auto A = mat(a, ta == Trans::No ? m : k, ta == Trans::No ? k : m, lda);
  auto B = mat(b, tb == Trans::No ? k : n, tb == Trans::No ? n : k, ldb);
  auto add = [&](const auto& x, const auto& y) { C.noalias() += alpha * x * y; };
  if (ta == Trans::No)
    tb == Trans::No ? add(A, B) : add(A, B.transpose());
  else
    tb == Trans::No ? add(A.transpose(), B) : add(A.transpose(), B.transpose());
}

template <class T>
void symm(Side s, Uplo u, I m, I n, T alpha, const T* a, I lda, const T* b, I ldb, T beta, T* c,
          I ldc) {
  auto C = mat(c, m, n, ldc);
  scale(C, beta);
  if (alpha == T(0) || m == 0 || n == 0) return;
  I na = s == Side::Left ? m : n;
  auto A = mat(a, na, na, lda);
  auto B = mat(b, m, n, ldb);
  Mat<T> r;
  if (u == Uplo::Upper) {
    auto S = A.template selfadjointView<Eigen::Upper>();
    r = s == Side::Left ? Mat<T>(S * B) : Mat<T>(B * S);
  } else {
    auto S = A.template selfadjointView<Eigen::Lower>();
    r = s == Side::Left ? Mat<T>(S * B) : Mat<T>(B * S);
  }
  C += alpha * r;
}

template <class T>
void syrk(Uplo u, Trans t, I n, I k, T alpha, const T* a, I lda, T beta, T* c, I ldc) {
  auto C = mat(c, n, n, ldc);
  scale_triangle(C, u, beta);
  if (alpha == T(0) || k == 0 || n == 0) return;
  auto A = mat(a, t == Trans::No ? n : k, t == Trans::No ? k : n, lda);
  auto update = [&](auto&& view) {
    if (t == Trans::No)
      view.rankUpdate(A, alpha);
    else
      view.rankUpdate(A.transpose(), alpha);
  };
  if (u == Uplo::Upper)
    update(C.template selfadjointView<Eigen::Upper>());
  else
    update(C.template selfadjointView<Eigen::Lower>());
}

template <class T>
void syr2k(Uplo u, Trans t, I n, I k, T alpha, const T* a, I lda, const T* b, I ldb, T beta, T* c,
           I ldc) {
  auto C = mat(c, n, n, ldc);
  scale_triangle(C, u, beta);
  if (alpha == T(0) || k == 0 || n == 0) return;
  I rows = t == Trans::No ? n : k, cols = t == Trans::No ? k : n;
  auto A = mat(a, rows, cols, lda);
  auto B = mat(b, rows, cols, ldb);
  Mat<T> p = t == Trans::No ? Mat<T>(alpha * A * B.transpose()) : Mat<T>(alpha * A.transpose() * B);
  Mat<T> sum = p + p.transpose();
  if (u == Uplo::Upper)
    C.template triangularView<Eigen::Upper>() += sum;
  else
    C.template triangularView<Eigen::Lower>() += sum;
}

#define SIMMPI_EXEC_PRODUCTS(T)                                                        \
  template void gemm<T>(Trans, Trans, I, I, I, T, const T*, I, const T*, I, T, T*, I); \
  template void symm<T>(Side, Uplo, I, I, T, const T*, I, const T*, I, T, T*, I);      \
  template void syrk<T>(Uplo, Trans, I, I, T, const T*, I, T, T*, I);                  \
  template void syr2k<T>(Uplo, Trans, I, I, T, const T*, I, const T*, I, T, T*, I);
SIMMPI_EXEC_PRODUCTS(float)
SIMMPI_EXEC_PRODUCTS(double)
#undef SIMMPI_EXEC_PRODUCTS

}  // namespace simmpi::blas::exec
