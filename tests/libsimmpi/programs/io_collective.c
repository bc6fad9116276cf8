/* SPDX-License-Identifier: Apache-2.0 */
/* MPI-IO's collective calls with their content checked:
 *  - a 16 x 12 x 8 array of ints, block-distributed over a 3-D process grid, written with
 *    MPI_File_write_all through a subarray view, read back with MPI_File_read_all through a
 *    darray view of another decomposition (slabs), then with the nonblocking and split forms;
 *  - explicit-offset collectives (write_at_all, iread_at_all, split begin/end);
 *  - ordered access: each rank's record in rank order, read back by MPI_File_read_ordered.
 *   io_collective PREFIX */
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { G0 = 16, G1 = 12, G2 = 8 };
static int rank, size;
static char path[512];

static int value(int i, int j, int k) {
  return (i * G1 + j) * G2 + k;
}

static void subarray_then_darray(void) {
  int dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0}, coords[3];
  MPI_Dims_create(size, 3, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  MPI_Cart_coords(cart, rank, 3, coords);
  int gsizes[3] = {G0, G1, G2}, lsizes[3], starts[3];
  for (int d = 0; d < 3; ++d) {
    lsizes[d] = gsizes[d] / dims[d];
    starts[d] = coords[d] * lsizes[d];
  }
  int n = lsizes[0] * lsizes[1] * lsizes[2];
  int* local = malloc(sizeof(int) * n);
  for (int i = 0; i < lsizes[0]; ++i)
    for (int j = 0; j < lsizes[1]; ++j)
      for (int k = 0; k < lsizes[2]; ++k)
        local[(i * lsizes[1] + j) * lsizes[2] + k] =
            value(starts[0] + i, starts[1] + j, starts[2] + k);
  MPI_Datatype sub;
  MPI_Type_create_subarray(3, gsizes, lsizes, starts, MPI_ORDER_C, MPI_INT, &sub);
  MPI_Type_commit(&sub);
  MPI_File fh;
  CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) ==
            MPI_SUCCESS,
        "open");
  MPI_File_set_view(fh, 0, MPI_INT, sub, "native", MPI_INFO_NULL);
  MPI_Status st;
  CHECK(MPI_File_write_all(fh, local, n, MPI_INT, &st) == MPI_SUCCESS, "write_all");
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == n, "write_all count %d", count);
  MPI_Offset fsize = 0;
  MPI_File_get_size(fh, &fsize);
  CHECK(fsize == (MPI_Offset)G0 * G1 * G2 * sizeof(int), "file size %lld", fsize);

  /* Slabs along the first dimension, as a darray of a size x 1 x 1 grid. */
  int pdims[3] = {size, 1, 1};
  int distribs[3] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK};
  int dargs[3] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
  MPI_Datatype slab;
  MPI_Type_create_darray(size, rank, 3, gsizes, distribs, dargs, pdims, MPI_ORDER_C, MPI_INT,
                         &slab);
  MPI_Type_commit(&slab);
  int rows = G0 / size, m = rows * G1 * G2;
  int* back = malloc(sizeof(int) * m);
  MPI_File_set_view(fh, 0, MPI_INT, slab, "native", MPI_INFO_NULL);
  memset(back, 0xff, sizeof(int) * m);
  CHECK(MPI_File_read_all(fh, back, m, MPI_INT, &st) == MPI_SUCCESS, "read_all");
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == m, "read_all count %d", count);
  for (int x = 0; x < m; ++x)
    CHECK(back[x] == value(rank * rows + x / (G1 * G2), (x / G2) % G1, x % G2), "slab[%d] = %d", x,
          back[x]);
  /* Again, nonblocking, then split. */
  MPI_Request req;
  memset(back, 0xff, sizeof(int) * m);
  MPI_File_seek(fh, 0, MPI_SEEK_SET);
  MPI_File_iread_all(fh, back, m, MPI_INT, &req);
  MPI_Wait(&req, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == m && back[m - 1] == value(rank * rows + rows - 1, G1 - 1, G2 - 1),
        "iread_all %d %d", count, back[m - 1]);
  memset(back, 0xff, sizeof(int) * m);
  MPI_File_seek(fh, 0, MPI_SEEK_SET);
  MPI_File_read_all_begin(fh, back, m, MPI_INT);
  CHECK(MPI_File_read_all_begin(fh, back, m, MPI_INT) != MPI_SUCCESS, "two split collectives");
  MPI_File_read_all_end(fh, back, &st);
  CHECK(back[0] == value(rank * rows, 0, 0), "split read %d", back[0]);
  MPI_File_close(&fh);
  MPI_Type_free(&sub);
  MPI_Type_free(&slab);
  MPI_Comm_free(&cart);
  free(local);
  free(back);
}

/* Each rank writes K doubles at offset rank K with the explicit-offset collectives. */
static void explicit_collectives(void) {
  enum { K = 300 };
  double out[K], in[K];
  for (int i = 0; i < K; ++i) out[i] = rank + i / 1000.0;
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  MPI_File_set_size(fh, 0);
  MPI_File_write_at_all(fh, (MPI_Offset)rank * K * sizeof(double), out, K, MPI_DOUBLE,
                        MPI_STATUS_IGNORE);
  int peer = (rank + 1) % size;
  MPI_Request req;
  MPI_File_iread_at_all(fh, (MPI_Offset)peer * K * sizeof(double), in, K, MPI_DOUBLE, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  for (int i = 0; i < K; ++i) CHECK(in[i] == peer + i / 1000.0, "in[%d] = %g", i, in[i]);
  MPI_File_write_at_all_begin(fh, (MPI_Offset)rank * K * sizeof(double), in, K, MPI_DOUBLE);
  MPI_File_write_at_all_end(fh, in, MPI_STATUS_IGNORE);
  MPI_File_iwrite_at_all(fh, (MPI_Offset)(size + rank) * K * sizeof(double), out, K, MPI_DOUBLE,
                         &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_File_read_at_all_begin(fh, (MPI_Offset)rank * K * sizeof(double), in, K, MPI_DOUBLE);
  MPI_File_read_at_all_end(fh, in, MPI_STATUS_IGNORE);
  for (int i = 0; i < K; ++i) CHECK(in[i] == peer + i / 1000.0, "rewritten[%d] = %g", i, in[i]);
  MPI_File_close(&fh);
}

/* Rank r writes r + 1 ints of value r, in rank order; read back the same way. */
static void ordered(void) {
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  MPI_File_set_size(fh, 0);
  MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  int* rec = malloc(sizeof(int) * (size + 1));
  for (int i = 0; i <= rank; ++i) rec[i] = rank;
  MPI_File_write_ordered(fh, rec, rank + 1, MPI_INT, MPI_STATUS_IGNORE);
  MPI_Offset pos = 0;
  MPI_File_get_position_shared(fh, &pos);
  CHECK(pos == (MPI_Offset)size * (size + 1) / 2, "shared position %lld", pos);
  MPI_File_write_ordered_begin(fh, rec, rank + 1, MPI_INT);
  MPI_File_write_ordered_end(fh, rec, MPI_STATUS_IGNORE);
  MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
  memset(rec, 0xff, sizeof(int) * (size + 1));
  MPI_Status st;
  MPI_File_read_ordered(fh, rec, rank + 1, MPI_INT, &st);
  for (int i = 0; i <= rank; ++i) CHECK(rec[i] == rank, "ordered rec[%d] = %d", i, rec[i]);
  memset(rec, 0xff, sizeof(int) * (size + 1));
  MPI_File_read_ordered_begin(fh, rec, rank + 1, MPI_INT);
  MPI_File_read_ordered_end(fh, rec, &st);
  for (int i = 0; i <= rank; ++i) CHECK(rec[i] == rank, "second copy rec[%d] = %d", i, rec[i]);
  MPI_Offset fsize = 0;
  MPI_File_get_size(fh, &fsize);
  CHECK(fsize == (MPI_Offset)size * (size + 1) * sizeof(int), "size %lld", fsize);
  free(rec);
  MPI_File_close(&fh);
  if (rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2) {
    fprintf(stderr, "usage: io_collective PREFIX\n");
    return 2;
  }
  snprintf(path, sizeof path, "%s.dat", argv[1]);
  subarray_then_darray();
  explicit_collectives();
  ordered();
  return finish("io_collective");
}
