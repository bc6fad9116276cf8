/* SPDX-License-Identifier: Apache-2.0 */
/* One-sided communication with checked values at any number of ranks: every window flavor
 * (create on a global, allocate, allocate_shared, dynamic), every operation (put, get,
 * accumulate, get_accumulate, fetch_and_op, compare_and_swap and the request-based forms) with
 * derived datatypes on both sides, every synchronization mode (fence, post-start-complete-wait,
 * lock/unlock shared and exclusive, lock_all, flushes), attributes, names, info, groups and error
 * handlers with the MPI_ERR_RMA_* classes of bad input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;
static int error_class(int code);
static int global_win[64]; /* a window in a global variable (privatized per rank) */

/* Fence: put with a vector origin into a contiguous target and get back through a vector
 * target; everything lands in the global of the right rank. */
static void fence_put_get(void) {
  for (int i = 0; i < 64; ++i) global_win[i] = -1;
  MPI_Win win;
  MPI_Win_create(global_win, sizeof global_win, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int src[8];
  for (int i = 0; i < 8; ++i) src[i] = rank * 100 + i;
  MPI_Datatype every_other;
  MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  /* src[0], src[2], src[4], src[6] go to right's global_win[4..7]. */
  MPI_Put(src, 1, every_other, right, 4, 4, MPI_INT, win);
  MPI_Win_fence(0, win);
  for (int i = 0; i < 4; ++i)
    CHECK(global_win[4 + i] == left * 100 + 2 * i, "put: global_win[%d]=%d, expected %d", 4 + i,
          global_win[4 + i], left * 100 + 2 * i);
  CHECK(global_win[3] == -1 && global_win[8] == -1, "put wrote outside its target");
  int got[8];
  for (int i = 0; i < 8; ++i) got[i] = -7;
  /* Every other element of right's global_win[4..11] into got[0..3]. */
  MPI_Get(got, 4, MPI_INT, right, 4, 1, every_other, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  CHECK(got[0] == rank * 100 && got[1] == rank * 100 + 4 && got[2] == -1 && got[3] == -1,
        "get: %d %d %d %d", got[0], got[1], got[2], got[3]);
  CHECK(got[4] == -7, "get wrote past its origin buffer");
  MPI_Type_free(&every_other);
  MPI_Win_free(&win);
  CHECK(win == MPI_WIN_NULL, "MPI_Win_free left the handle");
}

/* Accumulates from every rank into rank 0: sum, max, replace on doubles and ints. */
static void fence_accumulate(void) {
  double* base;
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  for (int i = 0; i < 4; ++i) base[i] = 0;
  MPI_Win_fence(0, win);
  double v[2] = {rank + 1.0, 2.0 * rank};
  MPI_Accumulate(v, 2, MPI_DOUBLE, 0, 0, 2, MPI_DOUBLE, MPI_SUM, win);
  MPI_Accumulate(&v[1], 1, MPI_DOUBLE, 0, 2, 1, MPI_DOUBLE, MPI_MAX, win);
  if (rank == size - 1) MPI_Accumulate(&v[0], 1, MPI_DOUBLE, 0, 3, 1, MPI_DOUBLE, MPI_REPLACE, win);
  MPI_Win_fence(0, win);
  if (rank == 0) {
    double n = size;
    CHECK(base[0] == n * (n + 1) / 2, "sum %g, expected %g", base[0], n * (n + 1) / 2);
    CHECK(base[1] == n * (n - 1), "sum %g, expected %g", base[1], n * (n - 1));
    CHECK(base[2] == 2.0 * (size - 1), "max %g", base[2]);
    CHECK(base[3] == (double)size, "replace %g", base[3]);
  }
  MPI_Win_free(&win);
}

/* Passive target: fetch-and-op, compare-and-swap and get-accumulate on rank 0 under lock_all,
 * and read-modify-write under an exclusive lock, which must lose no update. */
static void passive(void) {
  long* base;
  MPI_Win win;
  MPI_Win_allocate(4 * sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  base[0] = base[1] = base[2] = 0;
  base[3] = -1;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);
  long one = 1, old = -5, mine = rank, prev = -5, none = 0;
  MPI_Fetch_and_op(&one, &old, MPI_LONG, 0, 0, MPI_SUM, win);
  MPI_Win_flush(0, win);
  CHECK(old >= 0 && old < size, "fetch_and_op fetched %ld", old);
  long expect = -1;
  MPI_Compare_and_swap(&mine, &expect, &prev, MPI_LONG, 0, 3, win);
  MPI_Get_accumulate(&mine, 1, MPI_LONG, &none, 1, MPI_LONG, 0, 1, 1, MPI_LONG, MPI_MAX, win);
  MPI_Win_flush_local(0, win);
  CHECK(none >= 0 && none < size, "get_accumulate fetched %ld", none);
  MPI_Win_unlock_all(win);
  int won = prev == -1, winners = 0;
  MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(winners == 1, "%d ranks won the compare-and-swap", winners);
  for (int k = 0; k < 3; ++k) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    long x;
    MPI_Get(&x, 1, MPI_LONG, 0, 2, 1, MPI_LONG, win);
    MPI_Win_flush(0, win);
    x += 1;
    MPI_Put(&x, 1, MPI_LONG, 0, 2, 1, MPI_LONG, win);
    MPI_Win_unlock(0, win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    CHECK(base[0] == size, "counter %ld, expected %d", base[0], size);
    CHECK(base[1] == size - 1, "max %ld", base[1]);
    CHECK(base[2] == 3L * size, "exclusive read-modify-write: %ld, expected %d", base[2], 3 * size);
    CHECK(base[3] >= 0 && base[3] < size, "compare_and_swap left %ld", base[3]);
    MPI_Win_unlock(0, win);
  }
  MPI_Win_free(&win);
}

/* Post-start-complete-wait around a ring: each rank exposes to its left neighbour and accesses
 * its right one, twice. */
static void pscw(void) {
  int buf[2] = {-1, -1};
  MPI_Win win;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Group world, left_g, right_g;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Group_incl(world, 1, &left, &left_g);
  MPI_Group_incl(world, 1, &right, &right_g);
  for (int round = 0; round < 2; ++round) {
    MPI_Win_post(left_g, 0, win);
    MPI_Win_start(right_g, 0, win);
    int v = rank * 10 + round;
    MPI_Put(&v, 1, MPI_INT, right, round, 1, MPI_INT, win);
    MPI_Win_complete(win);
    if (round == 0) {
      MPI_Win_wait(win);
    } else {
      int flag = 0;
      while (!flag) MPI_Win_test(win, &flag);
    }
    CHECK(buf[round] == left * 10 + round, "pscw round %d: %d", round, buf[round]);
  }
  MPI_Group_free(&left_g);
  MPI_Group_free(&right_g);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
}

/* Shared memory: ranks of one node store straight into each other's parts. */
static void shared(void) {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int nr, ns;
  MPI_Comm_rank(node, &nr);
  MPI_Comm_size(node, &ns);
  int* mine;
  MPI_Win win;
  MPI_Win_allocate_shared(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, node, &mine, &win);
  MPI_Aint sz;
  int du;
  int* next;
  MPI_Win_shared_query(win, (nr + 1) % ns, &sz, &du, &next);
  CHECK(sz == 2 * (MPI_Aint)sizeof(int) && du == (int)sizeof(int), "shared_query %ld %d", sz, du);
  int* first;
  MPI_Win_shared_query(win, 0, &sz, &du, &first);
  CHECK(mine == first + 2 * nr, "the parts are not contiguous");
  MPI_Win_lock_all(0, win);
  next[0] = rank; /* a store into the next rank's part */
  MPI_Win_sync(win);
  MPI_Barrier(node);
  MPI_Win_sync(win);
  int from = (nr + ns - 1) % ns;
  int from_world;
  MPI_Group ng, wg;
  MPI_Comm_group(node, &ng);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_translate_ranks(ng, 1, &from, wg, &from_world);
  CHECK(mine[0] == from_world, "shared store: %d, expected %d", mine[0], from_world);
  MPI_Win_unlock_all(win);
  MPI_Group_free(&ng);
  MPI_Group_free(&wg);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
}

/* Dynamic window: each rank attaches a buffer, the addresses go round, rank r puts into r+1's,
 * then reads it back with a request-based get. */
static void dynamic(void) {
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  {
    MPI_Aint qs;
    int qd;
    void* qb;
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    CHECK(error_class(MPI_Win_shared_query(win, 0, &qs, &qd, &qb)) == MPI_ERR_RMA_FLAVOR,
          "shared_query of a dynamic window");
    MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL);
  }
  double buf[4] = {0, 0, 0, 0};
  MPI_Win_attach(win, buf, sizeof buf);
  MPI_Aint mine, addrs[64 * 16];
  MPI_Get_address(buf, &mine);
  MPI_Allgather(&mine, 1, MPI_AINT, addrs, 1, MPI_AINT, MPI_COMM_WORLD);
  int right = (rank + 1) % size;
  MPI_Win_lock_all(0, win);
  double v[2] = {rank + 0.5, rank + 0.25};
  MPI_Request q;
  MPI_Rput(v, 2, MPI_DOUBLE, right, addrs[right] + sizeof(double), 2, MPI_DOUBLE, win, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  MPI_Win_flush_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  double back[2] = {0, 0};
  MPI_Rget(back, 2, MPI_DOUBLE, right, addrs[right] + sizeof(double), 2, MPI_DOUBLE, win, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  CHECK(back[0] == rank + 0.5 && back[1] == rank + 0.25, "rget %g %g", back[0], back[1]);
  double one = 1, old = -1;
  MPI_Raccumulate(&one, 1, MPI_DOUBLE, right, addrs[right], 1, MPI_DOUBLE, MPI_SUM, win, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  MPI_Win_flush(right, win);
  MPI_Rget_accumulate(NULL, 0, MPI_DOUBLE, &old, 1, MPI_DOUBLE, right, addrs[right], 1, MPI_DOUBLE,
                      MPI_NO_OP, win, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  CHECK(old == 1, "rget_accumulate fetched %g", old);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  int left = (rank + size - 1) % size;
  CHECK(buf[1] == left + 0.5 && buf[2] == left + 0.25, "dynamic put: %g %g", buf[1], buf[2]);
  MPI_Win_detach(win, buf);
  MPI_Win_free(&win);
}

/* A window in folded memory (SIMMPI_SHARED_MALLOC): operations are timed and move no bytes into
 * it; the origin's own buffers still get what a get reads (meaningless, but written). */
static void folded(void) {
  const int n = 1 << 14;
  double* base = SIMMPI_SHARED_MALLOC(n * sizeof(double));
  double* mine = malloc(n * sizeof(double));
  CHECK(simmpi_is_shared(base), "SIMMPI_SHARED_MALLOC did not fold");
  for (int i = 0; i < n; ++i) mine[i] = i;
  MPI_Win win;
  MPI_Win_create(base, n * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int right = (rank + 1) % size;
  MPI_Win_fence(0, win);
  MPI_Put(mine, n, MPI_DOUBLE, right, 0, n, MPI_DOUBLE, win);
  MPI_Accumulate(mine, n, MPI_DOUBLE, right, 0, n, MPI_DOUBLE, MPI_SUM, win);
  MPI_Win_fence(0, win);
  double t0 = MPI_Wtime();
  MPI_Get(mine, n, MPI_DOUBLE, right, 0, n, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);
  CHECK(MPI_Wtime() > t0, "a get from folded memory took no simulated time");
  MPI_Win_free(&win);
  SIMMPI_SHARED_FREE(base);
  free(mine);
}

static int deleted = 0;
static int count_delete(MPI_Win w, int k, void* v, void* extra) {
  (void)w, (void)k, (void)extra;
  deleted += *(int*)v;
  return MPI_SUCCESS;
}
static int handled = 0;
static void count_error(MPI_Win* w, int* code, ...) {
  (void)w;
  handled = *code;
}

static int error_class(int code) {
  int cls;
  MPI_Error_class(code, &cls);
  return cls;
}

/* Attributes, names, info, group, error handlers, and the classes of bad input. */
static void objects(void) {
  static int token = 3;
  int* base;
  MPI_Win win;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "accumulate_ordering", "none");
  MPI_Win_allocate(16, 4, info, MPI_COMM_WORLD, &base, &win);
  MPI_Info_free(&info);
  void* v;
  int flag;
  MPI_Win_get_attr(win, MPI_WIN_BASE, &v, &flag);
  CHECK(flag && v == base, "MPI_WIN_BASE");
  MPI_Aint* sz;
  MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag);
  CHECK(flag && *sz == 16, "MPI_WIN_SIZE %ld", *sz);
  int* iv;
  MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &iv, &flag);
  CHECK(flag && *iv == 4, "MPI_WIN_DISP_UNIT %d", *iv);
  MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &iv, &flag);
  CHECK(flag && *iv == MPI_WIN_FLAVOR_ALLOCATE, "MPI_WIN_CREATE_FLAVOR %d", *iv);
  MPI_Win_get_attr(win, MPI_WIN_MODEL, &iv, &flag);
  CHECK(flag && *iv == MPI_WIN_UNIFIED, "MPI_WIN_MODEL %d", *iv);
  int key;
  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &key, NULL);
  MPI_Win_set_attr(win, key, &token);
  MPI_Win_get_attr(win, key, &iv, &flag);
  CHECK(flag && iv == &token, "user attribute");
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Win_set_name(win, "halo");
  MPI_Win_get_name(win, name, &len);
  CHECK(len == 4 && !strcmp(name, "halo"), "name %s", name);
  MPI_Info used;
  char value[64];
  MPI_Win_get_info(win, &used);
  MPI_Info_get(used, "accumulate_ordering", 63, value, &flag);
  CHECK(flag && !strcmp(value, "none"), "accumulate_ordering %s", value);
  MPI_Info_free(&used);
  MPI_Group g, wg;
  int cmp;
  MPI_Win_get_group(win, &g);
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  MPI_Group_compare(g, wg, &cmp);
  CHECK(cmp == MPI_IDENT, "window group compares %d", cmp);
  MPI_Group_free(&g);
  MPI_Group_free(&wg);

  /* Bad input, returned. */
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  int x = 1;
  CHECK(error_class(MPI_Put(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, win)) == MPI_ERR_RMA_SYNC,
        "put outside an epoch");
  CHECK(error_class(MPI_Win_unlock(0, win)) == MPI_ERR_RMA_SYNC, "unlock without lock");
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  CHECK(error_class(MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win)) == MPI_ERR_RMA_SYNC, "lock twice");
  CHECK(error_class(MPI_Put(&x, 1, MPI_INT, 0, 4, 1, MPI_INT, win)) == MPI_ERR_RMA_RANGE,
        "put past the end");
  CHECK(error_class(MPI_Put(&x, 1, MPI_INT, 0, -1, 1, MPI_INT, win)) == MPI_ERR_RMA_RANGE,
        "negative displacement");
  CHECK(error_class(MPI_Put(&x, 1, MPI_INT, 0, 0, 1, MPI_DOUBLE, win)) == MPI_ERR_TYPE,
        "type mismatch");
  CHECK(error_class(MPI_Accumulate(&x, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_NO_OP, win)) == MPI_ERR_OP,
        "MPI_NO_OP in an accumulate");
  CHECK(error_class(MPI_Put(&x, 1, MPI_INT, size, 0, 1, MPI_INT, win)) == MPI_ERR_RANK,
        "target rank");
  {
    /* MPI-4.1: a window of MPI_Win_allocate may be queried; only the caller's part is direct. */
    MPI_Aint qs;
    int qd;
    void* qb;
    CHECK(MPI_Win_shared_query(win, rank, &qs, &qd, &qb) == MPI_SUCCESS && qs == 16 && qd == 4 &&
              qb == base,
          "shared_query of the caller's own part: %ld %d", (long)qs, qd);
    if (size > 1) {
      MPI_Win_shared_query(win, (rank + 1) % size, &qs, &qd, &qb);
      CHECK(qs == 0 && qb == NULL && qd == 4, "shared_query of another rank's part: %ld", (long)qs);
    }
  }
  CHECK(error_class(MPI_Win_lock(99, 0, 0, win)) == MPI_ERR_LOCKTYPE, "lock type");
  MPI_Win_unlock(0, win);
  CHECK(error_class(MPI_Win_fence(12345, win)) == MPI_ERR_ASSERT, "fence assert");
  CHECK(error_class(MPI_Win_complete(win)) == MPI_ERR_RMA_SYNC, "complete without start");
  CHECK(error_class(MPI_Win_attach(win, &x, 4)) == MPI_ERR_RMA_FLAVOR, "attach to allocated");
  MPI_Errhandler eh, got;
  MPI_Win_create_errhandler(count_error, &eh);
  MPI_Win_set_errhandler(win, eh);
  MPI_Win_get_errhandler(win, &got);
  CHECK(got == eh, "get_errhandler");
  MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
  CHECK(handled == MPI_ERR_OTHER, "user handler saw %d", handled);
  MPI_Win_flush(0, win);
  CHECK(handled == MPI_ERR_RMA_SYNC, "flush outside a lock reached the handler with %d", handled);
  MPI_Errhandler_free(&eh);
  MPI_Win_free(&win);
  CHECK(deleted == 3, "delete callback ran %d", deleted);
  MPI_Win_free_keyval(&key);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  fence_put_get();
  fence_accumulate();
  passive();
  pscw();
  shared();
  dynamic();
  folded();
  objects();
  return finish("rma");
}
