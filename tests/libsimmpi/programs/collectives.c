/* SPDX-License-Identifier: Apache-2.0 */
/* Every collective against hand-computed values: each rank r contributes values derived from r,
 * so every expected result has a closed form. Covers all predefined reduction operations on
 * integer, floating and pair types, MPI_IN_PLACE, non-zero roots and irregular counts.
 * Built with -DSIMMPI_TEST_NONBLOCKING, every call goes through its nonblocking form instead
 * (MPI_Ibcast... then MPI_Wait); with -DSIMMPI_TEST_PERSISTENT, through its persistent form
 * (MPI_Bcast_init, MPI_Start, MPI_Wait, MPI_Request_free). */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#ifdef SIMMPI_TEST_NONBLOCKING
static int wait_for(int err, MPI_Request* r) {
  return err != MPI_SUCCESS ? err : MPI_Wait(r, MPI_STATUS_IGNORE);
}
#define NONBLOCKING(call, ...)                       \
  ({                                                 \
    MPI_Request nb_req_;                             \
    wait_for(call(__VA_ARGS__, &nb_req_), &nb_req_); \
  })
#define MPI_Barrier(...) NONBLOCKING(MPI_Ibarrier, __VA_ARGS__)
#define MPI_Bcast(...) NONBLOCKING(MPI_Ibcast, __VA_ARGS__)
#define MPI_Reduce(...) NONBLOCKING(MPI_Ireduce, __VA_ARGS__)
#define MPI_Allreduce(...) NONBLOCKING(MPI_Iallreduce, __VA_ARGS__)
#define MPI_Gather(...) NONBLOCKING(MPI_Igather, __VA_ARGS__)
#define MPI_Gatherv(...) NONBLOCKING(MPI_Igatherv, __VA_ARGS__)
#define MPI_Scatter(...) NONBLOCKING(MPI_Iscatter, __VA_ARGS__)
#define MPI_Scatterv(...) NONBLOCKING(MPI_Iscatterv, __VA_ARGS__)
#define MPI_Allgather(...) NONBLOCKING(MPI_Iallgather, __VA_ARGS__)
#define MPI_Allgatherv(...) NONBLOCKING(MPI_Iallgatherv, __VA_ARGS__)
#define MPI_Alltoall(...) NONBLOCKING(MPI_Ialltoall, __VA_ARGS__)
#define MPI_Alltoallv(...) NONBLOCKING(MPI_Ialltoallv, __VA_ARGS__)
#define MPI_Reduce_scatter(...) NONBLOCKING(MPI_Ireduce_scatter, __VA_ARGS__)
#define MPI_Reduce_scatter_block(...) NONBLOCKING(MPI_Ireduce_scatter_block, __VA_ARGS__)
#define MPI_Scan(...) NONBLOCKING(MPI_Iscan, __VA_ARGS__)
#define MPI_Exscan(...) NONBLOCKING(MPI_Iexscan, __VA_ARGS__)
#endif

#ifdef SIMMPI_TEST_PERSISTENT
static int start_wait_free(int err, MPI_Request* r) {
  if (err == MPI_SUCCESS) err = MPI_Start(r);
  if (err == MPI_SUCCESS) err = MPI_Wait(r, MPI_STATUS_IGNORE);
  if (err == MPI_SUCCESS && *r == MPI_REQUEST_NULL) err = MPI_ERR_REQUEST; /* it stays */
  return err == MPI_SUCCESS ? MPI_Request_free(r) : err;
}
#define PERSISTENT(call, ...)                                            \
  ({                                                                     \
    MPI_Request p_req_;                                                  \
    start_wait_free(call(__VA_ARGS__, MPI_INFO_NULL, &p_req_), &p_req_); \
  })
#define MPI_Barrier(...) PERSISTENT(MPI_Barrier_init, __VA_ARGS__)
#define MPI_Bcast(...) PERSISTENT(MPI_Bcast_init, __VA_ARGS__)
#define MPI_Reduce(...) PERSISTENT(MPI_Reduce_init, __VA_ARGS__)
#define MPI_Allreduce(...) PERSISTENT(MPI_Allreduce_init, __VA_ARGS__)
#define MPI_Gather(...) PERSISTENT(MPI_Gather_init, __VA_ARGS__)
#define MPI_Gatherv(...) PERSISTENT(MPI_Gatherv_init, __VA_ARGS__)
#define MPI_Scatter(...) PERSISTENT(MPI_Scatter_init, __VA_ARGS__)
#define MPI_Scatterv(...) PERSISTENT(MPI_Scatterv_init, __VA_ARGS__)
#define MPI_Allgather(...) PERSISTENT(MPI_Allgather_init, __VA_ARGS__)
#define MPI_Allgatherv(...) PERSISTENT(MPI_Allgatherv_init, __VA_ARGS__)
#define MPI_Alltoall(...) PERSISTENT(MPI_Alltoall_init, __VA_ARGS__)
#define MPI_Alltoallv(...) PERSISTENT(MPI_Alltoallv_init, __VA_ARGS__)
#define MPI_Reduce_scatter(...) PERSISTENT(MPI_Reduce_scatter_init, __VA_ARGS__)
#define MPI_Reduce_scatter_block(...) PERSISTENT(MPI_Reduce_scatter_block_init, __VA_ARGS__)
#define MPI_Scan(...) PERSISTENT(MPI_Scan_init, __VA_ARGS__)
#define MPI_Exscan(...) PERSISTENT(MPI_Exscan_init, __VA_ARGS__)
#endif

static int rank, size;

static void barrier_and_bcast(void) {
  MPI_Barrier(MPI_COMM_WORLD);
  for (int root = 0; root<size; root += size> 3 ? size / 3 : 1) {
    int n = 1000 + root;
    int* buf = malloc(n * sizeof(int));
    for (int i = 0; i < n; ++i) buf[i] = rank == root ? i * 3 + root : -1;
    MPI_Bcast(buf, n, MPI_INT, root, MPI_COMM_WORLD);
    int ok = 1;
    for (int i = 0; i < n; ++i) ok &= buf[i] == i * 3 + root;
    CHECK(ok, "bcast from root %d", root);
    free(buf);
  }
  double big[20000]; /* rendezvous-sized */
  for (int i = 0; i < 20000; ++i) big[i] = rank == 0 ? i * 0.5 : 0;
  MPI_Bcast(big, 20000, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  CHECK(big[19999] == 19999 * 0.5, "large bcast");
}

static long long sum_ranks(void) {
  return (long long)size * (size - 1) / 2;
}

static void reductions(void) {
  /* Integers: r+i contributes; sums, products of small numbers, min, max, bitwise, logical. */
  enum { N = 5 };
  long long in[N], out[N];
  for (int i = 0; i < N; ++i) in[i] = rank + i;
  MPI_Allreduce(in, out, N, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < N; ++i)
    CHECK(out[i] == sum_ranks() + (long long)size * i, "sum[%d]=%lld", i, out[i]);
  MPI_Allreduce(in, out, N, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  CHECK(out[0] == size - 1 && out[4] == size + 3, "max %lld", out[0]);
  MPI_Allreduce(in, out, N, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  CHECK(out[0] == 0 && out[4] == 4, "min %lld", out[0]);
  int bits = 1 << (rank % 30), bor, band, bxor;
  MPI_Allreduce(&bits, &bor, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
  MPI_Allreduce(&bits, &band, 1, MPI_INT, MPI_BAND, MPI_COMM_WORLD);
  MPI_Allreduce(&bits, &bxor, 1, MPI_INT, MPI_BXOR, MPI_COMM_WORLD);
  int expect_or = 0, expect_xor = 0;
  for (int r = 0; r < size; ++r) expect_or |= 1 << (r % 30), expect_xor ^= 1 << (r % 30);
  CHECK(bor == expect_or && bxor == expect_xor && band == (size == 1 ? 1 : 0), "bitwise %x %x %x",
        bor, band, bxor);
  int truth = rank != 1, land, lor, lxor;
  MPI_Allreduce(&truth, &land, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  MPI_Allreduce(&truth, &lor, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  MPI_Allreduce(&truth, &lxor, 1, MPI_INT, MPI_LXOR, MPI_COMM_WORLD);
  int trues = size > 1 ? size - 1 : 1;
  CHECK(land == (size == 1) && lor == 1 && lxor == trues % 2, "logical %d %d %d", land, lor, lxor);
  unsigned char small = (unsigned char)(rank % 3 + 1), prod;
  MPI_Allreduce(&small, &prod, 1, MPI_UNSIGNED_CHAR, MPI_PROD, MPI_COMM_WORLD);
  unsigned char expect_prod = 1;
  for (int r = 0; r < size; ++r) expect_prod = (unsigned char)(expect_prod * (r % 3 + 1));
  CHECK(prod == expect_prod, "prod %u expected %u", prod, expect_prod);
  /* Floating point: exact sums of halves. */
  double d = rank * 0.5, dsum;
  MPI_Allreduce(&d, &dsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  CHECK(dsum == sum_ranks() * 0.5, "double sum %f", dsum);
  float f = (float)rank, fmax;
  MPI_Allreduce(&f, &fmax, 1, MPI_FLOAT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(fmax == (float)(size - 1), "float max %f", fmax);
  /* MAXLOC/MINLOC: the value peaks at the middle rank; ties go to the lower index. */
  struct {
    double v;
    int i;
  } loc = {(double)(rank == size / 2 ? 100 : rank % 2), rank}, res;
  MPI_Allreduce(&loc, &res, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
  CHECK(res.v == 100 && res.i == size / 2, "maxloc %f@%d", res.v, res.i);
  struct {
    int v;
    int i;
  } iloc = {rank % 2, rank}, ires;
  MPI_Allreduce(&iloc, &ires, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
  CHECK(ires.v == 0 && ires.i == 0, "minloc %d@%d", ires.v, ires.i);
  /* Reduce to every root, plus MPI_IN_PLACE at the root. */
  for (int root = 0; root<size; root += size> 3 ? size / 3 : 1) {
    long long v = rank + 1, r = -1;
    MPI_Reduce(&v, &r, 1, MPI_LONG_LONG, MPI_SUM, root, MPI_COMM_WORLD);
    if (rank == root) CHECK(r == sum_ranks() + size, "reduce to %d gives %lld", root, r);
    long long w = rank + 2;
    MPI_Reduce(rank == root ? MPI_IN_PLACE : &w, &w, 1, MPI_LONG_LONG, MPI_SUM, root,
               MPI_COMM_WORLD);
    if (rank == root) CHECK(w == sum_ranks() + 2LL * size, "in-place reduce gives %lld", w);
  }
  int iv = rank;
  MPI_Allreduce(MPI_IN_PLACE, &iv, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(iv == sum_ranks(), "in-place allreduce %d", iv);
  /* A large vector (rendezvous messages inside the algorithm). */
  int n = 30000;
  int* big = malloc(n * sizeof(int));
  int* bigout = malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) big[i] = i % 7 + rank;
  MPI_Allreduce(big, bigout, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int ok = 1;
  for (int i = 0; i < n; ++i) ok &= bigout[i] == size * (i % 7) + sum_ranks();
  CHECK(ok, "large allreduce");
  free(big);
  free(bigout);
}

static void gathers_and_scatters(void) {
  int root = size - 1;
  int mine[2] = {rank * 10, rank * 10 + 1};
  int* all = malloc(2 * size * sizeof(int));
  MPI_Gather(mine, 2, MPI_INT, all, 2, MPI_INT, root, MPI_COMM_WORLD);
  if (rank == root)
    for (int r = 0; r < size; ++r)
      CHECK(all[2 * r] == r * 10 && all[2 * r + 1] == r * 10 + 1, "gather block %d", r);
  /* In place at the root. */
  if (rank == root) all[2 * root] = root * 10, all[2 * root + 1] = root * 10 + 1;
  MPI_Gather(rank == root ? MPI_IN_PLACE : mine, 2, MPI_INT, all, 2, MPI_INT, root, MPI_COMM_WORLD);
  if (rank == root)
    CHECK(all[0] == 0 && all[2 * size - 1] == (size - 1) * 10 + 1, "in-place gather");
  /* Allgather and in-place allgather. */
  MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD);
  int ok = 1;
  for (int r = 0; r < size; ++r) ok &= all[2 * r] == r * 10 && all[2 * r + 1] == r * 10 + 1;
  CHECK(ok, "allgather");
  memset(all, 0xff, 2 * size * sizeof(int));
  all[2 * rank] = mine[0], all[2 * rank + 1] = mine[1];
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 2, MPI_INT, MPI_COMM_WORLD);
  ok = 1;
  for (int r = 0; r < size; ++r) ok &= all[2 * r] == r * 10 && all[2 * r + 1] == r * 10 + 1;
  CHECK(ok, "in-place allgather");
  /* Scatter from the root, then back. */
  int got[2] = {-1, -1};
  if (rank == 0)
    for (int r = 0; r < size; ++r) all[2 * r] = r + 100, all[2 * r + 1] = r + 200;
  MPI_Scatter(all, 2, MPI_INT, got, 2, MPI_INT, 0, MPI_COMM_WORLD);
  CHECK(got[0] == rank + 100 && got[1] == rank + 200, "scatter got %d %d", got[0], got[1]);
  free(all);
  /* Irregular v-variants: rank r contributes r+1 values equal to r, placed with a gap of 1. */
  int* counts = malloc(size * sizeof(int));
  int* displs = malloc(size * sizeof(int));
  int total = 0;
  for (int r = 0; r < size; ++r) counts[r] = r + 1, displs[r] = total + r, total += r + 1;
  int extent = total + size;
  int* vbuf = malloc(extent * sizeof(int));
  int* contrib = malloc((rank + 1) * sizeof(int));
  for (int i = 0; i <= rank; ++i) contrib[i] = rank;
  for (int i = 0; i < extent; ++i) vbuf[i] = -7;
  MPI_Gatherv(contrib, rank + 1, MPI_INT, vbuf, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    ok = 1;
    for (int r = 0; r < size; ++r) {
      for (int i = 0; i < counts[r]; ++i) ok &= vbuf[displs[r] + i] == r;
      if (r > 0) ok &= vbuf[displs[r] - 1] == -7; /* the gaps are untouched */
    }
    CHECK(ok, "gatherv");
  }
  for (int i = 0; i < extent; ++i) vbuf[i] = -7;
  MPI_Allgatherv(contrib, rank + 1, MPI_INT, vbuf, counts, displs, MPI_INT, MPI_COMM_WORLD);
  ok = 1;
  for (int r = 0; r < size; ++r) {
    for (int i = 0; i < counts[r]; ++i) ok &= vbuf[displs[r] + i] == r;
    if (r > 0) ok &= vbuf[displs[r] - 1] == -7;
  }
  CHECK(ok, "allgatherv");
  int* back = malloc((rank + 1) * sizeof(int));
  if (rank == 0)
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < counts[r]; ++i) vbuf[displs[r] + i] = r * 1000 + i;
  MPI_Scatterv(vbuf, counts, displs, MPI_INT, back, rank + 1, MPI_INT, 0, MPI_COMM_WORLD);
  ok = 1;
  for (int i = 0; i <= rank; ++i) ok &= back[i] == rank * 1000 + i;
  CHECK(ok, "scatterv");
  free(back);
  free(counts);
  free(displs);
  free(vbuf);
  free(contrib);
}

static void all_to_all(void) {
  int* out = malloc(2 * size * sizeof(int));
  int* in = malloc(2 * size * sizeof(int));
  for (int r = 0; r < size; ++r) out[2 * r] = rank * 1000 + r, out[2 * r + 1] = -rank;
  MPI_Alltoall(out, 2, MPI_INT, in, 2, MPI_INT, MPI_COMM_WORLD);
  int ok = 1;
  for (int r = 0; r < size; ++r) ok &= in[2 * r] == r * 1000 + rank && in[2 * r + 1] == -r;
  CHECK(ok, "alltoall");
  memcpy(in, out, 2 * size * sizeof(int));
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, in, 2, MPI_INT, MPI_COMM_WORLD);
  ok = 1;
  for (int r = 0; r < size; ++r) ok &= in[2 * r] == r * 1000 + rank;
  CHECK(ok, "in-place alltoall");
  free(out);
  free(in);
  /* Alltoallv: rank r sends (r + d) % 3 values to rank d, each equal to r * 100 + d. */
  int *sc = malloc(size * sizeof(int)), *sd = malloc(size * sizeof(int));
  int *rc = malloc(size * sizeof(int)), *rd = malloc(size * sizeof(int));
  int st = 0, rt = 0;
  for (int d = 0; d < size; ++d) {
    sc[d] = (rank + d) % 3, sd[d] = st, st += sc[d];
    rc[d] = (d + rank) % 3, rd[d] = rt, rt += rc[d];
  }
  int* sbuf = malloc((st + 1) * sizeof(int));
  int* rbuf = malloc((rt + 1) * sizeof(int));
  for (int d = 0; d < size; ++d)
    for (int i = 0; i < sc[d]; ++i) sbuf[sd[d] + i] = rank * 100 + d;
  MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, MPI_COMM_WORLD);
  ok = 1;
  for (int s = 0; s < size; ++s)
    for (int i = 0; i < rc[s]; ++i) ok &= rbuf[rd[s] + i] == s * 100 + rank;
  CHECK(ok, "alltoallv");
  free(sc), free(sd), free(rc), free(rd), free(sbuf), free(rbuf);
}

static void scans_and_reduce_scatter(void) {
  long long v = rank + 1, incl = -1, excl = -1;
  MPI_Scan(&v, &incl, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  CHECK(incl == (long long)(rank + 1) * (rank + 2) / 2, "scan %lld", incl);
  MPI_Exscan(&v, &excl, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank > 0) CHECK(excl == (long long)rank * (rank + 1) / 2, "exscan %lld", excl);
  int m = rank % 4, mx;
  MPI_Scan(&m, &mx, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(mx == (rank >= 3 ? 3 : rank), "scan max %d", mx);
  long long w = rank + 1;
  MPI_Scan(MPI_IN_PLACE, &w, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  CHECK(w == incl, "in-place scan %lld", w);
  /* Reduce_scatter_block: element j of every rank is r + j; rank k gets block k. */
  int* in = malloc(2 * size * sizeof(int));
  for (int j = 0; j < 2 * size; ++j) in[j] = rank + j;
  int blk[2];
  MPI_Reduce_scatter_block(in, blk, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(blk[0] == sum_ranks() + size * (2 * rank) && blk[1] == sum_ranks() + size * (2 * rank + 1),
        "reduce_scatter_block %d %d", blk[0], blk[1]);
  /* Reduce_scatter with counts r % 2 + 1. */
  int* counts = malloc(size * sizeof(int));
  int total = 0, offset = 0;
  for (int r = 0; r < size; ++r) {
    counts[r] = r % 2 + 1;
    if (r < rank) offset += counts[r];
    total += counts[r];
  }
  int* vin = malloc(total * sizeof(int));
  for (int j = 0; j < total; ++j) vin[j] = rank * j;
  int out[2] = {-1, -1};
  MPI_Reduce_scatter(vin, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < counts[rank]; ++i)
    CHECK(out[i] == sum_ranks() * (offset + i), "reduce_scatter[%d] %d", i, out[i]);
  free(in), free(counts), free(vin);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  barrier_and_bcast();
  reductions();
  gathers_and_scatters();
  all_to_all();
  scans_and_reduce_scatter();
  return finish("collectives");
}
