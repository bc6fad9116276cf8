// SPDX-License-Identifier: Apache-2.0
// Execute mode of trmm and trsm, with Eigen's triangular views. op(A) = A^T is the transposed
// view with the other triangle, so four view modes (upper/lower x unit/non-unit) cover all.
#include <Eigen/Core>

#include "libsimblas/routines/eigen_maps.hpp"
#include "libsimblas/routines/level3.hpp"

namespace simmpi::blas::exec {
namespace {

// Calls f with the triangular view of op(A) for the mode the arguments select.
template <class AExpr, class F>
void with_view(const AExpr& a, bool upper, Diag d, F&& f) {
  if (upper)
    d == Diag::Unit ? f(a.template triangularView<Eigen::UnitUpper>())
                    : f(a.template triangularView<Eigen::Upper>());
  else
    d == Diag::Unit ? f(a.template triangularView<Eigen::UnitLower>())
                    : f(a.template triangularView<Eigen::Lower>());
}

template <class T, class F>
void with_op_view(const T* a, I na, I lda, Uplo u, Trans t, Diag d, F&& f) {
  auto A = mat(a, na, na, lda);
  bool upper = u == Uplo::Upper;
  if (t == Trans::No)
    with_view(A, upper, d, f);
  else
    with_view(A.transpose(), !upper, d, f);
}

}  // namespace

template <class T>
void trmm(Side s, Uplo u, Trans t, Diag d, I m, I n, T alpha, const T* a, I lda, T* b, I ldb) {
  if (m == 0 || n == 0) return;
  auto B = mat(b, m, n, ldb);
  if (alpha == T(0)) {
    B.setZero();
    return;
  }
  with_op_view(a, s == Side::Left ? m : n, lda, u, t, d, [&](const auto& view) {
    Mat<T> r = s == Side::Left ? Mat<T>(view * B) : Mat<T>(B * view);
    B = alpha * r;
  });
}

template <class T>
void trsm(Side s, Uplo u, Trans t, Diag d, I m, I n, T alpha, const T* a, I lda, T* b, I ldb) {
  if (m == 0 || n == 0) return;
  auto B = mat(b, m, n, ldb);
  if (alpha == T(0)) {
    B.setZero();
    return;
  }
  if (alpha != T(1)) B *= alpha;
  with_op_view(a, s == Side::Left ? m : n, lda, u, t, d, [&](const auto& view) {
    if (s == Side::Left)
      view.solveInPlace(B);
    else
      view.template solveInPlace<Eigen::OnTheRight>(B);
  });
}

#define SIMMPI_EXEC_TRIANGULAR(T)                                              \
  template void trmm<T>(Side, Uplo, Trans, Diag, I, I, T, const T*, I, T*, I); \
  template void trsm<T>(Side, Uplo, Trans, Diag, I, I, T, const T*, I, T*, I);
SIMMPI_EXEC_TRIANGULAR(float)
SIMMPI_EXEC_TRIANGULAR(double)
#undef SIMMPI_EXEC_TRIANGULAR

}  // namespace simmpi::blas::exec
