/* SPDX-License-Identifier: Apache-2.0 */
/* MPI-IO's independent calls with their content checked: explicit offsets, the individual file
 * pointer through an interleaved view read back through another, the shared file pointer,
 * nonblocking forms, a read past the end, the file's queries, and bad input answered with the
 * error classes MPI-3.1 13.7 names (files return errors by default).
 *   io_basic PREFIX          run the checks on files PREFIX.*
 *   io_basic PREFIX fatal    open a missing file under MPI_ERRORS_ARE_FATAL (the run ends) */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;
static char path[512];

static int error_class(int err) {
  int cls = err;
  MPI_Error_class(err, &cls);
  return cls;
}

/* Each rank writes its block of N ints at its own offset, then reads its right neighbour's. */
static void explicit_offsets(void) {
  enum { N = 1000 };
  int out[N], in[N];
  MPI_File fh;
  CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) ==
            MPI_SUCCESS,
        "open %s", path);
  for (int i = 0; i < N; ++i) out[i] = rank * 100000 + i;
  MPI_Status st;
  CHECK(MPI_File_write_at(fh, (MPI_Offset)rank * N * sizeof(int), out, N, MPI_INT, &st) ==
            MPI_SUCCESS,
        "write_at");
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == N, "write_at count %d", count);
  MPI_Barrier(MPI_COMM_WORLD);
  int peer = (rank + 1) % size;
  MPI_File_read_at(fh, (MPI_Offset)peer * N * sizeof(int), in, N, MPI_INT, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == N, "read_at count %d", count);
  for (int i = 0; i < N; ++i) CHECK(in[i] == peer * 100000 + i, "in[%d] = %d", i, in[i]);
  MPI_Offset fsize = 0;
  MPI_File_get_size(fh, &fsize);
  CHECK(fsize == (MPI_Offset)size * N * sizeof(int), "size %lld", fsize);
  /* A read past the end reads nothing: count 0, not an error. */
  CHECK(MPI_File_read_at(fh, fsize + 10, in, N, MPI_INT, &st) == MPI_SUCCESS, "read past end");
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == 0, "past end count %d", count);
  /* One straddling the end reads what is there. */
  MPI_File_read_at(fh, fsize - 3 * sizeof(int), in, N, MPI_INT, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == 3, "straddling count %d", count);
  CHECK(in[2] == (size - 1) * 100000 + N - 1, "last int %d", in[2]);
  /* Nonblocking. */
  MPI_Request req;
  int one = 7 + rank;
  MPI_File_iwrite_at(fh, fsize + rank * sizeof(int), &one, 1, MPI_INT, &req);
  MPI_Wait(&req, &st);
  MPI_Barrier(MPI_COMM_WORLD);
  int back = -1;
  MPI_File_iread_at(fh, fsize + ((rank + 1) % size) * sizeof(int), &back, 1, MPI_INT, &req);
  MPI_Wait(&req, &st);
  CHECK(back == 7 + (rank + 1) % size, "iread_at %d", back);
  int amode = 0;
  MPI_File_get_amode(fh, &amode);
  CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_RDWR), "amode %d", amode);
  MPI_Group g;
  int gsize = 0;
  MPI_File_get_group(fh, &g);
  MPI_Group_size(g, &gsize);
  CHECK(gsize == size, "group size %d", gsize);
  MPI_Group_free(&g);
  MPI_Info info;
  char value[64] = "";
  int flag = 0;
  MPI_File_get_info(fh, &info);
  MPI_Info_get(info, "striping_factor", sizeof value - 1, value, &flag);
  CHECK(flag && atoi(value) >= 1, "striping_factor '%s'", value);
  MPI_Info_free(&info);
  CHECK(MPI_File_close(&fh) == MPI_SUCCESS && fh == MPI_FILE_NULL, "close");
}

/* Rank r owns ints r, r + size, r + 2 size... of the file: a vector filetype, written through
 * the individual pointer; rank 0 reads the file back through the plain byte view. */
static void interleaved_view(void) {
  enum { K = 64 };
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  MPI_File_set_size(fh, 0);
  MPI_Datatype cell;
  MPI_Type_create_resized(MPI_INT, 0, (MPI_Aint)size * sizeof(int), &cell);
  MPI_Type_commit(&cell);
  CHECK(MPI_File_set_view(fh, rank * sizeof(int), MPI_INT, cell, "native", MPI_INFO_NULL) ==
            MPI_SUCCESS,
        "set_view");
  int out[K];
  for (int i = 0; i < K; ++i) out[i] = i * size + rank;
  MPI_File_write(fh, out, K / 2, MPI_INT, MPI_STATUS_IGNORE);
  MPI_Offset pos = -1, byte = -1;
  MPI_File_get_position(fh, &pos);
  CHECK(pos == K / 2, "position %lld", pos);
  MPI_File_get_byte_offset(fh, pos, &byte);
  CHECK(byte == (MPI_Offset)(rank + (K / 2) * size) * sizeof(int), "byte offset %lld", byte);
  MPI_File_write(fh, out + K / 2, K / 2, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_seek(fh, -2, MPI_SEEK_CUR);
  MPI_File_get_position(fh, &pos);
  CHECK(pos == K - 2, "after seek %lld", pos);
  MPI_Offset disp;
  MPI_Datatype et, ft;
  char rep[MPI_MAX_DATAREP_STRING];
  MPI_File_get_view(fh, &disp, &et, &ft, rep);
  CHECK(disp == rank * (MPI_Offset)sizeof(int) && et == MPI_INT && strcmp(rep, "native") == 0,
        "view %lld %s", disp, rep);
  MPI_File_close(&fh);
  MPI_Type_free(&cell);
  if (rank == 0) {
    int* all = malloc(sizeof(int) * K * size);
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    MPI_Status st;
    MPI_File_read(fh, all, K * size, MPI_INT, &st);
    int count = 0;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == K * size, "read all %d", count);
    for (int i = 0; i < K * size; ++i) CHECK(all[i] == i, "all[%d] = %d", i, all[i]);
    MPI_File_seek(fh, -(MPI_Offset)sizeof(int), MPI_SEEK_END);
    MPI_File_read(fh, all, 1, MPI_INT, &st);
    CHECK(all[0] == K * size - 1, "seek_end read %d", all[0]);
    MPI_File_close(&fh);
    free(all);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Each rank appends one record of R copies of its rank through the shared pointer: every rank's
 * record is in the file once, whole. */
static void shared_pointer(void) {
  enum { R = 16 };
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                MPI_INFO_NULL, &fh);
  MPI_File_set_size(fh, 0);
  int rec[R];
  for (int i = 0; i < R; ++i) rec[i] = rank;
  MPI_File_write_shared(fh, rec, R, MPI_INT, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Offset pos = 0;
  MPI_File_get_position_shared(fh, &pos);
  CHECK(pos == (MPI_Offset)size * R * sizeof(int), "shared position %lld", pos);
  MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
  int* all = malloc(sizeof(int) * R * size);
  int* seen = calloc(size, sizeof(int));
  if (rank == 0) {
    MPI_Request req;
    MPI_File_iread_shared(fh, all, R * size, MPI_INT, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int k = 0; k < size; ++k) {
      int who = all[k * R];
      CHECK(who >= 0 && who < size, "record %d from %d", k, who);
      if (who < 0 || who >= size) continue;
      seen[who]++;
      for (int i = 0; i < R; ++i) CHECK(all[k * R + i] == who, "record %d torn", k);
    }
    for (int r = 0; r < size; ++r) CHECK(seen[r] == 1, "rank %d's record %d times", r, seen[r]);
  }
  free(all);
  free(seen);
  MPI_File_close(&fh);
  int exists = 1;
  if (rank == 0) {
    MPI_File probe;
    exists =
        MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &probe) == MPI_SUCCESS;
    if (exists) MPI_File_close(&probe);
  }
  CHECK(!exists || rank != 0, "MPI_MODE_DELETE_ON_CLOSE left the file");
}

static void bad_input(void) {
  MPI_File fh;
  char missing[600];
  snprintf(missing, sizeof missing, "%s.missing", path);
  int err = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  CHECK(error_class(err) == MPI_ERR_NO_SUCH_FILE, "missing file: class %d", error_class(err));
  err = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
  CHECK(error_class(err) == MPI_ERR_AMODE, "rdonly|create: class %d", error_class(err));
  err = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  CHECK(error_class(err) == MPI_ERR_AMODE, "rdwr|wronly: class %d", error_class(err));
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  MPI_File_close(&fh);
  err = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY,
                      MPI_INFO_NULL, &fh);
  CHECK(error_class(err) == MPI_ERR_FILE_EXISTS, "excl: class %d", error_class(err));
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  int x = 1;
  err = MPI_File_write_at(fh, 0, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
  CHECK(error_class(err) == MPI_ERR_READ_ONLY, "write on rdonly: class %d", error_class(err));
  /* A filetype whose displacements go backwards. */
  int lens[2] = {1, 1};
  int disps[2] = {4, 0};
  MPI_Datatype back;
  MPI_Type_indexed(2, lens, disps, MPI_INT, &back);
  MPI_Type_commit(&back);
  err = MPI_File_set_view(fh, 0, MPI_INT, back, "native", MPI_INFO_NULL);
  CHECK(error_class(err) == MPI_ERR_TYPE, "decreasing filetype: class %d", error_class(err));
  err = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32", MPI_INFO_NULL);
  CHECK(error_class(err) == MPI_ERR_UNSUPPORTED_DATAREP, "external32: class %d", error_class(err));
  MPI_Type_free(&back);
  /* A 3-byte access under an int etype. */
  MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  char c[3];
  err = MPI_File_read_at(fh, 0, c, 3, MPI_CHAR, MPI_STATUS_IGNORE);
  CHECK(error_class(err) == MPI_ERR_TYPE, "3 chars under an int etype: class %d", error_class(err));
  MPI_File_close(&fh);
  err = MPI_File_read_at(fh, 0, &x, 1, MPI_INT, MPI_STATUS_IGNORE);
  CHECK(error_class(err) == MPI_ERR_FILE, "closed handle: class %d", error_class(err));
  err = MPI_Register_datarep("mine", MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, NULL, NULL);
  CHECK(error_class(err) == MPI_ERR_UNSUPPORTED_DATAREP, "register_datarep: class %d",
        error_class(err));
  /* A view on a file another communicator opened: rank 0's own file, its handle sent around. */
  MPI_File own = MPI_FILE_NULL;
  if (rank == 0) MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &own);
  MPI_File theirs = own;
  MPI_Bcast(&theirs, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank != 0) {
    err = MPI_File_set_view(theirs, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    CHECK(error_class(err) == MPI_ERR_FILE, "another's file: class %d", error_class(err));
  } else {
    MPI_File_close(&own);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    CHECK(MPI_File_delete(path, MPI_INFO_NULL) == MPI_SUCCESS, "delete");
    err = MPI_File_delete(path, MPI_INFO_NULL);
    CHECK(error_class(err) == MPI_ERR_NO_SUCH_FILE, "delete twice: class %d", error_class(err));
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2) {
    fprintf(stderr, "usage: io_basic PREFIX [fatal]\n");
    return 2;
  }
  snprintf(path, sizeof path, "%s.dat", argv[1]);
  if (argc > 2 && strcmp(argv[2], "fatal") == 0) {
    MPI_File fh;
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_ARE_FATAL);
    snprintf(path, sizeof path, "%s.nothere", argv[1]);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    return finish("io_basic");
  }
  explicit_offsets();
  interleaved_view();
  shared_pointer();
  bad_input();
  return finish("io_basic");
}
