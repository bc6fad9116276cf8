/* SPDX-License-Identifier: Apache-2.0 */
/* Corner rules of one-sided calls that MPICH's test suite (test/mpi/rma) found simmpi breaking,
 * each reproduced here at any number of ranks (rmanull, badrma, win_dynamic_rma_flush_get):
 *   - MPI_PROC_NULL is a valid target of MPI_Win_lock, _unlock, _flush and _flush_local, which
 *     return at once (MPI-3.1 11.3; MPICH and Open MPI alike); MPI_Win_flush(MPI_PROC_NULL) is
 *     not MPI_Win_flush_all, though MPI_PROC_NULL is -1;
 *   - an operation that moves no bytes matches any types (an empty type signature), also in an
 *     accumulate whose origin and target types differ;
 *   - in a dynamic window an operation may span regions attached one after the other, and one
 *     that reaches past them is MPI_ERR_RMA_RANGE. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static void proc_null_sync(void) {
  const int n = 1 << 16;
  double *target = calloc(n, sizeof(double)), *data = calloc(n, sizeof(double));
  MPI_Win win;
  MPI_Win_create(target, n * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  int err = MPI_Win_lock(MPI_LOCK_EXCLUSIVE, MPI_PROC_NULL, 0, win);
  CHECK(err == MPI_SUCCESS, "MPI_Win_lock(MPI_PROC_NULL) returned %d", err);
  err = MPI_Put(data, 4, MPI_DOUBLE, MPI_PROC_NULL, 0, 4, MPI_DOUBLE, win);
  CHECK(err == MPI_SUCCESS, "MPI_Put to MPI_PROC_NULL returned %d", err);
  err = MPI_Win_flush(MPI_PROC_NULL, win);
  CHECK(err == MPI_SUCCESS, "MPI_Win_flush(MPI_PROC_NULL) returned %d", err);
  err = MPI_Win_flush_local(MPI_PROC_NULL, win);
  CHECK(err == MPI_SUCCESS, "MPI_Win_flush_local(MPI_PROC_NULL) returned %d", err);
  err = MPI_Win_unlock(MPI_PROC_NULL, win);
  CHECK(err == MPI_SUCCESS, "MPI_Win_unlock(MPI_PROC_NULL) returned %d", err);

  /* A flush to MPI_PROC_NULL waits for nothing: 512 KiB put to the right stay on their way. */
  int right = (rank + 1) % size;
  MPI_Win_lock_all(0, win);
  MPI_Put(data, n, MPI_DOUBLE, right, 0, n, MPI_DOUBLE, win);
  double t0 = MPI_Wtime();
  MPI_Win_flush(MPI_PROC_NULL, win);
  double t_null = MPI_Wtime() - t0;
  t0 = MPI_Wtime();
  MPI_Win_flush(right, win);
  double t_right = MPI_Wtime() - t0;
  CHECK(t_null < t_right / 10, "flush(MPI_PROC_NULL) took %.9f s, flush(right) %.9f s", t_null,
        t_right);
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  free(target);
  free(data);
}

static void zero_bytes_any_types(void) {
  int buf[4] = {0, 0, 0, 0}, in[4] = {1, 2, 3, 4}, out[4];
  MPI_Win win;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Datatype empty, one_int;
  MPI_Type_contiguous(0, MPI_INT, &empty);
  MPI_Type_contiguous(1, MPI_INT, &one_int);
  MPI_Type_commit(&empty);
  MPI_Type_commit(&one_int);
  int right = (rank + 1) % size;
  MPI_Win_fence(0, win);
  int err = MPI_Accumulate(in, 0, one_int, right, 0, 0, MPI_DOUBLE, MPI_SUM, win);
  CHECK(err == MPI_SUCCESS, "zero-count accumulate int -> double returned %d", err);
  err = MPI_Accumulate(in, 3, empty, right, 0, 0, MPI_DOUBLE, MPI_SUM, win);
  CHECK(err == MPI_SUCCESS, "accumulate of an empty type to zero doubles returned %d", err);
  err = MPI_Accumulate(in, 2, empty, right, 0, 5, empty, MPI_MAX, win);
  CHECK(err == MPI_SUCCESS, "accumulate of empty types returned %d", err);
  err = MPI_Get_accumulate(in, 0, MPI_DOUBLE, out, 1, empty, right, 0, 0, MPI_INT, MPI_SUM, win);
  CHECK(err == MPI_SUCCESS, "empty get_accumulate returned %d", err);
  err = MPI_Accumulate(in, 1, MPI_INT, right, 0, 1, MPI_FLOAT, MPI_SUM, win);
  CHECK(err == MPI_ERR_TYPE, "accumulate of 4 bytes of int into a float returned %d", err);
  MPI_Win_fence(0, win);
  CHECK(buf[0] == 0 && buf[1] == 0, "empty operations changed the window: %d %d", buf[0], buf[1]);
  MPI_Type_free(&empty);
  MPI_Type_free(&one_int);
  MPI_Win_free(&win);
}

/* Two regions of one array attached one after the other, and a put over both. */
static void adjacent_attached_regions(void) {
  int mem[16], src[12];
  for (int i = 0; i < 16; ++i) mem[i] = -1;
  for (int i = 0; i < 12; ++i) src[i] = rank * 100 + i;
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  MPI_Win_attach(win, mem, 8 * sizeof(int));
  MPI_Win_attach(win, mem + 8, 8 * sizeof(int));
  MPI_Aint mine, right_addr;
  MPI_Get_address(mem, &mine);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Sendrecv(&mine, 1, MPI_AINT, left, 0, &right_addr, 1, MPI_AINT, right, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Win_lock_all(0, win);
  int err = MPI_Put(src, 12, MPI_INT, right, right_addr + 2 * sizeof(int), 12, MPI_INT, win);
  CHECK(err == MPI_SUCCESS, "a put over two adjacent regions returned %d", err);
  err = MPI_Put(src, 12, MPI_INT, right, right_addr + 8 * sizeof(int), 12, MPI_INT, win);
  CHECK(err == MPI_ERR_RMA_RANGE, "a put past the regions returned %d", err);
  MPI_Win_flush_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  int back[12];
  memset(back, 0, sizeof back);
  MPI_Get(back, 12, MPI_INT, right, right_addr + 2 * sizeof(int), 12, MPI_INT, win);
  MPI_Win_unlock_all(win);
  for (int i = 0; i < 12; ++i)
    CHECK(back[i] == rank * 100 + i, "got back[%d]=%d, expected %d", i, back[i], rank * 100 + i);
  CHECK(mem[0] == -1 && mem[1] == -1 && mem[2] == left * 100 && mem[13] == left * 100 + 11 &&
            mem[14] == -1,
        "the put from the left landed wrong: %d %d %d %d %d", mem[0], mem[1], mem[2], mem[13],
        mem[14]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_detach(win, mem);
  MPI_Win_detach(win, mem + 8);
  MPI_Win_free(&win);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  proc_null_sync();
  zero_bytes_any_types();
  adjacent_attached_regions();
  return finish("rma_corners");
}
