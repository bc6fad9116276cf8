// SPDX-License-Identifier: Apache-2.0
// Rows of equal width in one array (a route's links per transfer, a flow's hops in the solver):
// row i starts at i * stride. The stride doubles when a longer row is asked for, every row
// keeping its cells; routes of a topology have a bounded length, so that is rare.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "runtime/core/huge_page_allocator.hpp"

namespace simmpi::hardware {

template <class T>
class StridedRows {
 public:
  T* row(std::size_t i) { return &cells_[i * stride_]; }
  const T* row(std::size_t i) const { return &cells_[i * stride_]; }
  std::size_t stride() const { return stride_; }
  // Capacity for `rows` rows at the present stride, allocated and not touched.
  void reserve_capacity(std::size_t rows) { cells_.reserve(rows * stride_); }
  // Room for `rows` rows of at least `width` cells each. (The test inline: a flow's start asks,
  // and there is room almost always.)
  void reserve(std::size_t rows, std::size_t width) {
    if (width > stride_ || cells_.size() < rows * stride_) grow(rows, width);
  }

 private:
  [[gnu::noinline]] void grow(std::size_t rows, std::size_t width) {
    if (width > stride_) {
      std::size_t stride = stride_;
      while (stride < width) stride *= 2;
      runtime::HugePageVector<T> wider(cells_.size() / stride_ * stride);
      for (std::size_t r = 0; r < cells_.size() / stride_; ++r)
        std::copy_n(&cells_[r * stride_], stride_, &wider[r * stride]);
      cells_.swap(wider);
      stride_ = stride;
    }
    if (cells_.size() < rows * stride_) cells_.resize(rows * stride_);
  }

  runtime::HugePageVector<T> cells_;
  std::size_t stride_ = 8;
};

}  // namespace simmpi::hardware
