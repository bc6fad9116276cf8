/* SPDX-License-Identifier: Apache-2.0 */
/* Attribute caching: keyvals with copy and delete callbacks (counted), MPI_COMM_DUP_FN and
 * MPI_COMM_NULL_COPY_FN on MPI_Comm_dup, replacement and deletion, freeing a keyval that is in
 * use, the MPI-1 names, the predefined attributes, and the deletion of MPI_COMM_SELF's
 * attributes by MPI_Finalize (reported after it). */
#include <limits.h>
#include <stdlib.h>

#include "check.h"

static int rank, size;
static int copies, deletes, last_deleted = -1, self_deleted;

/* Copies value v as v + 1000, so the copy is told from the original. */
static int copy_plus_1000(MPI_Comm old, int keyval, void* extra, void* in, void* out, int* flag) {
  (void)old, (void)keyval;
  ++copies;
  CHECK(*(int*)extra == 42, "extra_state reaches the copy callback");
  *(void**)out = (void*)((long)in + 1000);
  *flag = 1;
  return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)comm, (void)keyval, (void)extra;
  ++deletes;
  last_deleted = (int)(long)value;
  return MPI_SUCCESS;
}

static int on_self_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)keyval, (void)extra;
  CHECK(comm == MPI_COMM_SELF && (long)value == 7, "self attribute deleted with %ld", (long)value);
  ++self_deleted;
  return MPI_SUCCESS;
}

static void predefined(void) {
  int* v;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag);
  CHECK(flag && *v == INT_MAX, "MPI_TAG_UB = %d", flag ? *v : -1);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &v, &flag);
  CHECK(flag && *v == 1, "MPI_WTIME_IS_GLOBAL");
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &v, &flag);
  CHECK(flag && *v == size, "MPI_UNIVERSE_SIZE = %d", flag ? *v : -1);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_HOST, &v, &flag);
  CHECK(flag && *v == MPI_PROC_NULL, "MPI_HOST");
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_IO, &v, &flag);
  CHECK(flag && *v == MPI_ANY_SOURCE, "MPI_IO");
  MPI_Attr_get(MPI_COMM_WORLD, MPI_APPNUM, &v, &flag);
  CHECK(flag && *v == 0, "MPI_APPNUM");
  /* Predefined attributes are read-only. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int err = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, NULL);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  CHECK(err == MPI_ERR_KEYVAL, "setting MPI_TAG_UB returned %d", err);
}

static void copy_and_delete(void) {
  static int extra = 42;
  int kv_copy, kv_dup, kv_none, flag;
  void* v;
  MPI_Comm_create_keyval(copy_plus_1000, count_delete, &kv_copy, &extra);
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &kv_dup, NULL);
  MPI_Keyval_create(MPI_NULL_COPY_FN, count_delete, &kv_none, NULL);
  /* Handles are per process and made in the same order everywhere: equal on all ranks. */
  int mine[2] = {kv_copy, kv_none}, lo[2], hi[2];
  MPI_Allreduce(mine, lo, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(mine, hi, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(lo[0] == hi[0] && lo[1] == hi[1], "keyval handles differ across ranks");

  MPI_Comm a, b;
  MPI_Comm_dup(MPI_COMM_WORLD, &a);
  MPI_Comm_set_attr(a, kv_copy, (void*)(long)(rank + 1));
  MPI_Comm_set_attr(a, kv_dup, (void*)(long)(rank + 2));
  MPI_Attr_put(a, kv_none, (void*)(long)(rank + 3));
  MPI_Comm_dup(a, &b);
  CHECK(copies == 1, "%d copy callbacks ran, expected 1", copies);
  MPI_Comm_get_attr(b, kv_copy, &v, &flag);
  CHECK(flag && (long)v == rank + 1001, "copied attribute %ld", flag ? (long)v : -1L);
  MPI_Comm_get_attr(b, kv_dup, &v, &flag);
  CHECK(flag && (long)v == rank + 2, "MPI_COMM_DUP_FN attribute %ld", flag ? (long)v : -1L);
  MPI_Attr_get(b, kv_none, &v, &flag);
  CHECK(!flag, "MPI_NULL_COPY_FN attribute was copied");
  /* Replacing a value deletes the old one; deleting calls the callback once. */
  MPI_Comm_set_attr(a, kv_copy, (void*)(long)(rank + 5));
  CHECK(deletes == 1 && last_deleted == rank + 1, "replace: %d deletes, last %d", deletes,
        last_deleted);
  MPI_Comm_delete_attr(a, kv_copy);
  MPI_Comm_get_attr(a, kv_copy, &v, &flag);
  CHECK(!flag && deletes == 2 && last_deleted == rank + 5, "delete: flag %d, %d deletes", flag,
        deletes);
  /* A freed keyval lives on while an attribute uses it: freeing b still calls its callback. */
  MPI_Comm_free_keyval(&kv_copy);
  CHECK(kv_copy == MPI_KEYVAL_INVALID, "free_keyval leaves MPI_KEYVAL_INVALID");
  MPI_Comm_free(&b);
  CHECK(deletes == 3 && last_deleted == rank + 1001, "free(b): %d deletes, last %d", deletes,
        last_deleted);
  MPI_Comm_free(&a); /* kv_none's delete runs; kv_dup has none */
  CHECK(deletes == 4 && last_deleted == rank + 3, "free(a): %d deletes, last %d", deletes,
        last_deleted);
  MPI_Keyval_free(&kv_none);
  MPI_Comm_free_keyval(&kv_dup);
}

static void self_attribute(void) {
  int kv;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_self_delete, &kv, NULL);
  MPI_Comm_set_attr(MPI_COMM_SELF, kv, (void*)7L);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  predefined();
  copy_and_delete();
  self_attribute();
  int status = finish("attributes");
  if (rank == 0) printf("self attribute deleted by MPI_Finalize: %d\n", self_deleted);
  return status;
}
