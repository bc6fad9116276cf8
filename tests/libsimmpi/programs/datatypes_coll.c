/* SPDX-License-Identifier: Apache-2.0 */
/* Collectives with derived datatypes: columns of matrices through resized vectors (the classic
 * transposes), strided buffers whose holes must stay untouched, MPI_IN_PLACE with derived
 * types, and reductions on derived types of one predefined kind, including MINLOC/MAXLOC on the
 * padded pair types. Rank r contributes values derived from r, so results have closed forms. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static long long sum_ranks(void) {
  return (long long)size * (size - 1) / 2;
}

/* A column of a matrix with `cols` columns of `old`, resized so that consecutive columns are one
 * element apart (the idiom for gathering rows into columns). */
static MPI_Datatype column(int rows, int cols, MPI_Datatype old) {
  MPI_Datatype v, c;
  MPI_Aint lb, extent;
  MPI_Type_get_extent(old, &lb, &extent);
  MPI_Type_vector(rows, 1, cols, old, &v);
  MPI_Type_create_resized(v, 0, extent, &c);
  MPI_Type_free(&v);
  MPI_Type_commit(&c);
  return c;
}

static void bcast_column(void) {
  MPI_Datatype col;
  MPI_Type_vector(6, 1, 6, MPI_INT, &col);
  MPI_Type_commit(&col);
  for (int root = 0; root<size; root += size> 1 ? size - 1 : 1) {
    int m[6][6] = {{0}};
    if (rank == root)
      for (int i = 0; i < 6; ++i) m[i][2] = root * 100 + i;
    MPI_Bcast(&m[0][2], 1, col, root, MPI_COMM_WORLD);
    int ok = 1;
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) ok &= m[i][j] == (j == 2 ? root * 100 + i : 0);
    CHECK(ok, "column broadcast from %d", root);
  }
  MPI_Type_free(&col);
}

/* MPI_BOTTOM with absolute addresses of globals: the root's ints 1 and 3 land in ints 1 and 3. */
static int g_four[4];

static void bcast_bottom(void) {
  int root = size / 2, bl[2] = {1, 1};
  MPI_Aint dp[2];
  MPI_Get_address(&g_four[1], &dp[0]);
  MPI_Get_address(&g_four[3], &dp[1]);
  MPI_Datatype t;
  MPI_Type_create_hindexed(2, bl, dp, MPI_INT, &t);
  MPI_Type_commit(&t);
  for (int i = 0; i < 4; ++i) g_four[i] = rank == root ? 10 + i : -1;
  MPI_Bcast(MPI_BOTTOM, 1, t, root, MPI_COMM_WORLD);
  CHECK(g_four[0] == (rank == root ? 10 : -1) && g_four[1] == 11 && g_four[3] == 13,
        "broadcast to absolute addresses %d %d %d", g_four[0], g_four[1], g_four[3]);
  MPI_Type_free(&t);
}

/* Rank r's row of 3 ints becomes column r of a 3 x size matrix at the root, and back. */
static void gather_scatter_columns(void) {
  int root = size - 1, row[3], *m = malloc(3 * size * sizeof(int));
  MPI_Datatype col = column(3, size, MPI_INT);
  for (int j = 0; j < 3; ++j) row[j] = rank * 10 + j;
  for (int i = 0; i < 3 * size; ++i) m[i] = -1;
  MPI_Gather(row, 3, MPI_INT, m, 1, col, root, MPI_COMM_WORLD);
  if (rank == root) {
    int ok = 1;
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < size; ++i) ok &= m[j * size + i] == i * 10 + j;
    CHECK(ok, "gather of rows into columns");
  }
  int* counts = malloc(size * sizeof(int));
  int* displs = malloc(size * sizeof(int));
  for (int i = 0; i < size; ++i) counts[i] = 1, displs[i] = size - 1 - i;
  MPI_Gatherv(row, 3, MPI_INT, m, counts, displs, col, root, MPI_COMM_WORLD);
  if (rank == root) CHECK(m[2 * size] == (size - 1) * 10 + 2, "gatherv into reversed columns");
  int back[3] = {-1, -1, -1};
  MPI_Scatter(m, 1, col, back, 3, MPI_INT, root, MPI_COMM_WORLD);
  int from = size - 1 - rank; /* the reversed gather put rank `from`'s row in column rank */
  CHECK(back[0] == from * 10 && back[2] == from * 10 + 2, "scatter of columns %d %d", back[0],
        back[2]);
  MPI_Scatterv(m, counts, displs, col, back, 3, MPI_INT, root, MPI_COMM_WORLD);
  CHECK(back[0] == rank * 10 && back[2] == rank * 10 + 2, "scatterv of reversed columns");
  for (int j = 0; j < 3; ++j) m[j * size + rank] = rank == root ? row[j] : -1;
  MPI_Gather(rank == root ? MPI_IN_PLACE : row, 3, MPI_INT, m, 1, col, root, MPI_COMM_WORLD);
  if (rank == root) CHECK(m[size - 1] == root * 10 && m[0] == 0, "gather in place");
  MPI_Type_free(&col);
  free(m);
  free(counts);
  free(displs);
}

/* MPI_Igather(v) of a strided send type (every other int) that the program frees before the
 * wait: the root's own block comes from the packed copy of its send buffer, which must live
 * until the operation ends. */
static void nonblocking_gathers_of_strided_sends(void) {
  int root = 0, send[8], *all = malloc(4 * size * sizeof(int));
  int* counts = malloc(size * sizeof(int));
  int* displs = malloc(size * sizeof(int));
  for (int i = 0; i < size; ++i) counts[i] = 4, displs[i] = 4 * i;
  for (int k = 0; k < 2; ++k) {
    MPI_Datatype v, every_other;
    MPI_Type_vector(1, 1, 2, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, 2 * sizeof(int), &every_other);
    MPI_Type_free(&v);
    MPI_Type_commit(&every_other);
    for (int i = 0; i < 8; ++i) send[i] = i % 2 ? -7 : rank * 10 + i / 2;
    for (int i = 0; i < 4 * size; ++i) all[i] = -1;
    MPI_Request req;
    if (k == 0)
      MPI_Igather(send, 4, every_other, all, 4, MPI_INT, root, MPI_COMM_WORLD, &req);
    else
      MPI_Igatherv(send, 4, every_other, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD, &req);
    MPI_Type_free(&every_other);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == root) {
      int ok = 1;
      for (int i = 0; i < 4 * size; ++i) ok &= all[i] == (i / 4) * 10 + i % 4;
      CHECK(ok, "%s of a strided send type freed before the wait", k ? "igatherv" : "igather");
    }
  }
  free(all);
  free(counts);
  free(displs);
}

/* Every rank sends ints 0 and 3 of its buffer; they land at ints 4i and 4i+2 of a spread-out
 * receive buffer, whose other ints must stay -1. */
static void allgathers(void) {
  MPI_Datatype strided, pairs, spread;
  MPI_Type_vector(2, 1, 3, MPI_INT, &strided);
  MPI_Type_commit(&strided);
  MPI_Type_vector(2, 1, 2, MPI_INT, &pairs);
  MPI_Type_create_resized(pairs, 0, 16, &spread);
  MPI_Type_free(&pairs);
  MPI_Type_commit(&spread);
  int mine[4] = {rank * 10, -5, -5, rank * 10 + 3}, *all = malloc(4 * size * sizeof(int));
  for (int i = 0; i < 4 * size; ++i) all[i] = -1;
  MPI_Allgather(mine, 1, strided, all, 1, spread, MPI_COMM_WORLD);
  int ok = 1;
  for (int i = 0; i < size; ++i)
    ok &= all[4 * i] == i * 10 && all[4 * i + 1] == -1 && all[4 * i + 2] == i * 10 + 3 &&
          all[4 * i + 3] == -1;
  CHECK(ok, "allgather from strided into spread blocks");
  for (int i = 0; i < 4 * size; ++i) all[i] = i % 4 == 0 && i / 4 == rank ? -7 : -1;
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, spread, MPI_COMM_WORLD);
  CHECK(all[4 * (size - 1)] == -7 && all[4 * (size - 1) + 1] == -1, "allgather in place");
  /* Allgatherv: rank i sends i%2+1 ints, placed every other int after a gap of i. */
  MPI_Datatype every_other;
  MPI_Type_create_resized(MPI_INT, 0, 8, &every_other);
  MPI_Type_commit(&every_other);
  int* counts = malloc(size * sizeof(int));
  int* displs = malloc(size * sizeof(int));
  int at = 0;
  for (int i = 0; i < size; ++i) counts[i] = i % 2 + 1, displs[i] = at + i, at += counts[i] + i;
  int* v = malloc(2 * at * sizeof(int));
  for (int i = 0; i < 2 * at; ++i) v[i] = -1;
  int two[2] = {rank * 10, rank * 10 + 1};
  MPI_Allgatherv(two, counts[rank], MPI_INT, v, counts, displs, every_other, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; i < size; ++i)
    for (int k = 0; k < counts[i]; ++k)
      ok &= v[2 * (displs[i] + k)] == i * 10 + k && v[2 * (displs[i] + k) + 1] == -1;
  CHECK(ok && v[0] == 0 && (size < 2 || v[2] == -1), "allgatherv into every other int");
  MPI_Type_free(&strided);
  MPI_Type_free(&spread);
  MPI_Type_free(&every_other);
  free(all);
  free(counts);
  free(displs);
  free(v);
}

/* Row i of my size x 2 block goes to rank i, which stores it as column (my rank). */
static void alltoalls(void) {
  double* s = malloc(2 * size * sizeof(double));
  double* t = malloc(2 * size * sizeof(double));
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < 2; ++j) s[2 * i + j] = rank * 1000 + i * 10 + j;
  MPI_Datatype col = column(2, size, MPI_DOUBLE);
  MPI_Alltoall(s, 2, MPI_DOUBLE, t, 1, col, MPI_COMM_WORLD);
  int ok = 1;
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < 2; ++j) ok &= t[j * size + i] == i * 1000 + rank * 10 + j;
  CHECK(ok, "alltoall transpose");
  int *sc = malloc(size * sizeof(int)), *sd = malloc(size * sizeof(int));
  int *rc = malloc(size * sizeof(int)), *rd = malloc(size * sizeof(int));
  for (int i = 0; i < size; ++i) sc[i] = 2, sd[i] = 2 * i, rc[i] = 1, rd[i] = size - 1 - i;
  MPI_Alltoallv(s, sc, sd, MPI_DOUBLE, t, rc, rd, col, MPI_COMM_WORLD);
  CHECK(t[size - 1] == rank * 10 && t[size] == (size - 1) * 1000 + rank * 10 + 1,
        "alltoallv into reversed columns %g %g", t[size - 1], t[size]);
  MPI_Type_free(&col);
  free(s), free(t), free(sc), free(sd), free(rc), free(rd);
}

/* Sums over derived types of doubles; the holes of strided buffers stay untouched. */
static void sums(void) {
  MPI_Datatype four, evens, holes;
  MPI_Type_contiguous(4, MPI_DOUBLE, &four);
  MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &evens);
  MPI_Type_commit(&four);
  MPI_Type_commit(&evens);
  double in[8], out[8];
  for (int k = 0; k < 8; ++k) in[k] = rank + k * 0.5, out[k] = -1;
  MPI_Allreduce(in, out, 2, four, MPI_SUM, MPI_COMM_WORLD);
  CHECK(out[7] == sum_ranks() + size * 3.5, "sum of 2 x contiguous(4) %g", out[7]);
  for (int k = 0; k < 8; ++k) out[k] = -1;
  MPI_Allreduce(in, out, 1, evens, MPI_SUM, MPI_COMM_WORLD);
  CHECK(out[4] == sum_ranks() + size * 2.0 && out[3] == -1 && out[5] == -1,
        "sum over a vector %g, holes %g %g", out[4], out[3], out[5]);
  MPI_Allreduce(MPI_IN_PLACE, in, 1, evens, MPI_SUM, MPI_COMM_WORLD);
  CHECK(in[2] == sum_ranks() + size * 1.0 && in[1] == rank + 0.5, "in-place sum over a vector");
  /* struct { double x; int pad; double y; }: one kind of data, a hole in the middle */
  int bl[2] = {1, 1};
  MPI_Aint dp[2] = {0, 16};
  MPI_Datatype ty[2] = {MPI_DOUBLE, MPI_DOUBLE};
  MPI_Type_create_struct(2, bl, dp, ty, &holes);
  MPI_Type_commit(&holes);
  struct {
    double x;
    int pad;
    double y;
  } a = {rank, rank, 2.0 * rank}, b = {0, -3, 0};
  MPI_Reduce(&a, &b, 1, holes, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    CHECK(b.x == size - 1 && b.y == 2.0 * (size - 1) && b.pad == -3, "max over a struct");
  MPI_Type_free(&four);
  MPI_Type_free(&evens);
  MPI_Type_free(&holes);
}

/* MAXLOC/MINLOC on pair types, whose data maps skip the padding. */
static void locs(void) {
  struct {
    double v;
    int i;
  } dl[3], dr[3];
  for (int k = 0; k < 3; ++k) dl[k].v = rank == k % size ? 100 + k : rank * 0.5, dl[k].i = rank;
  MPI_Allreduce(dl, dr, 3, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  for (int k = 0; k < 3; ++k)
    CHECK(dr[k].v == 100 + k && dr[k].i == k % size, "maxloc[%d] %g@%d", k, dr[k].v, dr[k].i);
  struct {
    short v;
    int i;
  } sl[2], sr[2];
  sl[0].v = (short)(rank % 3), sl[0].i = rank;
  sl[1].v = (short)(10 - rank), sl[1].i = rank;
  MPI_Allreduce(sl, sr, 2, MPI_SHORT_INT, MPI_MINLOC, MPI_COMM_WORLD);
  CHECK(sr[0].v == 0 && sr[0].i == 0, "minloc tie goes to the lower index %d@%d", sr[0].v, sr[0].i);
  CHECK(sr[1].v == 11 - size && sr[1].i == size - 1, "minloc %d@%d", sr[1].v, sr[1].i);
  MPI_Datatype two;
  MPI_Type_contiguous(2, MPI_DOUBLE_INT, &two);
  MPI_Type_commit(&two);
  MPI_Reduce(dl, dr, 1, two, MPI_MAXLOC, 0, MPI_COMM_WORLD);
  if (rank == 0) CHECK(dr[1].v == 101 && dr[1].i == 1 % size, "maxloc over contiguous pairs");
  MPI_Type_free(&two);
}

static void scans_and_scatters(void) {
  MPI_Datatype evens, pair, every_other;
  MPI_Type_vector(2, 1, 2, MPI_INT, &evens);
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_create_resized(MPI_INT, 0, 8, &every_other);
  MPI_Type_commit(&evens);
  MPI_Type_commit(&pair);
  MPI_Type_commit(&every_other);
  int in[4] = {rank + 1, 99, rank + 1, 99}, out[4] = {-1, -1, -1, -1};
  MPI_Scan(in, out, 1, evens, MPI_SUM, MPI_COMM_WORLD);
  CHECK(out[2] == (rank + 1) * (rank + 2) / 2 && out[1] == -1, "scan over a vector %d", out[2]);
  for (int k = 0; k < 4; ++k) out[k] = -1;
  MPI_Exscan(in, out, 1, evens, MPI_SUM, MPI_COMM_WORLD);
  CHECK(rank == 0 ? out[0] == -1 : out[0] == rank * (rank + 1) / 2, "exscan %d", out[0]);
  int* blocks = malloc(2 * size * sizeof(int));
  for (int i = 0; i < size; ++i) blocks[2 * i] = rank + i, blocks[2 * i + 1] = rank * i;
  int mine[2];
  MPI_Reduce_scatter_block(blocks, mine, 1, pair, MPI_SUM, MPI_COMM_WORLD);
  CHECK(mine[0] == sum_ranks() + size * rank && mine[1] == rank * sum_ranks(),
        "reduce_scatter_block of pairs %d %d", mine[0], mine[1]);
  int* counts = malloc(size * sizeof(int));
  for (int i = 0; i < size; ++i) counts[i] = 1, blocks[2 * i] = rank + i, blocks[2 * i + 1] = -9;
  int spread[2] = {-1, -1};
  MPI_Reduce_scatter(blocks, spread, counts, every_other, MPI_SUM, MPI_COMM_WORLD);
  CHECK(spread[0] == sum_ranks() + size * rank && spread[1] == -1, "reduce_scatter %d %d",
        spread[0], spread[1]);
  MPI_Type_free(&evens);
  MPI_Type_free(&pair);
  MPI_Type_free(&every_other);
  free(blocks);
  free(counts);
}

/* A reduction over a type that mixes kinds is an error, not a guess. */
static void mixed_kinds(void) {
  int bl[2] = {1, 1};
  MPI_Aint dp[2] = {0, 8};
  MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE}, t;
  MPI_Type_create_struct(2, bl, dp, ty, &t);
  MPI_Type_commit(&t);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  char in[16] = {0}, out[16];
  CHECK(MPI_Allreduce(in, out, 1, t, MPI_SUM, MPI_COMM_WORLD) == MPI_ERR_OP,
        "sum of {int, double}");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Type_free(&t);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  bcast_column();
  bcast_bottom();
  gather_scatter_columns();
  nonblocking_gathers_of_strided_sends();
  allgathers();
  alltoalls();
  sums();
  locs();
  scans_and_scatters();
  mixed_kinds();
  return finish("datatypes_coll");
}
