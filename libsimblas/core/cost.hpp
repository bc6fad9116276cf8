// SPDX-License-Identifier: Apache-2.0
// Operation and byte counts of every routine, as ComputeTasks for the compute model.
//
// Conventions (tests/libsimblas/cost_test.cpp checks each against a hand count):
//  - ops: one multiply and one add per term of every inner product (gemm 2mnk); a triangular
//    multiply or solve with an n x n triangle costs n^2 per right-hand side, unit or not
//    (LAWN 41 counts); LU is the right-looking algorithm's exact count.
//  - bytes: every operand element read once, every output element written once (ideal
//    cache); an output that is also read (beta != 0, in-place updates) counts twice. A
//    triangle or symmetric matrix counts its n(n+1)/2 stored elements; a band its band.
//  - transposes change neither count; the dimensions given are those of the reference BLAS
//    argument list (gemm's A is m x k whatever transa says).
//  - dims (size class): level 3 (m, n, k), level 2 (m, n), level 1 (n).
#pragma once

#include <cstdint>

#include "hardware/compute/compute_task.hpp"
#include "libsimblas/core/blas_args.hpp"

namespace simmpi::blas::cost {

using hardware::ComputeTask;
using I = std::int64_t;

// Elements of an n x n triangle, diagonal included.
inline double tri(I n) {
  return static_cast<double>(n) * static_cast<double>(n + 1) / 2;
}

// `elem_size` is 8 (double) or 4 (single) and sets the task's precision.
ComputeTask gemm(int elem_size, I m, I n, I k, bool beta_nonzero);
ComputeTask symm(int elem_size, Side side, I m, I n, bool beta_nonzero);
ComputeTask syrk(int elem_size, I n, I k, bool beta_nonzero);
ComputeTask syr2k(int elem_size, I n, I k, bool beta_nonzero);
ComputeTask trmm(int elem_size, Side side, I m, I n);
ComputeTask trsm(int elem_size, Side side, I m, I n);
ComputeTask getrf(int elem_size, I m, I n);

ComputeTask gemv(int elem_size, Trans t, I m, I n, bool beta_nonzero);
ComputeTask gbmv(int elem_size, Trans t, I m, I n, I kl, I ku, bool beta_nonzero);
ComputeTask symv(int elem_size, hardware::Kernel k, I n, bool beta_nonzero);  // Symv or Spmv
ComputeTask sbmv(int elem_size, I n, I k, bool beta_nonzero);
ComputeTask trmv(int elem_size, hardware::Kernel k, I n);          // Trmv, Tpmv, Trsv or Tpsv
ComputeTask tbmv(int elem_size, hardware::Kernel k, I n, I band);  // Tbmv or Tbsv
ComputeTask ger(int elem_size, I m, I n);
ComputeTask syr(int elem_size, hardware::Kernel k, I n);   // Syr or Spr
ComputeTask syr2(int elem_size, hardware::Kernel k, I n);  // Syr2 or Spr2

// Level 1: axpy, scal, copy, swap, dot, nrm2, asum, iamax, rot, rotm over n elements.
ComputeTask level1(int elem_size, hardware::Kernel k, I n);

ComputeTask laswp(int elem_size, I n, I swaps);
ComputeTask lacpy(int elem_size, char uplo, I m, I n);  // uplo 'U', 'L' or anything: all
ComputeTask lange(int elem_size, char norm, I m, I n);
ComputeTask memcopy(double bytes);
ComputeTask memset(double bytes);

// Elements stored in a general band (kl sub-, ku super-diagonals) of an m x n matrix.
double band_elements(I m, I n, I kl, I ku);
// Elements stored in one triangle of an n x n band matrix with k off-diagonals.
double tri_band_elements(I n, I k);

}  // namespace simmpi::blas::cost
