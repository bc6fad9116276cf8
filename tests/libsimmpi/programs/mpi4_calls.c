// SPDX-License-Identifier: Apache-2.0
// MPI-4.1 calls and MPI-3.1 corners of issue 19, each checked against native MPICH 4.0.2 where it
// has them (mpicc mpi4_calls.c && mpiexec -n 4 ./a.out): MPI_Isendrecv(_replace) around a ring,
// MPI_Comm_idup(_with_info) overlapping each other and other traffic, MPI_Info_get_string,
// external32 packing (bytes and round trips), the MPI-4 error classes and MPI_ERRORS_ABORT as a
// handler, and an empty message with MPI_DATATYPE_NULL. Bad input is checked under
// MPI_ERRORS_RETURN with the class the standard names. Where MPICH differs from the standard
// (it gives pair types an external32 size of 0 and accepts any datarep), the check is simmpi's.
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static int fails = 0, rank, size;
#define CHECK(c, ...)                 \
  do {                                \
    if (!(c)) {                       \
      printf("rank %d: FAIL ", rank); \
      printf(__VA_ARGS__);            \
      printf("\n");                   \
      fails++;                        \
    }                                 \
  } while (0)

static int error_class(int err) {
  int cls;
  MPI_Error_class(err, &cls);
  return cls;
}

static void isendrecv_ring(void) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out[3] = {rank, 10 * rank, 100 * rank}, in[3] = {-1, -1, -1};
  MPI_Request req;
  MPI_Status st;
  MPI_Isendrecv(out, 3, MPI_INT, right, 7, in, 3, MPI_INT, left, 7, MPI_COMM_WORLD, &req);
  st.MPI_ERROR = 12345;
  MPI_Wait(&req, &st);
  int n = -1;
  MPI_Get_count(&st, MPI_INT, &n);
  CHECK(in[0] == left && in[1] == 10 * left && in[2] == 100 * left, "isendrecv got %d %d %d", in[0],
        in[1], in[2]);
  CHECK(req == MPI_REQUEST_NULL, "isendrecv request not freed");
#ifdef SIMMPI
  // MPICH 4.0.2's MPI_Isendrecv leaves the status empty, its MPI_Isendrecv_replace sends nothing
  // back, and it crashes on MPI_PROC_NULL: these follow the standard (MPI-4.1 3.10.2).
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 7 && n == 3 && st.MPI_ERROR == 12345,
        "isendrecv status source %d tag %d count %d error %d", st.MPI_SOURCE, st.MPI_TAG, n,
        st.MPI_ERROR);
  // replace, both directions at once, with a wildcard source
  double buf[2] = {rank + 0.5, -rank - 0.25};
  MPI_Isendrecv_replace(buf, 2, MPI_DOUBLE, left, 3, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &req);
  int flag = 0;
  while (!flag) MPI_Test(&req, &flag, &st);
  CHECK(buf[0] == right + 0.5 && buf[1] == -right - 0.25 && st.MPI_SOURCE == right,
        "isendrecv_replace got %g %g from %d", buf[0], buf[1], st.MPI_SOURCE);
  // MPI_PROC_NULL on both sides completes with the null status
  MPI_Isendrecv(out, 1, MPI_INT, MPI_PROC_NULL, 1, in, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD,
                &req);
  MPI_Wait(&req, &st);
  MPI_Get_count(&st, MPI_INT, &n);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && n == 0, "proc_null status %d count %d", st.MPI_SOURCE, n);
#endif
  // truncation is the receive's error, reported by the wait
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int big[4] = {1, 2, 3, 4}, small[2];
  int err;
#ifdef SIMMPI  // MPICH 4.0.2 reports no error
  MPI_Isendrecv(big, 4, MPI_INT, right, 9, small, 2, MPI_INT, left, 9, MPI_COMM_WORLD, &req);
  err = MPI_Wait(&req, MPI_STATUS_IGNORE);
  CHECK(error_class(err) == MPI_ERR_TRUNCATE, "truncated isendrecv returned class %d",
        error_class(err));
#endif
  err = MPI_Isendrecv(out, 1, MPI_INT, size, 1, in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &req);
  CHECK(error_class(err) == MPI_ERR_RANK, "dest=size returned class %d", error_class(err));
  err = MPI_Isendrecv(out, -1, MPI_INT, right, 1, in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &req);
  CHECK(error_class(err) == MPI_ERR_COUNT, "count=-1 returned class %d", error_class(err));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static int copies = 0;
static int copy_fn(MPI_Comm c, int k, void* extra, void* in, void* out, int* flag) {
  copies++;
  *(void**)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}

/* Two communicators of two ranks each (this rank with its right neighbor, and with its left
 * one), duplicated without blocking in opposite orders by their two members (MPICH's
 * comm/comm_idup_overlap): with MPI_Comm_dup this deadlocks; both idups must end. */
static void idup_crossed(void) {
  if (size < 2) return;
  MPI_Comm with_right = MPI_COMM_NULL, with_left = MPI_COMM_NULL, other, dups[2];
  for (int i = 0; i < size; ++i) {
    if (rank == i) {
      MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &with_right);
    } else if (rank == (i + 1) % size) {
      MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &with_left);
    } else {
      MPI_Comm_split(MPI_COMM_WORLD, 1, 0, &other);
      MPI_Comm_free(&other);
    }
  }
  MPI_Request reqs[2];
  MPI_Comm_idup(with_right, &dups[0], &reqs[0]);
  MPI_Comm_idup(with_left, &dups[1], &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  int sums[2], want[2] = {rank + (rank + 1) % size, rank + (rank + size - 1) % size};
  for (int k = 0; k < 2; ++k) /* nonblocking: the members order the two differently */
    MPI_Iallreduce(&rank, &sums[k], 1, MPI_INT, MPI_SUM, dups[k], &reqs[k]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  for (int k = 0; k < 2; ++k) {
    CHECK(sums[k] == want[k], "crossed idup %d: sum %d, expected %d", k, sums[k], want[k]);
    MPI_Comm_free(&dups[k]);
  }
  MPI_Comm_free(&with_right);
  MPI_Comm_free(&with_left);
}

static void idup(void) {
  int key, v = 42, *got, flag;
  MPI_Comm_create_keyval(copy_fn, MPI_COMM_NULL_DELETE_FN, &key, NULL);
  MPI_Comm_set_attr(MPI_COMM_WORLD, key, &v);
  MPI_Comm a = MPI_COMM_NULL, b = MPI_COMM_NULL, c = MPI_COMM_NULL;
  MPI_Request reqs[4];
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
  // two duplications and a nonblocking barrier in flight at once, a blocking dup of another
  // communicator while they run
  MPI_Comm_idup(MPI_COMM_WORLD, &a, &reqs[0]);
  MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &b, &reqs[1]);
  MPI_Ibarrier(MPI_COMM_WORLD, &reqs[2]);
  MPI_Comm_dup(MPI_COMM_SELF, &c);
  int token = rank, sum = 0;
  MPI_Iallreduce(&token, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[3]);
  MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
  MPI_Info_free(&info);
  CHECK(sum == size * (size - 1) / 2, "iallreduce beside idup gave %d", sum);
  CHECK(a != MPI_COMM_NULL && b != MPI_COMM_NULL && a != b, "idup made %x and %x", a, b);
  int r1, r2, cmp;
  MPI_Comm_compare(a, MPI_COMM_WORLD, &cmp);
  CHECK(cmp == MPI_CONGRUENT, "idup's communicator compares %d", cmp);
  int s1 = 0, s2 = 0;
  MPI_Allreduce(&rank, &s1, 1, MPI_INT, MPI_SUM, a);
  MPI_Allreduce(&rank, &s2, 1, MPI_INT, MPI_SUM, b);
  MPI_Comm_rank(a, &r1);
  MPI_Comm_rank(b, &r2);
  CHECK(s1 == sum && s2 == sum && r1 == rank && r2 == rank, "sums %d %d ranks %d %d", s1, s2, r1,
        r2);
  // messages on the two new communicators and on the world never mix
  int x = -1, y = -1;
  MPI_Request rr[4];
  MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, a, &rr[0]);
  MPI_Irecv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 0, b, &rr[1]);
  int ax = 1000 + rank, bx = 2000 + rank;
  MPI_Isend(&bx, 1, MPI_INT, (rank + 1) % size, 0, b, &rr[2]);
  MPI_Isend(&ax, 1, MPI_INT, (rank + 1) % size, 0, a, &rr[3]);
  MPI_Waitall(4, rr, MPI_STATUSES_IGNORE);
  int left = (rank + size - 1) % size;
  CHECK(x == 1000 + left && y == 2000 + left, "messages on the dups: %d %d", x, y);
  MPI_Comm_get_attr(a, key, &got, &flag);
  CHECK(flag && got == &v && copies == 2, "attribute copied %d times, flag %d", copies, flag);
  MPI_Comm_free(&a);
  MPI_Comm_free(&b);
  MPI_Comm_free(&c);
  MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
  MPI_Comm_free_keyval(&key);
  // bad input
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int err = MPI_Comm_idup(MPI_COMM_NULL, &a, &reqs[0]);
  CHECK(error_class(err) == MPI_ERR_COMM, "idup of MPI_COMM_NULL returned class %d",
        error_class(err));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void info_string(void) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "color", "turquoise");
  char value[32];
  int buflen = 0, flag = -1;
  MPI_Info_get_string(info, "color", &buflen, value, &flag);
  CHECK(flag == 1 && buflen == 10, "length query: flag %d buflen %d", flag, buflen);
  buflen = 5;
  memset(value, 'x', sizeof value);
  MPI_Info_get_string(info, "color", &buflen, value, &flag);
  CHECK(flag == 1 && buflen == 10 && strcmp(value, "turq") == 0, "cut: buflen %d value %s", buflen,
        value);
  buflen = 32;
  MPI_Info_get_string(info, "color", &buflen, value, &flag);
  CHECK(flag == 1 && buflen == 10 && strcmp(value, "turquoise") == 0, "whole: %d %s", buflen,
        value);
  buflen = 32;
  MPI_Info_get_string(info, "shape", &buflen, value, &flag);
  CHECK(flag == 0 && buflen == 32, "missing key: flag %d buflen %d", flag, buflen);
  MPI_Info_free(&info);
}

static void expect_bytes(const unsigned char* got, const char* hex, int n, const char* what) {
  char text[128] = "";
  for (int i = 0; i < n; i++) sprintf(text + 2 * i, "%02x", got[i]);
  CHECK(strcmp(text, hex) == 0, "%s packed as %s, expected %s", what, text, hex);
}

static void external32(void) {
  unsigned char out[256];
  MPI_Aint pos = 0, sz = -1;
  int ints[2] = {0x01020304, -2};
  MPI_Pack_external("external32", ints, 2, MPI_INT, out, sizeof out, &pos);
  CHECK(pos == 8, "2 ints: position %ld", (long)pos);
  expect_bytes(out, "01020304fffffffe", 8, "2 ints");
  long l = -3;
  pos = 0;
  MPI_Pack_external("external32", &l, 1, MPI_LONG, out, sizeof out, &pos);
  CHECK(pos == 4, "long: position %ld", (long)pos);
  expect_bytes(out, "fffffffd", 4, "long -3");
  double d[2] = {1.5, -2.0};
  pos = 0;
  MPI_Pack_external("external32", d, 2, MPI_DOUBLE, out, sizeof out, &pos);
  expect_bytes(out, "3ff8000000000000c000000000000000", 16, "doubles");
  long double ld = 1.5L;
  pos = 0;
  MPI_Pack_external("external32", &ld, 1, MPI_LONG_DOUBLE, out, sizeof out, &pos);
  CHECK(pos == 16, "long double: position %ld", (long)pos);
#ifdef SIMMPI
  // IEEE quadruple precision (MPICH copies the x87 bytes)
  expect_bytes(out, "3fff8000000000000000000000000000", 16, "long double 1.5");
  long double back = 0;
  MPI_Aint in = 0;
  MPI_Unpack_external("external32", out, 16, &in, &back, 1, MPI_LONG_DOUBLE);
  CHECK(back == 1.5L && in == 16, "long double back: %Lg", back);
#endif
  MPI_Pack_external_size("external32", 3, MPI_WCHAR, &sz);
  CHECK(sz == 6, "3 wchar: %ld bytes", (long)sz);
  MPI_Pack_external_size("external32", 1, MPI_C_DOUBLE_COMPLEX, &sz);
  CHECK(sz == 16, "double complex: %ld bytes", (long)sz);
#ifdef SIMMPI  // MPICH 4.0.2 dies of an illegal instruction in MPI_Pack_external_size here
  // a struct {char; long; double} and a vector of it, round trip
  struct S {
    char c;
    long l;
    double d;
  } s[3] = {{'a', 1, 0.5}, {'b', -2, 1.25}, {'c', 3000000, -8}}, r[3];
  int bl[3] = {1, 1, 1};
  MPI_Aint disp[3] = {offsetof(struct S, c), offsetof(struct S, l), offsetof(struct S, d)};
  MPI_Datatype types[3] = {MPI_CHAR, MPI_LONG, MPI_DOUBLE}, st, vec;
  MPI_Type_create_struct(3, bl, disp, types, &st);
  MPI_Type_commit(&st);
  MPI_Type_vector(1, 3, 3, st, &vec);
  MPI_Type_commit(&vec);
  MPI_Pack_external_size("external32", 1, vec, &sz);
  CHECK(sz == 3 * 13, "vector of 3 structs: %ld bytes", (long)sz);
  pos = 0;
  MPI_Pack_external("external32", s, 1, vec, out, sizeof out, &pos);
  expect_bytes(out + 13, "62fffffffe3ff4000000000000", 13, "second struct");
  memset(r, 0, sizeof r);
  MPI_Aint in2 = 0;
  MPI_Unpack_external("external32", out, pos, &in2, r, 1, vec);
  int same = in2 == pos;
  for (int i = 0; i < 3; i++) same &= r[i].c == s[i].c && r[i].l == s[i].l && r[i].d == s[i].d;
  CHECK(same, "struct round trip: %c %ld %g / %c %ld %g", r[1].c, r[1].l, r[1].d, r[2].c, r[2].l,
        r[2].d);
  MPI_Type_free(&vec);
  MPI_Type_free(&st);
  MPI_Pack_external_size("external32", 2, MPI_DOUBLE_INT, &sz);
  CHECK(sz == 24, "2 MPI_DOUBLE_INT: %ld bytes (the standard: 12 each)", (long)sz);
#endif
  // bad input
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int err;
#ifdef SIMMPI  // MPICH 4.0.2 does not check the buffer sizes
  pos = 0;
  err = MPI_Pack_external("external32", ints, 2, MPI_INT, out, 6, &pos);
  CHECK(error_class(err) == MPI_ERR_ARG, "packing 8 bytes into 6 returned class %d",
        error_class(err));
  MPI_Aint at = 0;
  err = MPI_Unpack_external("external32", out, 6, &at, ints, 2, MPI_INT);
  CHECK(error_class(err) == MPI_ERR_TRUNCATE, "unpacking 8 bytes from 6 returned class %d",
        error_class(err));
#endif
  err = MPI_Pack_external_size("external32", -1, MPI_INT, &sz);
  CHECK(error_class(err) == MPI_ERR_COUNT, "count -1 returned class %d", error_class(err));
  err = MPI_Pack_external_size("external32", 1, MPI_DATATYPE_NULL, &sz);
  CHECK(error_class(err) == MPI_ERR_TYPE, "MPI_DATATYPE_NULL returned class %d", error_class(err));
#ifdef SIMMPI
  err = MPI_Pack_external_size("native", 1, MPI_INT, &sz);
  CHECK(error_class(err) == MPI_ERR_ARG, "datarep native returned class %d", error_class(err));
  long huge = 1L << 40;
  pos = 0;
  err = MPI_Pack_external("external32", &huge, 1, MPI_LONG, out, sizeof out, &pos);
  CHECK(error_class(err) == MPI_ERR_CONVERSION, "2^40 as a 4-byte long returned class %d",
        error_class(err));
#endif
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void errors(void) {
  int classes[] = {MPI_ERR_SESSION, MPI_ERR_PROC_ABORTED, MPI_ERR_VALUE_TOO_LARGE,
#ifdef MPI_ERR_ERRHANDLER
                   MPI_ERR_ERRHANDLER
#else
                   MPI_ERR_VALUE_TOO_LARGE
#endif
  };
  for (int i = 0; i < 4; i++) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(classes[i], text, &len);
    CHECK(error_class(classes[i]) == classes[i] && len > 0 && classes[i] <= MPI_ERR_LASTCODE,
          "class %d: class %d, string '%s'", classes[i], error_class(classes[i]), text);
  }
#ifdef SIMMPI  // MPICH 4.0.2 fails an assertion setting MPI_ERRORS_ABORT
  MPI_Errhandler h = MPI_ERRHANDLER_NULL;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ABORT);
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &h);
  CHECK(h == MPI_ERRORS_ABORT, "MPI_ERRORS_ABORT set, %x got", h);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
#endif
}

// MPICH accepts an empty message of MPI_DATATYPE_NULL, both ways; with count 1 it is an error.
static void empty_null_type(void) {
  MPI_Status st;
  int n = -1, right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Sendrecv(NULL, 0, MPI_DATATYPE_NULL, right, 5, NULL, 0, MPI_DATATYPE_NULL, left, 5,
               MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_INT, &n);
  CHECK(n == 0 && st.MPI_SOURCE == left, "empty message: count %d from %d", n, st.MPI_SOURCE);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int err = MPI_Recv(NULL, 1, MPI_DATATYPE_NULL, left, 5, MPI_COMM_WORLD, &st);
  CHECK(error_class(err) == MPI_ERR_TYPE, "count 1 of MPI_DATATYPE_NULL returned class %d",
        error_class(err));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

/* An MPI_Comm_idup of a communicator of one member while one of MPI_COMM_WORLD is in progress
 * (each rank of an even split alone at 2 ranks): the lone member has no one to agree with and
 * must not wait for its other agreement's turn (it spun forever, no simulated time passing). */
static void idup_alone(void) {
  MPI_Comm alone, dups[2];
  MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &alone);
  MPI_Request reqs[2];
  MPI_Comm_idup(MPI_COMM_WORLD, &dups[0], &reqs[0]);
  MPI_Comm_idup(alone, &dups[1], &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  int sums[2];
  MPI_Allreduce(&rank, &sums[0], 1, MPI_INT, MPI_SUM, dups[0]);
  MPI_Allreduce(&rank, &sums[1], 1, MPI_INT, MPI_SUM, dups[1]);
  CHECK(sums[0] == size * (size - 1) / 2 && sums[1] == rank, "idup beside a lone idup: sums %d %d",
        sums[0], sums[1]);
  MPI_Comm_free(&dups[0]);
  MPI_Comm_free(&dups[1]);
  MPI_Comm_free(&alone);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  isendrecv_ring();
  idup();
  idup_crossed();
  idup_alone();
  info_string();
  external32();
  errors();
  empty_null_type();
  int all = 0;
  MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "mpi4_calls: %d FAILURES\n" : "mpi4_calls: OK\n", all);
  MPI_Finalize();
  return all != 0;
}
