/* SPDX-License-Identifier: Apache-2.0 */
/* Partitioned communication (MPI-4.1 4.2), self-checking on any number of ranks: every rank sends
 * to its right neighbour and receives from its left one (itself on one rank), round after round,
 * with equal and unequal partition counts, derived datatypes whose elements straddle the other
 * side's partitions, MPI_Pready in reverse order, _range, _list, MPI_Parrived polling, matching
 * in init order, an intercommunicator, MPI_PROC_NULL, MPI_Parrived on null and inactive requests
 * (yes) and the errors the standard names (under MPI_ERRORS_RETURN).
 * With the argument "fatal_range", a partition out of range ends the run with the message; with
 * "deadlock", a partition never readied ends it with the deadlock report. */
#include <string.h>

#include "check.h"

static int rank, size, right, left;

#define TOTAL 120 /* ints in each message */

static int value(int sender, int round, int i) {
  return sender * 100000 + round * 1000 + i;
}

/* Fills the whole send buffer for `round`. */
static void fill(int* buf, int round) {
  for (int i = 0; i < TOTAL; ++i) buf[i] = value(rank, round, i);
}

/* Receive partition `p` of `rcount` ints is what the left neighbour sent in `round`. */
static void check_partition(const int* buf, int p, int rcount, int round, const char* what) {
  int bad = 0;
  for (int i = p * rcount; i < (p + 1) * rcount; ++i) bad += buf[i] != value(left, round, i);
  CHECK(bad == 0, "%s round %d: partition %d has %d wrong ints", what, round, p, bad);
}

/* spart x (TOTAL/spart) ints out, rpart x (TOTAL/rpart) in, 3 rounds; the receiver polls
 * MPI_Parrived and checks each partition as soon as it is announced. */
static void rounds(int spart, int rpart, int mode) {
  int sbuf[TOTAL], rbuf[TOTAL];
  MPI_Request req[2];
  int scount = TOTAL / spart, rcount = TOTAL / rpart;
  memset(sbuf, 0, sizeof sbuf);
  MPI_Psend_init(sbuf, spart, scount, MPI_INT, right, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
  MPI_Precv_init(rbuf, rpart, rcount, MPI_INT, left, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]);
  for (int round = 0; round < 3; ++round) {
    memset(rbuf, 0xff, sizeof rbuf);
    MPI_Startall(2, req);
    int flag = 1;
    MPI_Parrived(req[1], 0, &flag);
    fill(sbuf, round);
    if (mode == 0) { /* one by one, last first */
      for (int p = spart - 1; p >= 0; --p) MPI_Pready(p, req[0]);
    } else if (mode == 1) { /* the odd ones as a list, then the even ones as one range each */
      int list[TOTAL], n = 0;
      for (int p = 1; p < spart; p += 2) list[n++] = p;
      MPI_Pready_list(n, list, req[0]);
      for (int p = 0; p < spart; p += 2) MPI_Pready_range(p, p, req[0]);
    } else { /* all at once */
      MPI_Pready_range(0, spart - 1, req[0]);
    }
    char seen[TOTAL] = {0};
    for (int left_to_see = rpart; left_to_see > 0;) {
      for (int p = 0; p < rpart; ++p) {
        if (seen[p]) continue;
        MPI_Parrived(req[1], p, &flag);
        if (!flag) continue;
        seen[p] = 1;
        --left_to_see;
        check_partition(rbuf, p, rcount, round, "polled");
      }
    }
    MPI_Status st[2];
    MPI_Waitall(2, req, st);
    CHECK(st[1].MPI_SOURCE == left && st[1].MPI_TAG == 5, "status source %d tag %d",
          st[1].MPI_SOURCE, st[1].MPI_TAG);
    int n = -1;
    MPI_Get_count(&st[1], MPI_INT, &n);
    CHECK(n == TOTAL, "MPI_Get_count says %d ints, sent %d", n, TOTAL);
    for (int p = 0; p < rpart; ++p) check_partition(rbuf, p, rcount, round, "waited");
  }
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
  CHECK(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL, "freed requests not null");
}

/* A strided send type (every other int of a 2*k block) into a contiguous receive whose
 * partitions cut the send elements in the middle: 5 send elements of 12 ints each, 4 receive
 * partitions of 15 ints. */
static void derived(void) {
  int sbuf[2 * TOTAL], rbuf[TOTAL / 2];
  MPI_Datatype vec, strided;
  MPI_Type_vector(12, 1, 2, MPI_INT, &vec);
  MPI_Type_create_resized(vec, 0, 24 * sizeof(int), &strided);
  MPI_Type_commit(&strided);
  MPI_Type_free(&vec);
  for (int i = 0; i < 2 * TOTAL; ++i) sbuf[i] = i % 2 ? -1 : value(rank, 7, i / 2);
  MPI_Request req[2];
  MPI_Psend_init(sbuf, 5, 1, strided, right, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
  MPI_Type_free(&strided); /* the request keeps it alive */
  MPI_Precv_init(rbuf, 4, 15, MPI_INT, left, 6, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]);
  memset(rbuf, 0, sizeof rbuf);
  MPI_Startall(2, req);
  int list[] = {4, 0, 2};
  MPI_Pready_list(3, list, req[0]);
  MPI_Pready_range(1, 1, req[0]);
  MPI_Pready(3, req[0]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  int bad = 0;
  for (int i = 0; i < TOTAL / 2; ++i) bad += rbuf[i] != value(left, 7, i);
  CHECK(bad == 0, "strided partitions: %d wrong ints", bad);
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
}

/* Three sends on one tag match the receives in init order, whatever order they start in. */
static void init_order(void) {
  int s[3], r[3] = {-1, -1, -1};
  MPI_Request sq[3], rq[3];
  for (int i = 0; i < 3; ++i) {
    s[i] = rank * 10 + i;
    MPI_Psend_init(&s[i], 1, 1, MPI_INT, right, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &sq[i]);
  }
  for (int i = 0; i < 3; ++i)
    MPI_Precv_init(&r[i], 1, 1, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_INFO_NULL, &rq[i]);
  for (int i = 2; i >= 0; --i) {
    MPI_Start(&sq[i]);
    MPI_Pready(0, sq[i]);
  }
  MPI_Startall(3, rq);
  MPI_Waitall(3, sq, MPI_STATUSES_IGNORE);
  MPI_Waitall(3, rq, MPI_STATUSES_IGNORE);
  for (int i = 0; i < 3; ++i) {
    CHECK(r[i] == left * 10 + i, "receive %d got %d, init order wants %d", i, r[i], left * 10 + i);
    MPI_Request_free(&sq[i]);
    MPI_Request_free(&rq[i]);
  }
}

/* Over an intercommunicator of the even and the odd ranks: even rank 2k sends to odd rank 2k+1
 * (3 partitions of 2 ints into 2 of 3), an even rank without partner to MPI_PROC_NULL. */
static void intercomm(void) {
  if (size < 2) return;
  int color = rank % 2, lrank, rsize;
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - color, 21, &inter);
  MPI_Comm_rank(local, &lrank);
  MPI_Comm_remote_size(inter, &rsize);
  int data[6];
  MPI_Request req;
  if (color == 0) {
    for (int i = 0; i < 6; ++i) data[i] = rank * 10 + i;
    int peer = lrank < rsize ? lrank : MPI_PROC_NULL;
    MPI_Psend_init(data, 3, 2, MPI_INT, peer, 4, inter, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    MPI_Pready_range(0, 2, req);
  } else {
    memset(data, 0, sizeof data);
    MPI_Precv_init(data, 2, 3, MPI_INT, lrank, 4, inter, MPI_INFO_NULL, &req);
    MPI_Start(&req);
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  if (color == 1)
    for (int i = 0; i < 6; ++i)
      CHECK(data[i] == (rank - 1) * 10 + i, "intercomm: int %d is %d", i, data[i]);
  MPI_Request_free(&req);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
}

/* MPI_PROC_NULL peers complete at once and move nothing. */
static void proc_null(void) {
  int x = 3, y = 4, flag = 0;
  MPI_Request req[2];
  MPI_Psend_init(&x, 1, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
  MPI_Precv_init(&y, 1, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[1]);
  MPI_Startall(2, req);
  MPI_Pready(0, req[0]);
  MPI_Parrived(req[1], 0, &flag);
  CHECK(flag, "MPI_PROC_NULL partition not arrived");
  MPI_Status st;
  MPI_Wait(&req[1], &st);
  MPI_Wait(&req[0], MPI_STATUS_IGNORE);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && y == 4, "MPI_PROC_NULL receive: source %d, y=%d",
        st.MPI_SOURCE, y);
  MPI_Request_free(&req[0]);
  MPI_Request_free(&req[1]);
}

static int error_class(int code) {
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}

/* The errors MPI-4.1 names, under MPI_ERRORS_RETURN. */
static void errors(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int buf[8], flag;
  MPI_Request s, r;
  MPI_Psend_init(buf, 4, 2, MPI_INT, right, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
  MPI_Precv_init(buf, 2, 4, MPI_INT, left, 11, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
  CHECK(error_class(MPI_Pready(0, s)) == MPI_ERR_REQUEST, "MPI_Pready on an inactive request");
  flag = 0;
  CHECK(MPI_Parrived(r, 0, &flag) == MPI_SUCCESS && flag, "MPI_Parrived inactive: flag true");
  flag = 0;
  CHECK(MPI_Parrived(MPI_REQUEST_NULL, 0, &flag) == MPI_SUCCESS && flag, "MPI_Parrived null");
  MPI_Startall(1, &s);
  CHECK(error_class(MPI_Pready(4, s)) == MPI_ERR_ARG, "partition 4 of 4");
  CHECK(error_class(MPI_Pready_range(2, 1, s)) == MPI_ERR_ARG, "empty range");
  CHECK(error_class(MPI_Parrived(s, 0, &flag)) == MPI_ERR_REQUEST, "MPI_Parrived on a send");
  MPI_Start(&r);
  CHECK(error_class(MPI_Pready(0, r)) == MPI_ERR_REQUEST, "MPI_Pready on a receive");
  CHECK(error_class(MPI_Parrived(r, 2, &flag)) == MPI_ERR_ARG, "partition 2 of 2");
  CHECK(error_class(MPI_Start(&s)) == MPI_ERR_REQUEST, "starting an active request");
  MPI_Pready_range(0, 3, s);
  CHECK(error_class(MPI_Pready(1, s)) == MPI_ERR_ARG, "partition 1 ready twice");
  MPI_Wait(&s, MPI_STATUS_IGNORE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Request_free(&s);
  MPI_Request_free(&r);
  CHECK(error_class(MPI_Precv_init(buf, 1, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
                                   MPI_INFO_NULL, &r)) == MPI_ERR_RANK,
        "MPI_ANY_SOURCE");
  CHECK(error_class(MPI_Precv_init(buf, 1, 1, MPI_INT, left, MPI_ANY_TAG, MPI_COMM_WORLD,
                                   MPI_INFO_NULL, &r)) == MPI_ERR_TAG,
        "MPI_ANY_TAG");
  /* Sizes that differ (8 ints against 6): the second init of the pair raises it (on
   * MPI_COMM_SELF, so that it is this rank's). */
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Request big, small = MPI_REQUEST_NULL;
  MPI_Psend_init(buf, 4, 2, MPI_INT, 0, 12, MPI_COMM_SELF, MPI_INFO_NULL, &big);
  int err = MPI_Precv_init(buf, 3, 2, MPI_INT, 0, 12, MPI_COMM_SELF, MPI_INFO_NULL, &small);
  CHECK(error_class(err) == MPI_ERR_TRUNCATE, "mismatched sizes gave %d", err);
  MPI_Request_free(&big);
  if (small != MPI_REQUEST_NULL) MPI_Request_free(&small);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  if (argc > 1 && !strcmp(argv[1], "fatal_range")) {
    int buf[4];
    MPI_Request s;
    MPI_Psend_init(buf, 4, 1, MPI_INT, right, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &s);
    MPI_Start(&s);
    MPI_Pready(7, s);
  }
  if (argc > 1 && !strcmp(argv[1], "deadlock") && rank < 2) { /* one partition never ready */
    int buf[4];
    MPI_Request r;
    if (rank == 0)
      MPI_Psend_init(buf, 2, 2, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    else
      MPI_Precv_init(buf, 2, 2, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    if (rank == 0) MPI_Pready(0, r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  for (int mode = 0; mode < 3; ++mode) {
    rounds(8, 8, mode);
    rounds(6, 4, mode);
    rounds(4, 6, mode);
    rounds(1, 120, mode);
  }
  derived();
  init_order();
  intercomm();
  proc_null();
  errors();
  return finish("partitioned");
}
