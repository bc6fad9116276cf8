/* SPDX-License-Identifier: Apache-2.0 */
/* MPI's matching order with wildcards (MPI-3.1 3.5): a message matches the earliest posted
 * receive it fits, and a receive the earliest message (in sending order) it fits, whatever the
 * mix of named and MPI_ANY_SOURCE sources and of named and MPI_ANY_TAG tags, and only on its own
 * communicator. Ranks 1-3 send to rank 0 in a global order that a token passed between them
 * enforces; each case's expected pairing is worked out by hand below, and differs from what a
 * matcher that looked at one source's queue first, or at sources in rank order, would give.
 * Needs 4 or more ranks (ranks above 3 only join the barriers). */
#include <stdlib.h>

#include "check.h"

static int rank;
static MPI_Comm token_comm; /* the sending order's tokens: never matched by rank 0's receives */

struct msg {
  int src, tag, value;
};

/* Each message's sender sends it to rank 0 on `comm` after the previous message's sender has
 * sent its own and passed the token: messages leave in list order across senders. */
static void send_in_order(const struct msg* list, int n, MPI_Comm comm) {
  for (int i = 0; i < n; ++i) {
    if (list[i].src != rank) continue;
    int token;
    if (i > 0 && list[i - 1].src != rank)
      MPI_Recv(&token, 1, MPI_INT, list[i - 1].src, 0, token_comm, MPI_STATUS_IGNORE);
    MPI_Send(&list[i].value, 1, MPI_INT, 0, list[i].tag, comm);
    if (i + 1 < n && list[i + 1].src != rank)
      MPI_Send(&i, 1, MPI_INT, list[i + 1].src, 0, token_comm);
  }
}

/* Receives posted before the messages: each message takes the earliest posted receive it fits,
 * which may be in the any-source queue before one for its own source, or the reverse. */
static void receives_first(void) {
  enum { N = 6 };
  const int src[N] = {2, MPI_ANY_SOURCE, 1, MPI_ANY_SOURCE, 1, 2};
  const int tag[N] = {5, 5, MPI_ANY_TAG, MPI_ANY_TAG, 5, MPI_ANY_TAG};
  const struct msg sends[N] = {{1, 5, 101}, {2, 7, 102}, {2, 5, 103},
                               {1, 5, 104}, {1, 5, 105}, {2, 8, 106}};
  /* m101 (1,5): receives 1 (any,5), 2 (1,any), 4 (1,5) fit: 1. m102 (2,7): 3 (any,any) and 5
   * (2,any): 3. m103 (2,5): 0. m104 (1,5): 2 before 4. m105: 4. m106 (2,8): 5. */
  const int expected[N] = {103, 101, 104, 102, 105, 106};
  int got[N];
  MPI_Request req[N];
  if (rank == 0)
    for (int i = 0; i < N; ++i)
      MPI_Irecv(&got[i], 1, MPI_INT, src[i], tag[i], MPI_COMM_WORLD, &req[i]);
  MPI_Barrier(MPI_COMM_WORLD);
  send_in_order(sends, N, MPI_COMM_WORLD);
  if (rank != 0) return;
  MPI_Status st[N];
  MPI_Waitall(N, req, st);
  for (int i = 0; i < N; ++i)
    CHECK(got[i] == expected[i],
          "receives first: receive %d (source %d, tag %d) got %d, expected %d", i, src[i], tag[i],
          got[i], expected[i]);
}

/* Messages sent before the receives: each receive takes the earliest message it fits, in the
 * order they were sent across sources. A probe sees what the next fitting receive would get. */
static void messages_first(void) {
  enum { N = 6 };
  const struct msg sends[N] = {{1, 5, 201}, {2, 6, 202}, {1, 6, 203},
                               {3, 5, 204}, {2, 5, 205}, {3, 9, 206}};
  MPI_Barrier(MPI_COMM_WORLD);
  send_in_order(sends, N, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0) return;
  const int src[N] = {MPI_ANY_SOURCE, 1, MPI_ANY_SOURCE, MPI_ANY_SOURCE, 2, 3};
  const int tag[N] = {6, MPI_ANY_TAG, MPI_ANY_TAG, 5, MPI_ANY_TAG, MPI_ANY_TAG};
  /* (any,6): 202 sent before 203 from the lower rank. (1,any): 201. (any,any): 203, the
   * earliest left. (any,5): 204 before 205. (2,any): 205. (3,any): 206. */
  const int expected[N] = {202, 201, 203, 204, 205, 206};
  MPI_Status st;
  MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
  CHECK(st.MPI_SOURCE == 1 && st.MPI_TAG == 5, "messages first: probe saw %d/%d, expected 1/5",
        st.MPI_SOURCE, st.MPI_TAG);
  for (int i = 0; i < N; ++i) {
    int v = -1;
    MPI_Recv(&v, 1, MPI_INT, src[i], tag[i], MPI_COMM_WORLD, &st);
    CHECK(v == expected[i], "messages first: receive %d (source %d, tag %d) got %d, expected %d", i,
          src[i], tag[i], v, expected[i]);
  }
  int flag = 1;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
  CHECK(!flag, "messages first: a message is left over");
}

/* Both at once, and two communicators: receives posted before some messages and after others,
 * on MPI_COMM_WORLD and on a duplicate whose receives were posted first and must take nothing
 * sent on MPI_COMM_WORLD. */
static void mixed(void) {
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  enum { POSTED = 3, N = 5 };
  int on_dup = -1, got[POSTED] = {-1, -1, -1};
  MPI_Request dup_req, req[POSTED];
  const int src[POSTED] = {MPI_ANY_SOURCE, 1, 3};
  const int tag[POSTED] = {MPI_ANY_TAG, 5, 5};
  if (rank == 0) {
    MPI_Irecv(&on_dup, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, dup, &dup_req);
    for (int i = 0; i < POSTED; ++i)
      MPI_Irecv(&got[i], 1, MPI_INT, src[i], tag[i], MPI_COMM_WORLD, &req[i]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* 301 takes (any,any); 302 (1,5); 303 from 1 and 304 from 2 wait; 305 (3,5). */
  const struct msg sends[N] = {{2, 5, 301}, {1, 5, 302}, {1, 5, 303}, {2, 3, 304}, {3, 5, 305}};
  send_in_order(sends, N, MPI_COMM_WORLD);
  const struct msg dup_send[1] = {{3, 4, 306}};
  send_in_order(dup_send, 1, dup);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    const int expected[POSTED] = {301, 302, 305};
    MPI_Waitall(POSTED, req, MPI_STATUSES_IGNORE);
    for (int i = 0; i < POSTED; ++i)
      CHECK(got[i] == expected[i], "mixed: receive %d got %d, expected %d", i, got[i], expected[i]);
    int v = -1;
    MPI_Status st;
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st);
    CHECK(v == 303 && st.MPI_SOURCE == 1, "mixed: (any,5) got %d from %d, expected 303 from 1", v,
          st.MPI_SOURCE);
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK(v == 304 && st.MPI_TAG == 3, "mixed: (any,any) got %d tag %d, expected 304 tag 3", v,
          st.MPI_TAG);
    MPI_Wait(&dup_req, &st);
    CHECK(on_dup == 306 && st.MPI_SOURCE == 3, "mixed: the duplicate's receive got %d from %d",
          on_dup, st.MPI_SOURCE);
  }
  MPI_Comm_free(&dup);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 4) {
    if (rank == 0) fprintf(stderr, "matching_order needs 4 or more ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &token_comm);
  receives_first();
  messages_first();
  mixed();
  MPI_Comm_free(&token_comm);
  return finish("matching_order");
}
