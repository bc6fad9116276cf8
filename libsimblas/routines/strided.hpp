// SPDX-License-Identifier: Apache-2.0
// Views on BLAS operands: a strided vector (negative increments walk it backwards, as the
// reference BLAS does) and column-major matrix element access.
#pragma once

#include <cstdint>

namespace simmpi::blas {

using I = std::int64_t;

template <class T>
struct Vec {
  T* p;
  I n;
  I inc;
  // Element i of the logical vector: x(i) of the reference BLAS, counted from 0.
  T& operator[](I i) const { return inc > 0 ? p[i * inc] : p[(n - 1 - i) * -inc]; }
};

template <class T>
Vec<T> vec(T* p, I n, I inc) {
  return Vec<T>{p, n, inc};
}

// A(i, j) of a column-major matrix with leading dimension ld.
template <class T>
T& at(T* a, I ld, I i, I j) {
  return a[i + j * ld];
}

}  // namespace simmpi::blas
