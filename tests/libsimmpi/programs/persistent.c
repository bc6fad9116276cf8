/* SPDX-License-Identifier: Apache-2.0 */
/* Persistent requests (MPI-3.1 3.9) and the completion functions' edge cases (3.7.3, 3.7.5):
 * inactive requests wait and test as null ones with an empty status, mixed null and inactive
 * arrays give MPI_UNDEFINED, and MPI_ERR_IN_STATUS reports the failed request in its status.
 * Every expected value is written out by hand below. */
#include <string.h>

#include "check.h"

/* An empty status (MPI-3.1 3.7.3): MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_SUCCESS, count 0. */
static void check_empty(const MPI_Status* st, const char* what) {
  int count = -1;
  MPI_Get_count(st, MPI_INT, &count);
  CHECK(st->MPI_SOURCE == MPI_ANY_SOURCE && st->MPI_TAG == MPI_ANY_TAG &&
            st->MPI_ERROR == MPI_SUCCESS && count == 0,
        "%s: status (%d, %d, %d, count %d), expected (%d, %d, 0, count 0)", what, st->MPI_SOURCE,
        st->MPI_TAG, st->MPI_ERROR, count, MPI_ANY_SOURCE, MPI_ANY_TAG);
}

/* A ring: three rounds of Startall over one send to rank+1 and one receive from rank-1; the
 * payload of round k from rank s is {100 s + k, 100 s + k + 1}. */
static void ring(int rank, int size) {
  int out[2], in[2] = {-1, -1};
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Request reqs[2];
  MPI_Recv_init(in, 2, MPI_INT, left, 7, MPI_COMM_WORLD, &reqs[0]);
  MPI_Send_init(out, 2, MPI_INT, right, 7, MPI_COMM_WORLD, &reqs[1]);
  for (int k = 0; k < 3; ++k) {
    out[0] = 100 * rank + k, out[1] = 100 * rank + k + 1;
    MPI_Status st[2];
    MPI_Startall(2, reqs);
    MPI_Waitall(2, reqs, st);
    CHECK(in[0] == 100 * left + k && in[1] == 100 * left + k + 1,
          "round %d: got {%d, %d} from %d, expected {%d, %d}", k, in[0], in[1], left,
          100 * left + k, 100 * left + k + 1);
    CHECK(st[0].MPI_SOURCE == left && st[0].MPI_TAG == 7, "round %d: source %d tag %d", k,
          st[0].MPI_SOURCE, st[0].MPI_TAG);
    CHECK(reqs[0] != MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL,
          "completing a persistent request must not free it");
  }
  MPI_Request_free(&reqs[0]);
  MPI_Request_free(&reqs[1]);
  CHECK(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL, "freed handles are null");
}

/* An inactive request (never started, or completed) in every completion function. */
static void inactive(void) {
  int buf = 0, flag = -1, index = -2, outcount = -2, indices[2];
  MPI_Request r, pair[2];
  MPI_Status st, sts[2];
  MPI_Recv_init(&buf, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &r);
  MPI_Wait(&r, &st);
  check_empty(&st, "MPI_Wait on an inactive request");
  CHECK(r != MPI_REQUEST_NULL, "MPI_Wait must leave an inactive request alone");
  MPI_Test(&r, &flag, &st);
  CHECK(flag == 1, "MPI_Test on an inactive request: flag %d, expected 1", flag);
  check_empty(&st, "MPI_Test on an inactive request");
  MPI_Request_get_status(r, &flag, &st);
  CHECK(flag == 1, "MPI_Request_get_status: flag %d", flag);
  pair[0] = MPI_REQUEST_NULL, pair[1] = r;
  MPI_Waitany(2, pair, &index, &st);
  CHECK(index == MPI_UNDEFINED, "MPI_Waitany(null, inactive): index %d, expected %d", index,
        MPI_UNDEFINED);
  check_empty(&st, "MPI_Waitany(null, inactive)");
  MPI_Testany(2, pair, &index, &flag, &st);
  CHECK(index == MPI_UNDEFINED && flag == 1, "MPI_Testany(null, inactive): index %d flag %d", index,
        flag);
  MPI_Waitsome(2, pair, &outcount, indices, sts);
  CHECK(outcount == MPI_UNDEFINED, "MPI_Waitsome(null, inactive): outcount %d", outcount);
  MPI_Testsome(2, pair, &outcount, indices, sts);
  CHECK(outcount == MPI_UNDEFINED, "MPI_Testsome(null, inactive): outcount %d", outcount);
  MPI_Testall(2, pair, &flag, sts);
  CHECK(flag == 1, "MPI_Testall(null, inactive): flag %d", flag);
  check_empty(&sts[1], "MPI_Testall's status of the inactive request");
  MPI_Waitall(2, pair, sts);
  check_empty(&sts[0], "MPI_Waitall's status of the null request");
  check_empty(&sts[1], "MPI_Waitall's status of the inactive request");
  MPI_Request_free(&r);
  CHECK(r == MPI_REQUEST_NULL, "MPI_Request_free of an inactive request: handle not null");
}

/* MPI_Waitany with a null, an inactive and an active request picks the active one (index 2);
 * a persistent send completes into an inactive request that can be started again. */
static void mixed(int rank) {
  int a = 0, b = -1, index = -1, sendval = 41 + rank;
  MPI_Request reqs[3], send;
  MPI_Status st;
  reqs[0] = MPI_REQUEST_NULL;
  MPI_Recv_init(&a, 1, MPI_INT, MPI_ANY_SOURCE, 9, MPI_COMM_SELF, &reqs[1]);
  MPI_Irecv(&b, 1, MPI_INT, 0, 8, MPI_COMM_SELF, &reqs[2]);
  MPI_Send_init(&sendval, 1, MPI_INT, 0, 8, MPI_COMM_SELF, &send);
  MPI_Start(&send);
  MPI_Waitany(3, reqs, &index, &st);
  CHECK(index == 2 && b == 41 + rank && st.MPI_TAG == 8,
        "MPI_Waitany: index %d value %d tag %d,"
        " expected 2, %d, 8",
        index, b, st.MPI_TAG, 41 + rank);
  CHECK(reqs[2] == MPI_REQUEST_NULL && reqs[1] != MPI_REQUEST_NULL, "MPI_Waitany's handles");
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  /* Started again, the send now matches the persistent receive. */
  sendval = 7;
  MPI_Startall(1, &reqs[1]);
  MPI_Start(&send);
  MPI_Send(&sendval, 1, MPI_INT, 0, 9, MPI_COMM_SELF);
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
  CHECK(a == 7, "persistent receive got %d, expected 7", a);
  MPI_Recv(&b, 1, MPI_INT, 0, 8, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  CHECK(b == 7, "second persistent send delivered %d, expected 7", b);
  MPI_Request_free(&send);
  MPI_Request_free(&reqs[1]);
}

/* MPI_PROC_NULL peers, buffered and synchronous modes, and cancelling a started receive. */
static void modes(int rank, int size) {
  MPI_Request r;
  MPI_Status st;
  int v = 5, got = 0, count = -1, flag = 0;
  MPI_Send_init(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
  MPI_Start(&r);
  MPI_Wait(&r, &st);
  MPI_Request_free(&r);
  MPI_Recv_init(&got, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
  MPI_Start(&r);
  MPI_Wait(&r, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0,
        "receive from MPI_PROC_NULL: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG, count);
  MPI_Request_free(&r);

  char bsend_buf[64 + MPI_BSEND_OVERHEAD];
  MPI_Buffer_attach(bsend_buf, sizeof bsend_buf);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Request s[2];
  MPI_Bsend_init(&rank, 1, MPI_INT, right, 11, MPI_COMM_WORLD, &s[0]);
  MPI_Ssend_init(&rank, 1, MPI_INT, right, 12, MPI_COMM_WORLD, &s[1]);
  for (int k = 0; k < 2; ++k) {
    int from_b = -1, from_s = -1;
    MPI_Startall(2, s);
    MPI_Recv(&from_b, 1, MPI_INT, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&from_s, 1, MPI_INT, left, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(2, s, MPI_STATUSES_IGNORE);
    CHECK(from_b == left && from_s == left, "round %d: buffered %d synchronous %d, expected %d", k,
          from_b, from_s, left);
  }
  MPI_Request_free(&s[0]);
  MPI_Request_free(&s[1]);
  void* detached;
  int detached_size;
  MPI_Buffer_detach(&detached, &detached_size);

  MPI_Recv_init(&got, 1, MPI_INT, left, 99, MPI_COMM_WORLD, &r);
  MPI_Start(&r);
  MPI_Cancel(&r);
  MPI_Wait(&r, &st);
  MPI_Test_cancelled(&st, &flag);
  CHECK(flag == 1, "a started, unmatched persistent receive must cancel");
  MPI_Request_free(&r);
}

/* Under MPI_ERRORS_RETURN a truncated receive among several makes MPI_Waitall and MPI_Testsome
 * return MPI_ERR_IN_STATUS, with MPI_ERR_TRUNCATE in that request's status and MPI_SUCCESS in
 * the others'. Rank 0 sends itself 4 ints (tag 1) into room for 2, and 1 int (tag 2). */
static void in_status(void) {
  int big[4] = {1, 2, 3, 4}, small = 5, room[2], one;
  MPI_Request r[2];
  MPI_Status st[2];
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  for (int pass = 0; pass < 2; ++pass) {
    MPI_Irecv(room, 2, MPI_INT, 0, 1, MPI_COMM_SELF, &r[0]);
    MPI_Irecv(&one, 1, MPI_INT, 0, 2, MPI_COMM_SELF, &r[1]);
    MPI_Send(big, 4, MPI_INT, 0, 1, MPI_COMM_SELF);
    MPI_Send(&small, 1, MPI_INT, 0, 2, MPI_COMM_SELF);
    int err, outcount = 0, indices[2];
    if (pass == 0) {
      err = MPI_Waitall(2, r, st);
    } else {
      int done = 0; /* leaves only the truncated one, complete, for MPI_Testsome */
      MPI_Wait(&r[1], &st[1]);
      while (!done) MPI_Request_get_status(r[0], &done, MPI_STATUS_IGNORE);
      err = MPI_Testsome(2, r, &outcount, indices, st);
      CHECK(outcount == 1 && indices[0] == 0, "MPI_Testsome: outcount %d", outcount);
    }
    CHECK(err == MPI_ERR_IN_STATUS, "pass %d: returned %d, expected MPI_ERR_IN_STATUS (%d)", pass,
          err, MPI_ERR_IN_STATUS);
    CHECK(st[0].MPI_ERROR == MPI_ERR_TRUNCATE, "pass %d: truncated status has error %d", pass,
          st[0].MPI_ERROR);
    if (pass == 0)
      CHECK(st[1].MPI_ERROR == MPI_SUCCESS, "the complete receive's status has error %d",
            st[1].MPI_ERROR);
    CHECK(room[0] == 1 && room[1] == 2 && one == 5, "data: {%d, %d} and %d", room[0], room[1], one);
  }
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

/* A started persistent send costs what MPI_Isend costs: sending 1 KiB (eager) and 1 MiB
 * (rendezvous) to a receive posted before a barrier takes rank 0 the same simulated time. */
static void same_cost(int rank) {
  static char buf[1 << 20];
  for (int size = 1024; size <= (1 << 20); size *= 1024) {
    long long t[2]; /* picoseconds: doubles of different absolute times differ in the last bit */
    for (int persistent = 0; persistent < 2; ++persistent) {
      MPI_Request r = MPI_REQUEST_NULL;
      if (rank == 1) MPI_Irecv(buf, size, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &r);
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      if (rank == 0 && persistent) {
        MPI_Send_init(buf, size, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &r);
        MPI_Start(&r);
      } else if (rank == 0) {
        MPI_Isend(buf, size, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &r);
      }
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      t[persistent] = (long long)((MPI_Wtime() - t0) * 1e12 + 0.5);
      if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
    }
    CHECK(rank != 0 || t[0] == t[1], "%d bytes: MPI_Isend took %lld ps, MPI_Start %lld ps", size,
          t[0], t[1]);
  }
}

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  ring(rank, size);
  inactive();
  mixed(rank);
  modes(rank, size);
  if (rank == 0) in_status();
  if (size == 2) same_cost(rank); /* alone on the network: no other rank's flows share links */
  return finish("persistent");
}
