// SPDX-License-Identifier: Apache-2.0
// Column-major BLAS operands seen as Eigen matrices (execute mode computes with Eigen).
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace simmpi::blas {

template <class T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
template <class T>
using MatMap = Eigen::Map<Mat<T>, 0, Eigen::OuterStride<>>;
template <class T>
using ConstMatMap = Eigen::Map<const Mat<T>, 0, Eigen::OuterStride<>>;

// A rows x cols matrix at `p` with leading dimension `ld` (ld >= 1 even when rows is 0).
template <class T>
MatMap<T> mat(T* p, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  return MatMap<T>(p, rows, cols, Eigen::OuterStride<>(ld < 1 ? 1 : ld));
}
template <class T>
ConstMatMap<T> mat(const T* p, std::int64_t rows, std::int64_t cols, std::int64_t ld) {
  return ConstMatMap<T>(p, rows, cols, Eigen::OuterStride<>(ld < 1 ? 1 : ld));
}

}  // namespace simmpi::blas
