// SPDX-License-Identifier: Apache-2.0
// Operation and byte counts (conventions in cost.hpp).
#include "libsimblas/core/cost.hpp"

#include <algorithm>
#include <cctype>

namespace simmpi::blas::cost {
namespace {

using hardware::Kernel;

ComputeTask task(int elem_size, Kernel k, double ops, double elements, I d0, I d1 = 0, I d2 = 0) {
  ComputeTask t;
  t.kernel = k;
  t.precision = elem_size == 4 ? hardware::Precision::Single : hardware::Precision::Double;
  t.ops = ops;
  t.bytes = elements * elem_size;
  t.dims = {d0, d1, d2};
  return t;
}

double d(I v) {
  return static_cast<double>(v);
}
double out(bool read_too) {
  return read_too ? 2.0 : 1.0;
}

}  // namespace

ComputeTask gemm(int s, I m, I n, I k, bool beta) {
  if (m == 0 || n == 0) return task(s, Kernel::Gemm, 0, 0, m, n, k);  // reference BLAS: no work
  return task(s, Kernel::Gemm, 2 * d(m) * d(n) * d(k),
              d(m) * d(k) + d(k) * d(n) + d(m) * d(n) * out(beta), m, n, k);
}

ComputeTask symm(int s, Side side, I m, I n, bool beta) {
  if (m == 0 || n == 0) return task(s, Kernel::Symm, 0, 0, m, n);  // reference BLAS: no work
  I na = side == Side::Left ? m : n;
  return task(s, Kernel::Symm, 2 * d(m) * d(n) * d(na), tri(na) + d(m) * d(n) * (1 + out(beta)), m,
              n, na);
}

ComputeTask syrk(int s, I n, I k, bool beta) {
  if (n == 0) return task(s, Kernel::Syrk, 0, 0, n, k);  // reference BLAS: no work
  return task(s, Kernel::Syrk, d(k) * d(n) * d(n + 1), d(n) * d(k) + tri(n) * out(beta), n, k);
}

ComputeTask syr2k(int s, I n, I k, bool beta) {
  if (n == 0) return task(s, Kernel::Syr2k, 0, 0, n, k);  // reference BLAS: no work
  return task(s, Kernel::Syr2k, 2 * d(k) * d(n) * d(n + 1), 2 * d(n) * d(k) + tri(n) * out(beta), n,
              k);
}

ComputeTask trmm(int s, Side side, I m, I n) {
  if (m == 0 || n == 0) return task(s, Kernel::Trmm, 0, 0, m, n);  // reference BLAS: no work
  I na = side == Side::Left ? m : n;
  return task(s, Kernel::Trmm, d(m) * d(n) * d(na), tri(na) + 2 * d(m) * d(n), m, n);
}

ComputeTask trsm(int s, Side side, I m, I n) {
  if (m == 0 || n == 0) return task(s, Kernel::Trsm, 0, 0, m, n);  // reference BLAS: no work
  I na = side == Side::Left ? m : n;
  return task(s, Kernel::Trsm, d(m) * d(n) * d(na), tri(na) + 2 * d(m) * d(n), m, n);
}

// Right-looking LU, step j of k = min(m, n): scale m-j-1 elements by the pivot's inverse, then a
// rank-1 update of (m-j-1) x (n-j-1) elements: sum over j of (a-j) + 2(a-j)(b-j), a = m-1,
// b = n-1, in closed form.
ComputeTask getrf(int s, I m, I n) {
  double k = d(std::min(m, n)), a = d(m - 1), b = d(n - 1);
  double s1 = k * a - k * (k - 1) / 2;
  double s2 = k * a * b - (a + b) * k * (k - 1) / 2 + (k - 1) * k * (2 * k - 1) / 6;
  return task(s, Kernel::Getrf, k > 0 ? s1 + 2 * s2 : 0, 2 * d(m) * d(n), m, n);
}

ComputeTask gemv(int s, Trans t, I m, I n, bool beta) {
  if (m == 0 || n == 0) return task(s, Kernel::Gemv, 0, 0, m, n);  // reference BLAS: no work
  I xlen = t == Trans::No ? n : m, ylen = t == Trans::No ? m : n;
  return task(s, Kernel::Gemv, 2 * d(m) * d(n), d(m) * d(n) + d(xlen) + d(ylen) * out(beta), m, n);
}

double band_elements(I m, I n, I kl, I ku) {
  double e = 0;
  for (I j = 0; j < n; ++j)
    e += d(std::max<I>(0, std::min(m - 1, j + kl) - std::max<I>(0, j - ku) + 1));
  return e;
}

double tri_band_elements(I n, I k) {
  if (k >= n - 1) return tri(n);
  return d(k) * d(k + 1) / 2 + d(n - k) * d(k + 1);
}

ComputeTask gbmv(int s, Trans t, I m, I n, I kl, I ku, bool beta) {
  if (m == 0 || n == 0) return task(s, Kernel::Gbmv, 0, 0, m, n);  // reference BLAS: no work
  I xlen = t == Trans::No ? n : m, ylen = t == Trans::No ? m : n;
  double e = band_elements(m, n, kl, ku);
  return task(s, Kernel::Gbmv, 2 * e, e + d(xlen) + d(ylen) * out(beta), m, n);
}

// Every off-diagonal stored element is used twice (A(i,j) and A(j,i)).
ComputeTask symv(int s, Kernel k, I n, bool beta) {
  return task(s, k, 2 * d(n) * d(n), tri(n) + d(n) + d(n) * out(beta), n);
}

ComputeTask sbmv(int s, I n, I k, bool beta) {
  double e = tri_band_elements(n, k);
  return task(s, Kernel::Sbmv, 4 * e - 2 * d(n), e + d(n) + d(n) * out(beta), n);
}

ComputeTask trmv(int s, Kernel k, I n) {
  return task(s, k, d(n) * d(n), tri(n) + 2 * d(n), n);
}

ComputeTask tbmv(int s, Kernel k, I n, I band) {
  double e = tri_band_elements(n, band);
  return task(s, k, 2 * e - d(n), e + 2 * d(n), n);
}

ComputeTask ger(int s, I m, I n) {
  if (m == 0 || n == 0) return task(s, Kernel::Ger, 0, 0, m, n);  // reference BLAS: no work
  return task(s, Kernel::Ger, 2 * d(m) * d(n), 2 * d(m) * d(n) + d(m) + d(n), m, n);
}

ComputeTask syr(int s, Kernel k, I n) {
  return task(s, k, d(n) * d(n + 1), 2 * tri(n) + d(n), n);
}

ComputeTask syr2(int s, Kernel k, I n) {
  return task(s, k, 2 * d(n) * d(n + 1), 2 * tri(n) + 2 * d(n), n);
}

ComputeTask level1(int s, Kernel k, I n) {
  double ops = 0, elems = 0;  // per element
  switch (k) {
    case Kernel::Axpy:
      ops = 2, elems = 3;
      break;
    case Kernel::Scal:
      ops = 1, elems = 2;
      break;
    case Kernel::Copy:
      ops = 0, elems = 2;
      break;
    case Kernel::Swap:
      ops = 0, elems = 4;
      break;
    case Kernel::Dot:
      ops = 2, elems = 2;
      break;
    case Kernel::Nrm2:
      ops = 2, elems = 1;
      break;
    case Kernel::Asum:
      ops = 1, elems = 1;
      break;
    case Kernel::Iamax:
      ops = 1, elems = 1;
      break;
    case Kernel::Rot:
    case Kernel::Rotm:
      ops = 6, elems = 4;
      break;
    default:
      break;
  }
  return task(s, k, ops * d(n), elems * d(n), n);
}

ComputeTask laswp(int s, I n, I swaps) {
  return task(s, Kernel::Laswp, 0, 4 * d(n) * d(swaps), n, swaps);
}

ComputeTask lacpy(int s, char uplo, I m, I n) {
  double e = d(m) * d(n);
  char u = static_cast<char>(std::toupper(uplo));
  if (u == 'U') {
    I full = std::min(n, m);  // column j holds min(j + 1, m) elements
    e = tri(full) + d(n - full) * d(m);
  } else if (u == 'L') {
    I k = std::min(m, n);  // column j < k holds m - j elements
    e = d(k) * d(m) - d(k) * d(k - 1) / 2;
  }
  return task(s, Kernel::Lacpy, 0, 2 * e, m, n);
}

ComputeTask lange(int s, char norm, I m, I n) {
  char c = static_cast<char>(std::toupper(norm));
  double per = c == 'F' || c == 'E' ? 2 : 1;
  return task(s, Kernel::Lange, per * d(m) * d(n), d(m) * d(n), m, n);
}

ComputeTask memcopy(double bytes) {
  return task(1, Kernel::MemCopy, 0, 2 * bytes, static_cast<I>(bytes));
}

ComputeTask memset(double bytes) {
  return task(1, Kernel::MemSet, 0, bytes, static_cast<I>(bytes));
}

}  // namespace simmpi::blas::cost
