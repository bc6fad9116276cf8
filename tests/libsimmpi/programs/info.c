/* SPDX-License-Identifier: Apache-2.0 */
/* MPI_Info objects (MPI-3.1 9) and MPI_INFO_ENV, the small environment functions, and C/Fortran
 * handle and status conversion (17.2.4, 17.2.5). Errors are checked under MPI_ERRORS_RETURN. */
#include <string.h>

#include "check.h"

static void keys_and_values(void) {
  MPI_Info info, copy;
  char value[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];
  int flag = -1, len = -1, nkeys = -1;
  MPI_Info_create(&info);
  MPI_Info_get_nkeys(info, &nkeys);
  CHECK(nkeys == 0, "a new info has %d keys", nkeys);
  MPI_Info_set(info, "cb_nodes", "4");
  MPI_Info_set(info, "striping_unit", "1048576");
  MPI_Info_set(info, "cb_nodes", "8"); /* replaces the value, keeps the key's place */
  MPI_Info_get_nkeys(info, &nkeys);
  CHECK(nkeys == 2, "2 keys expected, got %d", nkeys);
  MPI_Info_get_nthkey(info, 0, key);
  CHECK(!strcmp(key, "cb_nodes"), "key 0 is \"%s\", expected \"cb_nodes\"", key);
  MPI_Info_get_nthkey(info, 1, key);
  CHECK(!strcmp(key, "striping_unit"), "key 1 is \"%s\"", key);
  MPI_Info_get(info, "cb_nodes", MPI_MAX_INFO_VAL, value, &flag);
  CHECK(flag == 1 && !strcmp(value, "8"), "cb_nodes = \"%s\" (flag %d), expected \"8\"", value,
        flag);
  MPI_Info_get(info, "striping_unit", 3, value, &flag); /* 3 characters fit */
  CHECK(flag == 1 && !strcmp(value, "104"), "truncated value \"%s\", expected \"104\"", value);
  MPI_Info_get_valuelen(info, "striping_unit", &len, &flag);
  CHECK(flag == 1 && len == 7, "valuelen %d, expected 7", len);
  MPI_Info_get(info, "absent", MPI_MAX_INFO_VAL, value, &flag);
  CHECK(flag == 0, "an absent key must give flag 0");
  MPI_Info_dup(info, &copy);
  MPI_Info_delete(info, "cb_nodes");
  MPI_Info_get_nkeys(info, &nkeys);
  CHECK(nkeys == 1, "after delete: %d keys, expected 1", nkeys);
  MPI_Info_get_nkeys(copy, &nkeys);
  CHECK(nkeys == 2, "the duplicate keeps 2 keys, has %d", nkeys);
  MPI_Info_get(copy, "cb_nodes", MPI_MAX_INFO_VAL, value, &flag);
  CHECK(flag == 1 && !strcmp(value, "8"), "duplicate's cb_nodes = \"%s\"", value);
  MPI_Info_free(&info);
  MPI_Info_free(&copy);
  CHECK(info == MPI_INFO_NULL && copy == MPI_INFO_NULL, "freed infos must be MPI_INFO_NULL");
}

static void environment(int size) {
  char value[MPI_MAX_INFO_VAL + 1];
  int flag = 0;
  MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, value, &flag);
  char expected[32];
  snprintf(expected, sizeof expected, "%d", size);
  CHECK(flag && !strcmp(value, expected), "MPI_INFO_ENV maxprocs = \"%s\", expected \"%s\"", value,
        expected);
  MPI_Info_get(MPI_INFO_ENV, "thread_level", MPI_MAX_INFO_VAL, value, &flag);
  CHECK(flag && !strcmp(value, "MPI_THREAD_SINGLE"), "thread_level = \"%s\"", value);
  MPI_Info dup;
  int nkeys = 0, dup_keys = 0;
  MPI_Info_get_nkeys(MPI_INFO_ENV, &nkeys);
  MPI_Info_dup(MPI_INFO_ENV, &dup);
  MPI_Info_get_nkeys(dup, &dup_keys);
  CHECK(nkeys >= 3 && dup_keys == nkeys, "MPI_INFO_ENV has %d keys, its copy %d", nkeys, dup_keys);
  MPI_Info_free(&dup);
  MPI_Info used;
  MPI_Comm_get_info(MPI_COMM_WORLD, &used);
  MPI_Info_get_nkeys(used, &nkeys);
  CHECK(nkeys == 0, "MPI_Comm_get_info: simmpi uses no hints, got %d keys", nkeys);
  MPI_Info_free(&used);
}

static void errors(void) {
  MPI_Info info;
  char long_key[MPI_MAX_INFO_KEY + 2];
  memset(long_key, 'k', sizeof long_key - 1);
  long_key[sizeof long_key - 1] = '\0';
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Info_create(&info);
  int err = MPI_Info_delete(info, "absent");
  CHECK(err == MPI_ERR_INFO_NOKEY, "deleting an absent key: %d, expected MPI_ERR_INFO_NOKEY", err);
  err = MPI_Info_set(info, long_key, "v");
  CHECK(err == MPI_ERR_INFO_KEY, "a key of %d characters: %d, expected MPI_ERR_INFO_KEY",
        MPI_MAX_INFO_KEY + 1, err);
  char key[MPI_MAX_INFO_KEY + 1];
  err = MPI_Info_get_nthkey(info, 0, key);
  CHECK(err == MPI_ERR_ARG, "key 0 of an empty info: %d, expected MPI_ERR_ARG", err);
  MPI_Info env = MPI_INFO_ENV;
  err = MPI_Info_free(&env);
  CHECK(err == MPI_ERR_INFO, "freeing MPI_INFO_ENV: %d, expected MPI_ERR_INFO", err);
  err = MPI_Info_set(MPI_INFO_ENV, "k", "v");
  CHECK(err == MPI_ERR_INFO, "changing MPI_INFO_ENV: %d, expected MPI_ERR_INFO", err);
  MPI_Info_free(&info);
  err = MPI_Info_free(&info);
  CHECK(err == MPI_ERR_INFO, "freeing MPI_INFO_NULL: %d, expected MPI_ERR_INFO", err);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void conversions_and_extras(int rank) {
  MPI_Comm back = MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD));
  CHECK(back == MPI_COMM_WORLD, "MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) = 0x%x", back);
  CHECK(MPI_Type_f2c(MPI_Type_c2f(MPI_DOUBLE)) == MPI_DOUBLE, "type round trip");
  CHECK(MPI_Op_f2c(MPI_Op_c2f(MPI_SUM)) == MPI_SUM, "op round trip");
  MPI_Status st = {rank, 42, MPI_SUCCESS, 0, 12}, back_st;
  MPI_Fint f[sizeof(MPI_Status) / sizeof(MPI_Fint)];
  MPI_Status_c2f(&st, f);
  MPI_Status_f2c(f, &back_st);
  int count = -1;
  MPI_Get_count(&back_st, MPI_INT, &count);
  CHECK(back_st.MPI_SOURCE == rank && back_st.MPI_TAG == 42 && count == 3,
        "status round trip: source %d tag %d count %d, expected %d 42 3", back_st.MPI_SOURCE,
        back_st.MPI_TAG, count, rank);
  MPI_Datatype t = MPI_DATATYPE_NULL;
  MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t);
  CHECK(t == MPI_REAL8, "MPI_Type_match_size(REAL, 8) = 0x%x, expected MPI_REAL8", t);
  MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &t);
  CHECK(t == MPI_INTEGER4, "MPI_Type_match_size(INTEGER, 4) = 0x%x, expected MPI_INTEGER4", t);
  double* mem = NULL;
  MPI_Alloc_mem(10 * sizeof(double), MPI_INFO_NULL, &mem);
  CHECK(mem != NULL, "MPI_Alloc_mem gave NULL");
  for (int i = 0; i < 10; ++i) mem[i] = i;
  CHECK(mem[9] == 9.0, "allocated memory is usable");
  MPI_Free_mem(mem);
  MPI_Comm parent = MPI_COMM_WORLD;
  MPI_Comm_get_parent(&parent);
  CHECK(parent == MPI_COMM_NULL, "MPI_Comm_get_parent: 0x%x, expected MPI_COMM_NULL", parent);
  CHECK(MPI_Pcontrol(1) == MPI_SUCCESS, "MPI_Pcontrol");
}

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  keys_and_values();
  environment(size);
  errors();
  conversions_and_extras(rank);
  return finish("info");
}
