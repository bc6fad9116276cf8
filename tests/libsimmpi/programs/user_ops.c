/* SPDX-License-Identifier: Apache-2.0 */
/* User-defined reduction operations in every reducing collective, against results computed by
 * hand on each rank. The non-commutative operation multiplies 2x2 matrices (entries mod 2^16,
 * packed in one uint64_t), so any combination out of rank order gives a wrong product; the
 * commutative one is a plain sum. Also MPI_Reduce_local, MPI_Op_commutative, MPI_Op_free. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;
enum { N = 70 }; /* elements per rank: more than 64 ranks, for the algorithms that split */

/* A 2x2 matrix [[a, b], [c, d]] with 16-bit entries, a in the low bits. */
static uint64_t mat(unsigned a, unsigned b, unsigned c, unsigned d) {
  return (uint64_t)(a & 0xffff) | (uint64_t)(b & 0xffff) << 16 | (uint64_t)(c & 0xffff) << 32 |
         (uint64_t)(d & 0xffff) << 48;
}
static unsigned at(uint64_t m, int k) {
  return (unsigned)(m >> (16 * k)) & 0xffff;
}
static uint64_t mul(uint64_t x, uint64_t y) {
  return mat(at(x, 0) * at(y, 0) + at(x, 1) * at(y, 2), at(x, 0) * at(y, 1) + at(x, 1) * at(y, 3),
             at(x, 2) * at(y, 0) + at(x, 3) * at(y, 2), at(x, 2) * at(y, 1) + at(x, 3) * at(y, 3));
}
/* Rank r's element i: matrices that do not commute with each other. */
static uint64_t elem(int r, int i) {
  return mat(r + i + 1, 1, 1, (unsigned)(i % 3));
}

static void matmul_op(void* in, void* inout, int* len, MPI_Datatype* type) {
  CHECK(*type == MPI_UINT64_T, "the operation receives the call's datatype");
  uint64_t *a = in, *b = inout;
  for (int i = 0; i < *len; ++i) b[i] = mul(a[i], b[i]); /* inout = in op inout */
}

static void sum_op(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  long long *a = in, *b = inout;
  for (int i = 0; i < *len; ++i) b[i] += a[i];
}

/* Product of ranks [first, last] of element i, in rank order. */
static uint64_t product(int first, int last, int i) {
  uint64_t p = mat(1, 0, 0, 1);
  for (int r = first; r <= last; ++r) p = mul(p, elem(r, i));
  return p;
}

static void noncommutative(MPI_Op op) {
  uint64_t in[N], out[N];
  for (int i = 0; i < N; ++i) in[i] = elem(rank, i);
  for (int root = 0; root<size; root += size> 2 ? size / 2 : 1) {
    memset(out, 0, sizeof out);
    MPI_Reduce(in, out, N, MPI_UINT64_T, op, root, MPI_COMM_WORLD);
    int ok = 1;
    for (int i = 0; i < N && rank == root; ++i) ok &= out[i] == product(0, size - 1, i);
    CHECK(ok, "reduce to root %d", root);
  }
  MPI_Allreduce(in, out, N, MPI_UINT64_T, op, MPI_COMM_WORLD);
  int ok = 1;
  for (int i = 0; i < N; ++i) ok &= out[i] == product(0, size - 1, i);
  CHECK(ok, "allreduce");
  MPI_Scan(in, out, N, MPI_UINT64_T, op, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; i < N; ++i) ok &= out[i] == product(0, rank, i);
  CHECK(ok, "scan");
  MPI_Exscan(in, out, N, MPI_UINT64_T, op, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; i < N && rank > 0; ++i) ok &= out[i] == product(0, rank - 1, i);
  CHECK(ok, "exscan");
  /* Reduce_scatter_block: element j of the 2 * size is block j / 2. */
  uint64_t* all = malloc(2 * size * sizeof(uint64_t));
  for (int j = 0; j < 2 * size; ++j) all[j] = elem(rank, j);
  uint64_t blk[2];
  MPI_Reduce_scatter_block(all, blk, 2, MPI_UINT64_T, op, MPI_COMM_WORLD);
  CHECK(blk[0] == product(0, size - 1, 2 * rank) && blk[1] == product(0, size - 1, 2 * rank + 1),
        "reduce_scatter_block");
  int* counts = malloc(size * sizeof(int));
  int first = 0;
  for (int r = 0; r < size; ++r) counts[r] = r % 2 + 1;
  for (int r = 0; r < rank; ++r) first += counts[r];
  MPI_Reduce_scatter(all, blk, counts, MPI_UINT64_T, op, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; i < counts[rank]; ++i) ok &= blk[i] == product(0, size - 1, first + i);
  CHECK(ok, "reduce_scatter");
  free(all);
  free(counts);
}

static void commutative(MPI_Op op) {
  long long in[N], out[N];
  long long ranks = (long long)size * (size - 1) / 2;
  for (int i = 0; i < N; ++i) in[i] = rank * 1000 + i;
  MPI_Allreduce(in, out, N, MPI_LONG_LONG, op, MPI_COMM_WORLD);
  int ok = 1;
  for (int i = 0; i < N; ++i) ok &= out[i] == ranks * 1000 + (long long)size * i;
  CHECK(ok, "allreduce with a commutative user op");
  MPI_Reduce(in, out, N, MPI_LONG_LONG, op, size - 1, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; i < N && rank == size - 1; ++i)
    ok &= out[i] == ranks * 1000 + (long long)size * i;
  CHECK(ok, "reduce with a commutative user op");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Op matmul, sum;
  MPI_Op_create(matmul_op, 0, &matmul);
  MPI_Op_create(sum_op, 1, &sum);
  int commute = -1;
  MPI_Op_commutative(matmul, &commute);
  CHECK(commute == 0, "matmul is not commutative");
  MPI_Op_commutative(sum, &commute);
  CHECK(commute == 1, "sum is commutative");
  MPI_Op_commutative(MPI_MAX, &commute);
  CHECK(commute == 1, "MPI_MAX is commutative");
  uint64_t x = mat(1, 2, 3, 4), y = mat(0, 1, 1, 0);
  MPI_Reduce_local(&x, &y, 1, MPI_UINT64_T, matmul);
  CHECK(y == mul(mat(1, 2, 3, 4), mat(0, 1, 1, 0)), "reduce_local computes in op inout");
  int a[3] = {1, 2, 3}, b[3] = {5, 1, 7};
  MPI_Reduce_local(a, b, 3, MPI_INT, MPI_MAX);
  CHECK(b[0] == 5 && b[1] == 2 && b[2] == 7, "reduce_local with MPI_MAX");
  noncommutative(matmul);
  commutative(sum);
  MPI_Op_free(&matmul);
  MPI_Op_free(&sum);
  CHECK(matmul == MPI_OP_NULL && sum == MPI_OP_NULL, "MPI_Op_free resets the handle");
  return finish("user_ops");
}
