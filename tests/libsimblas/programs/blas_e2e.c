/* SPDX-License-Identifier: Apache-2.0 */
/* SimBLAS end to end, built with simmpicc -lcblas -lblas -llapack like a user program:
 *  - model mode (default): a DGEMM far too large to exist costs exactly its roofline time on the
 *    default node, and LU returns pivots in range;
 *  - "execute" argument (with --set blas.mode=execute): LU solves a system exactly. */
#include <cblas.h>
#include <math.h>
#include <mpi.h>
#include <simmpi.h>
#include <stdio.h>
#include <string.h>

void dgetrf_(const int*, const int*, double*, const int*, int*, int*);
void dgetrs_(const char*, const int*, const int*, const double*, const int*, const int*, double*,
             const int*, int*);

static int check(int ok, const char* what) {
  if (!ok) printf("blas_e2e: FAILED: %s\n", what);
  return ok;
}

/* A 4x4 system A x = b with x = (1, 2, 3, 4). */
static int solve(int execute) {
  double a[16] = {4, 1, 0, 2, 1, 5, 1, 0, 0, 1, 6, 1, 2, 0, 1, 7};
  double x[4] = {1, 2, 3, 4}, b[4];
  int n = 4, one = 1, ipiv[4], info = -1;
  cblas_dgemv(CblasColMajor, CblasNoTrans, 4, 4, 1.0, a, 4, x, 1, 0.0, b, 1);
  dgetrf_(&n, &n, a, &n, ipiv, &info);
  int ok = check(info == 0, "dgetrf info");
  for (int i = 0; i < 4; ++i) ok &= check(ipiv[i] >= i + 1 && ipiv[i] <= 4, "pivot in range");
  dgetrs_("N", &n, &one, a, &n, ipiv, b, &n, &info);
  if (execute)
    for (int i = 0; i < 4; ++i) ok &= check(fabs(b[i] - (i + 1)) < 1e-12, "solution");
  return ok;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int execute = argc > 1 && strcmp(argv[1], "execute") == 0, ok = 1;
  if (!execute) {
    /* 2 * 20000^2 * 256 flops at 1.8 GHz x 32 flops per cycle. */
    double t0 = simmpi_now();
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 20000, 20000, 256, -1.0, NULL, 20000,
                NULL, 256, 1.0, NULL, 20000);
    double dt = simmpi_now() - t0, expected = 2.0 * 20000 * 20000 * 256 / (1.8e9 * 32);
    ok &= check(fabs(dt - expected) < 1e-9 * expected, "DGEMM time");
  }
  ok &= solve(execute);
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0 && all) printf("blas_e2e: OK\n");
  MPI_Finalize();
  return all ? 0 : 1;
}
