/* SPDX-License-Identifier: Apache-2.0 */
/* Attributes on datatypes (MPI-3.1 6.7.4) and the Fortran 90 parameterized types (17.2.5):
 * set/get/delete, copy callbacks on MPI_Type_dup, delete callbacks on MPI_Type_free (in reverse
 * order of setting), a failing copy callback failing MPI_Type_dup, per-rank values; the f90 types
 * of given precision and range, their envelopes and MPI_ERR_ARG where no kind has them. */
#include <string.h>

#include "check.h"

static int rank;
static int deleted[8], deleted_count;

static int copy_plus_one(MPI_Datatype type, int keyval, void* extra, void* in, void* out,
                         int* flag) {
  (void)type;
  (void)keyval;
  (void)extra;
  *(void**)out = (char*)in + 1;
  *flag = 1;
  return MPI_SUCCESS;
}

static int copy_refuses(MPI_Datatype type, int keyval, void* extra, void* in, void* out,
                        int* flag) {
  (void)type;
  (void)keyval;
  (void)extra;
  (void)in;
  (void)out;
  *flag = 0;
  return MPI_ERR_OTHER;
}

static int note_delete(MPI_Datatype type, int keyval, void* value, void* extra) {
  (void)type;
  (void)keyval;
  (void)extra;
  if (deleted_count < 8) deleted[deleted_count++] = (int)(long)value;
  return MPI_SUCCESS;
}

static void attributes(void) {
  int k1, k2, k3, flag = -1;
  void* value = NULL;
  MPI_Type_create_keyval(copy_plus_one, note_delete, &k1, NULL);
  MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, note_delete, &k2, NULL);
  MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &k3, NULL);
  MPI_Datatype t, dup;
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_get_attr(t, k1, &value, &flag);
  CHECK(flag == 0, "an attribute before any was set");
  /* Values per rank: 100 * rank + k. */
  MPI_Type_set_attr(t, k1, (void*)(long)(100 * rank + 1));
  MPI_Type_set_attr(t, k2, (void*)(long)(100 * rank + 2));
  MPI_Type_set_attr(t, k3, (void*)(long)(100 * rank + 3));
  MPI_Type_get_attr(t, k2, &value, &flag);
  CHECK(flag == 1 && (long)value == 100 * rank + 2, "get k2: %d %ld", flag, (long)value);
  /* A predefined type takes attributes too. */
  MPI_Type_set_attr(MPI_DOUBLE, k3, (void*)(long)(100 * rank + 9));
  MPI_Type_get_attr(MPI_DOUBLE, k3, &value, &flag);
  CHECK(flag == 1 && (long)value == 100 * rank + 9, "MPI_DOUBLE's attribute %ld", (long)value);
  MPI_Type_delete_attr(MPI_DOUBLE, k3);
  MPI_Type_get_attr(MPI_DOUBLE, k3, &value, &flag);
  CHECK(flag == 0, "MPI_DOUBLE's attribute after delete");
  /* MPI_Type_dup: k1 copied plus one, k2 not copied (null copy), k3 copied as is. */
  MPI_Type_dup(t, &dup);
  MPI_Type_get_attr(dup, k1, &value, &flag);
  CHECK(flag == 1 && (long)value == 100 * rank + 2, "dup k1: %d %ld", flag, (long)value);
  MPI_Type_get_attr(dup, k2, &value, &flag);
  CHECK(flag == 0, "dup k2 was copied by MPI_TYPE_NULL_COPY_FN");
  MPI_Type_get_attr(dup, k3, &value, &flag);
  CHECK(flag == 1 && (long)value == 100 * rank + 3, "dup k3: %ld", (long)value);
  /* Replacing a value deletes the old one; deleting calls the callback. */
  deleted_count = 0;
  MPI_Type_set_attr(t, k1, (void*)(long)(100 * rank + 11));
  CHECK(deleted_count == 1 && deleted[0] == 100 * rank + 1, "replace deleted %d", deleted[0]);
  MPI_Type_delete_attr(t, k2);
  CHECK(deleted_count == 2 && deleted[1] == 100 * rank + 2, "delete_attr deleted %d", deleted[1]);
  /* MPI_Type_free deletes the rest, last set first: k2, then k1 (k3 has no delete callback). */
  MPI_Type_set_attr(t, k2, (void*)(long)(100 * rank + 12));
  deleted_count = 0;
  MPI_Type_free(&t);
  CHECK(deleted_count == 2 && deleted[0] == 100 * rank + 12 && deleted[1] == 100 * rank + 11,
        "free deleted %d: %d %d", deleted_count, deleted[0], deleted[1]);
  deleted_count = 0;
  MPI_Type_free(&dup);
  CHECK(deleted_count == 1 && deleted[0] == 100 * rank + 2, "dup's free deleted %d", deleted_count);
  /* A copy callback that fails fails MPI_Type_dup. */
  int k4;
  MPI_Type_create_keyval(copy_refuses, MPI_TYPE_NULL_DELETE_FN, &k4, NULL);
  MPI_Type_contiguous(3, MPI_INT, &t);
  MPI_Type_set_attr(t, k4, NULL);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  dup = MPI_INT;
  int err = MPI_Type_dup(t, &dup);
  CHECK(err == MPI_ERR_OTHER && dup == MPI_DATATYPE_NULL, "dup with a failing copy: %d", err);
  /* A freed keyval is MPI_ERR_KEYVAL for a new value. */
  MPI_Type_free_keyval(&k4);
  int k5 = k3;
  MPI_Type_free_keyval(&k3);
  err = MPI_Type_set_attr(t, k5, NULL);
  int cls = 0;
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_KEYVAL, "set_attr of a freed keyval: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Type_free(&t);
  MPI_Type_free_keyval(&k1);
  MPI_Type_free_keyval(&k2);
}

static void check_f90(MPI_Datatype t, int combiner, int p, int r, int bytes) {
  int ni, na, nd, c, ints[2] = {0, 0}, size = 0;
  MPI_Type_get_envelope(t, &ni, &na, &nd, &c);
  CHECK(c == combiner, "combiner %d, not %d", c, combiner);
  CHECK(ni == (combiner == MPI_COMBINER_F90_INTEGER ? 1 : 2) && na == 0 && nd == 0,
        "envelope %d %d %d", ni, na, nd);
  MPI_Type_get_contents(t, 2, 0, 0, ints, NULL, NULL);
  if (combiner == MPI_COMBINER_F90_INTEGER)
    CHECK(ints[0] == r, "contents r=%d", ints[0]);
  else
    CHECK(ints[0] == p && ints[1] == r, "contents p=%d r=%d", ints[0], ints[1]);
  MPI_Type_size(t, &size);
  CHECK(size == bytes, "f90 type of %d bytes, not %d", size, bytes);
}

static void f90_types(void) {
  MPI_Datatype t, again;
  MPI_Type_create_f90_real(6, MPI_UNDEFINED, &t);
  check_f90(t, MPI_COMBINER_F90_REAL, 6, MPI_UNDEFINED, 4);
  MPI_Type_create_f90_real(6, MPI_UNDEFINED, &again);
  CHECK(again == t, "the same (p, r) gave another handle");
  MPI_Type_create_f90_real(15, 300, &t);
  check_f90(t, MPI_COMBINER_F90_REAL, 15, 300, 8);
  MPI_Type_create_f90_real(MPI_UNDEFINED, 1000, &t);
  check_f90(t, MPI_COMBINER_F90_REAL, MPI_UNDEFINED, 1000, 16);
  MPI_Type_create_f90_complex(7, MPI_UNDEFINED, &t);
  check_f90(t, MPI_COMBINER_F90_COMPLEX, 7, MPI_UNDEFINED, 16);
  MPI_Type_create_f90_integer(9, &t);
  check_f90(t, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, 9, 4);
  MPI_Type_create_f90_integer(10, &t);
  check_f90(t, MPI_COMBINER_F90_INTEGER, MPI_UNDEFINED, 10, 8);
  /* Usable in communication: a sum of f90 reals. */
  MPI_Type_create_f90_real(15, MPI_UNDEFINED, &t);
  double x = rank + 0.5, sum = 0;
  MPI_Allreduce(&x, &sum, 1, t, MPI_SUM, MPI_COMM_WORLD);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(sum == size * (size - 1) / 2.0 + size * 0.5, "sum over an f90 real: %g", sum);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int cls = 0;
  MPI_Error_class(MPI_Type_create_f90_real(40, MPI_UNDEFINED, &t), &cls);
  CHECK(cls == MPI_ERR_ARG, "p=40: class %d", cls);
  MPI_Error_class(MPI_Type_create_f90_integer(40, &t), &cls);
  CHECK(cls == MPI_ERR_ARG, "integer r=40: class %d", cls);
  MPI_Error_class(MPI_Type_create_f90_real(MPI_UNDEFINED, MPI_UNDEFINED, &t), &cls);
  CHECK(cls == MPI_ERR_ARG, "both MPI_UNDEFINED: class %d", cls);
  MPI_Type_create_f90_real(6, MPI_UNDEFINED, &t);
  MPI_Error_class(MPI_Type_free(&t), &cls);
  CHECK(cls == MPI_ERR_TYPE, "freeing an f90 type: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  attributes();
  f90_types();
  return finish("type_attributes");
}
