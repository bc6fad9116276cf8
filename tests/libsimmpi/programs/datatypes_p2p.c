/* SPDX-License-Identifier: Apache-2.0 */
/* Derived datatypes in point-to-point messages, around a ring (one rank sends to itself): the
 * sender's and the receiver's layouts differ, messages are eager and rendezvous, short and
 * truncated, and MPI_BOTTOM reaches privatized globals of a rank that is not running. Every
 * expected value is a closed form of the sender's rank. */
#include <stddef.h>
#include <string.h>

#include "check.h"

static int rank, size, right, left;

/* Sends `count` of `st` from sbuf to the right and receives into rbuf from the left. */
static void ring(const void* sbuf, int scount, MPI_Datatype st, void* rbuf, int rcount,
                 MPI_Datatype rt, MPI_Status* status) {
  MPI_Request r;
  MPI_Irecv(rbuf, rcount, rt, left, 0, MPI_COMM_WORLD, &r);
  MPI_Send(sbuf, scount, st, right, 0, MPI_COMM_WORLD);
  MPI_Wait(&r, status);
}

/* A column of an 8x8 matrix goes out as a vector and comes back into a column. */
static void columns(void) {
  double m[8][8], col[8], back[8][8];
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) m[i][j] = rank * 100 + i * 8 + j, back[i][j] = 0;
  MPI_Datatype column;
  MPI_Type_vector(8, 1, 8, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  ring(&m[0][3], 1, column, col, 8, MPI_DOUBLE, MPI_STATUS_IGNORE);
  for (int i = 0; i < 8; ++i) CHECK(col[i] == left * 100 + i * 8 + 3, "column[%d]=%g", i, col[i]);
  ring(col, 8, MPI_DOUBLE, &back[0][5], 1, column, MPI_STATUS_IGNORE);
  int left2 = (left + size - 1) % size, ok = 1;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) ok &= back[i][j] == (j == 5 ? left2 * 100 + i * 8 + 3 : 0);
  CHECK(ok, "column received into column 5 of a zero matrix");
  MPI_Type_free(&column);
}

struct Mixed {
  int a;
  double b;
  char c;
};
struct Other { /* the same signature (int, double, char), laid out differently */
  char c;
  double b;
  int a;
};

static MPI_Datatype struct_type(MPI_Aint da, MPI_Aint db, MPI_Aint dc, MPI_Aint extent) {
  int bl[3] = {1, 1, 1};
  MPI_Aint dp[3] = {da, db, dc};
  MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR}, t, r;
  MPI_Type_create_struct(3, bl, dp, ty, &t);
  MPI_Type_create_resized(t, 0, extent, &r);
  MPI_Type_free(&t);
  MPI_Type_commit(&r);
  return r;
}

static void structs(void) {
  MPI_Datatype mixed = struct_type(offsetof(struct Mixed, a), offsetof(struct Mixed, b),
                                   offsetof(struct Mixed, c), sizeof(struct Mixed));
  MPI_Datatype other = struct_type(offsetof(struct Other, a), offsetof(struct Other, b),
                                   offsetof(struct Other, c), sizeof(struct Other));
  struct Mixed out[3];
  struct Other in[3];
  for (int i = 0; i < 3; ++i) out[i] = (struct Mixed){rank + i, rank * 0.5 + i, (char)('a' + i)};
  MPI_Status st;
  ring(out, 3, mixed, in, 3, other, &st);
  int n;
  MPI_Get_count(&st, other, &n);
  CHECK(n == 3, "3 structs received (count %d)", n);
  MPI_Get_elements(&st, other, &n);
  CHECK(n == 9, "9 basic elements received (%d)", n);
  for (int i = 0; i < 3; ++i)
    CHECK(in[i].a == left + i && in[i].b == left * 0.5 + i && in[i].c == 'a' + i,
          "struct %d: %d %g %c", i, in[i].a, in[i].b, in[i].c);
  /* Three structs as one element: 17 bytes are a whole struct (3 elements) and an int. */
  MPI_Datatype three;
  MPI_Type_contiguous(3, other, &three);
  MPI_Type_commit(&three);
  memset(in, 0, sizeof in);
  ring(out, 3, mixed, in, 1, three, &st);
  CHECK(in[2].a == left + 2 && in[2].c == 'c', "3 structs into contiguous(3, struct)");
  char raw[17] = {0};
  ring(raw, 17, MPI_BYTE, in, 1, three, &st);
  MPI_Get_elements(&st, three, &n);
  CHECK(n == 4, "17 bytes of 3 structs are 4 basic elements (%d)", n);
  MPI_Type_free(&three);
  MPI_Type_free(&mixed);
  MPI_Type_free(&other);
}

/* 160000 bytes: beyond the eager threshold, so the payload is copied at delivery time. */
static double big[40000], bigin[20000];

static void rendezvous(void) {
  MPI_Datatype every_other;
  MPI_Type_vector(20000, 1, 2, MPI_DOUBLE, &every_other);
  MPI_Type_commit(&every_other);
  for (int i = 0; i < 40000; ++i) big[i] = rank * 1e5 + i;
  ring(big, 1, every_other, bigin, 20000, MPI_DOUBLE, MPI_STATUS_IGNORE);
  int ok = 1;
  for (int i = 0; i < 20000; ++i) ok &= bigin[i] == left * 1e5 + 2 * i;
  CHECK(ok, "every other double of a rendezvous message");
  MPI_Type_free(&every_other);
}

/* Short messages fill part of the last element; long ones are truncated. */
static void partial(void) {
  MPI_Datatype two, spread;
  MPI_Type_contiguous(2, MPI_INT, &two);
  MPI_Type_vector(3, 1, 2, MPI_INT, &spread);
  MPI_Type_commit(&two);
  MPI_Type_commit(&spread);
  int five[5], six[6], got[6], n;
  for (int i = 0; i < 6; ++i) six[i] = rank * 10 + i, got[i] = -1;
  memcpy(five, six, sizeof five);
  MPI_Status st;
  ring(five, 5, MPI_INT, got, 3, two, &st);
  MPI_Get_count(&st, two, &n);
  CHECK(n == MPI_UNDEFINED, "count of 5 ints in pairs is MPI_UNDEFINED (%d)", n);
  MPI_Get_elements(&st, two, &n);
  CHECK(n == 5, "5 elements in 2.5 pairs (%d)", n);
  CHECK(got[4] == left * 10 + 4 && got[5] == -1, "the half pair %d %d", got[4], got[5]);
  for (int i = 0; i < 6; ++i) got[i] = -1;
  ring(five, 2, MPI_INT, got, 1, spread, &st);
  MPI_Get_elements(&st, spread, &n);
  CHECK(n == 2 && got[0] == left * 10 && got[1] == -1 && got[2] == left * 10 + 1 && got[4] == -1,
        "2 ints into a vector of 3: %d elements, %d %d %d %d", n, got[0], got[1], got[2], got[4]);
  for (int i = 0; i < 6; ++i) got[i] = -1;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Request r;
  MPI_Irecv(got, 2, two, left, 1, MPI_COMM_WORLD, &r);
  MPI_Send(six, 6, MPI_INT, right, 1, MPI_COMM_WORLD);
  CHECK(MPI_Wait(&r, &st) == MPI_ERR_TRUNCATE, "6 ints into 2 pairs are truncated");
  CHECK(got[3] == left * 10 + 3 && got[4] == -1, "the first 4 ints arrived (%d %d)", got[3],
        got[4]);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Type_free(&two);
  MPI_Type_free(&spread);
}

/* Element counts of partial data of a struct { int; double }: 12 bytes are both members, 8 end
 * inside the double. */
static void element_counts(void) {
  int bl[2] = {1, 1};
  MPI_Aint dp[2] = {0, 8};
  MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE}, t;
  MPI_Type_create_struct(2, bl, dp, ty, &t);
  MPI_Type_commit(&t);
  char bytes[16], in[32];
  memset(bytes, 0, sizeof bytes);
  MPI_Status st;
  int n, c;
  MPI_Count nx;
  ring(bytes, 12, MPI_BYTE, in, 2, t, &st);
  MPI_Get_elements(&st, t, &n);
  MPI_Get_elements_x(&st, t, &nx);
  MPI_Get_count(&st, t, &c);
  CHECK(n == 2 && nx == 2 && c == 1, "12 bytes: %d elements, count %d", n, c);
  ring(bytes, 8, MPI_BYTE, in, 2, t, &st);
  MPI_Get_elements(&st, t, &n);
  CHECK(n == MPI_UNDEFINED, "8 bytes end inside the double (%d)", n);
  MPI_Type_free(&t);
}

/* Absolute addresses of privatized globals: the receive is posted by one rank and filled while
 * the sender runs, so each block is translated to the receiver's copy of its globals. */
static int g_out[4], g_in[4];
static double g_big_out[20000], g_big_in[20000];

static MPI_Datatype absolute(int n, const void* a, const void* b, MPI_Datatype old) {
  int bl[2] = {n, n};
  MPI_Aint dp[2];
  MPI_Get_address(a, &dp[0]);
  MPI_Get_address(b, &dp[1]);
  MPI_Datatype t;
  MPI_Type_create_hindexed(2, bl, dp, old, &t);
  MPI_Type_commit(&t);
  return t;
}

static void bottom(void) {
  for (int i = 0; i < 4; ++i) g_out[i] = rank * 10 + i, g_in[i] = -1;
  MPI_Datatype out = absolute(1, &g_out[1], &g_out[3], MPI_INT);
  MPI_Datatype in = absolute(1, &g_in[0], &g_in[2], MPI_INT);
  ring(MPI_BOTTOM, 1, out, MPI_BOTTOM, 1, in, MPI_STATUS_IGNORE);
  CHECK(g_in[0] == left * 10 + 1 && g_in[1] == -1 && g_in[2] == left * 10 + 3,
        "MPI_BOTTOM into globals: %d %d %d", g_in[0], g_in[1], g_in[2]);
  MPI_Type_free(&out);
  MPI_Type_free(&in);
  for (int i = 0; i < 20000; ++i) g_big_out[i] = rank + i * 0.25, g_big_in[i] = -1;
  out = absolute(10000, &g_big_out[0], &g_big_out[10000], MPI_DOUBLE);
  in = absolute(10000, &g_big_in[10000], &g_big_in[0], MPI_DOUBLE);
  ring(MPI_BOTTOM, 1, out, MPI_BOTTOM, 1, in, MPI_STATUS_IGNORE);
  CHECK(g_big_in[10000] == left && g_big_in[0] == left + 2500 && g_big_in[19999] == left + 2499.75,
        "rendezvous MPI_BOTTOM: %g %g %g", g_big_in[10000], g_big_in[0], g_big_in[19999]);
  MPI_Type_free(&out);
  MPI_Type_free(&in);
}

/* Types freed while their requests are pending stay alive until the requests complete. */
static void freed_while_pending(void) {
  MPI_Datatype st, rt;
  MPI_Type_vector(20000, 1, 2, MPI_DOUBLE, &st);
  MPI_Type_contiguous(20000, MPI_DOUBLE, &rt);
  MPI_Type_commit(&st);
  MPI_Type_commit(&rt);
  for (int i = 0; i < 40000; ++i) big[i] = rank - i;
  MPI_Request r[2];
  MPI_Irecv(bigin, 1, rt, left, 2, MPI_COMM_WORLD, &r[0]);
  MPI_Type_free(&rt);
  MPI_Isend(big, 1, st, right, 2, MPI_COMM_WORLD, &r[1]);
  MPI_Type_free(&st);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  CHECK(bigin[0] == left && bigin[19999] == left - 39998, "freed types still move the data");
}

static void probe_and_replace(void) {
  MPI_Datatype v;
  MPI_Type_vector(3, 2, 4, MPI_INT, &v);
  MPI_Type_commit(&v);
  int a[12], n;
  for (int i = 0; i < 12; ++i) a[i] = rank * 100 + i;
  MPI_Request r;
  MPI_Isend(a, 1, v, right, 3, MPI_COMM_WORLD, &r);
  MPI_Status st;
  MPI_Probe(left, 3, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_INT, &n);
  CHECK(n == 6, "probed 6 ints (%d)", n);
  MPI_Get_count(&st, v, &n);
  CHECK(n == 1, "probed 1 vector (%d)", n);
  int b[12];
  for (int i = 0; i < 12; ++i) b[i] = -1;
  MPI_Recv(b, 1, v, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(b[9] == left * 100 + 9 && b[2] == -1, "vector to vector %d %d", b[9], b[2]);
  MPI_Sendrecv_replace(a, 1, v, right, 4, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(a[0] == left * 100 && a[5] == left * 100 + 5 && a[2] == rank * 100 + 2,
        "sendrecv_replace of a vector %d %d %d", a[0], a[5], a[2]);
  MPI_Type_free(&v);
}

/* MPI_PACKED on one side, the real types on the other; and the pair types at their real size. */
static void packed_and_pairs(void) {
  char buf[64];
  int pos = 0, k = rank;
  double d[2] = {rank + 0.5, rank + 0.25};
  MPI_Pack(&k, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  MPI_Pack(d, 2, MPI_DOUBLE, buf, sizeof buf, &pos, MPI_COMM_WORLD);
  struct {
    int k;
    double d[2];
  } in;
  int bl[2] = {1, 2};
  MPI_Aint dp[2] = {0, 8};
  MPI_Datatype ty[2] = {MPI_INT, MPI_DOUBLE}, t;
  MPI_Type_create_struct(2, bl, dp, ty, &t);
  MPI_Type_commit(&t);
  ring(buf, pos, MPI_PACKED, &in, 1, t, MPI_STATUS_IGNORE);
  CHECK(in.k == left && in.d[1] == left + 0.25, "MPI_PACKED received as a struct");
  MPI_Type_free(&t);
  struct {
    double v;
    int i;
  } p[3] = {{rank, 1}, {rank + 1, 2}, {rank + 2, 3}}, q[3];
  MPI_Status st;
  ring(p, 3, MPI_DOUBLE_INT, q, 3, MPI_DOUBLE_INT, &st);
  int n;
  MPI_Get_count(&st, MPI_BYTE, &n);
  CHECK(n == 36, "3 x MPI_DOUBLE_INT is 36 bytes on the wire (%d)", n);
  CHECK(q[2].v == left + 2 && q[2].i == 3, "pairs received %g %d", q[2].v, q[2].i);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  columns();
  structs();
  rendezvous();
  partial();
  element_counts();
  bottom();
  freed_while_pending();
  probe_and_replace();
  packed_and_pairs();
  return finish("datatypes_p2p");
}
