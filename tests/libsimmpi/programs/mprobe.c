/* SPDX-License-Identifier: Apache-2.0 */
/* Matched probes (MPI-3.1 3.8.2, 3.8.3): a message taken by MPI_Mprobe or MPI_Improbe is out of
 * matching, so later receives get the other messages, and MPI_Mrecv/MPI_Imrecv receive exactly
 * it; MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC. Rank pairs (2k, 2k+1) talk; an odd last rank
 * only does the MPI_PROC_NULL and MPI_COMM_SELF parts. */
#include <stdlib.h>

#include "check.h"

#define BIG (1 << 18) /* ints: 1 MiB, above the eager threshold */

static void proc_null(void) {
  MPI_Message m = MPI_MESSAGE_NULL;
  MPI_Status st;
  int flag = 0, v = 3, count = -1;
  MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m, &st);
  CHECK(m == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
        "MPI_Mprobe(MPI_PROC_NULL): message 0x%x source %d tag %d", m, st.MPI_SOURCE, st.MPI_TAG);
  MPI_Mrecv(&v, 1, MPI_INT, &m, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(m == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL && count == 0 && v == 3,
        "MPI_Mrecv(MPI_MESSAGE_NO_PROC): message 0x%x source %d count %d value %d", m,
        st.MPI_SOURCE, count, v);
  MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE);
  CHECK(flag == 1 && m == MPI_MESSAGE_NO_PROC, "MPI_Improbe(MPI_PROC_NULL): flag %d", flag);
  MPI_Request r;
  MPI_Imrecv(&v, 1, MPI_INT, &m, &r);
  MPI_Wait(&r, &st);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL, "MPI_Imrecv(MPI_MESSAGE_NO_PROC): source %d",
        st.MPI_SOURCE);
}

/* Sent to self: tag 1 (value 11), tag 2 (value 22). MPI_Mprobe takes tag 2; a receive of any
 * tag then gets 11; MPI_Mrecv gets 22. Improbe for a tag nobody sends says no. */
static void taken_out_of_matching(void) {
  int a = 11, b = 22, got = 0, flag = -1, count = -1;
  MPI_Message m = MPI_MESSAGE_NULL;
  MPI_Status st;
  MPI_Send(&a, 1, MPI_INT, 0, 1, MPI_COMM_SELF);
  MPI_Send(&b, 1, MPI_INT, 0, 2, MPI_COMM_SELF);
  MPI_Improbe(0, 99, MPI_COMM_SELF, &flag, &m, &st);
  CHECK(flag == 0 && m == MPI_MESSAGE_NULL, "MPI_Improbe for tag 99: flag %d", flag);
  MPI_Mprobe(MPI_ANY_SOURCE, 2, MPI_COMM_SELF, &m, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(m != MPI_MESSAGE_NULL && st.MPI_TAG == 2 && count == 1, "MPI_Mprobe: tag %d count %d",
        st.MPI_TAG, count);
  MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &st);
  CHECK(got == 11 && st.MPI_TAG == 1, "receive after MPI_Mprobe got %d (tag %d), expected 11 (1)",
        got, st.MPI_TAG);
  MPI_Mrecv(&got, 1, MPI_INT, &m, &st);
  CHECK(got == 22 && st.MPI_TAG == 2 && m == MPI_MESSAGE_NULL,
        "MPI_Mrecv got %d (tag %d), expected 22 (2)", got, st.MPI_TAG);
}

/* Rank 2k sends 2k+1 a small message (tag 5) and a large one (tag 6, rendezvous); 2k+1 probes
 * for the large one first, posts an MPI_Imrecv for it, then receives the small one. */
static void between_ranks(int rank) {
  int* big = malloc(BIG * sizeof(int));
  int small = 0, flag = 0, count = -1;
  if (rank % 2 == 0) {
    for (int i = 0; i < BIG; ++i) big[i] = rank * 7 + i;
    small = 1000 + rank;
    MPI_Send(&small, 1, MPI_INT, rank + 1, 5, MPI_COMM_WORLD);
    MPI_Send(big, BIG, MPI_INT, rank + 1, 6, MPI_COMM_WORLD);
  } else {
    MPI_Message m;
    MPI_Status st;
    MPI_Request r;
    while (!flag) MPI_Improbe(rank - 1, 6, MPI_COMM_WORLD, &flag, &m, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == BIG && st.MPI_SOURCE == rank - 1, "MPI_Improbe: count %d source %d", count,
          st.MPI_SOURCE);
    MPI_Imrecv(big, BIG, MPI_INT, &m, &r);
    CHECK(m == MPI_MESSAGE_NULL, "MPI_Imrecv must set the message to MPI_MESSAGE_NULL");
    MPI_Recv(&small, 1, MPI_INT, rank - 1, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK(small == 1000 + rank - 1 && st.MPI_TAG == 5, "small message %d tag %d", small,
          st.MPI_TAG);
    MPI_Wait(&r, &st);
    int bad = 0;
    for (int i = 0; i < BIG; ++i) bad += big[i] != (rank - 1) * 7 + i;
    CHECK(bad == 0 && st.MPI_TAG == 6, "%d wrong ints in the large message", bad);
  }
  free(big);
}

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  proc_null();
  taken_out_of_matching();
  if (rank + 1 < size || rank % 2 == 1) between_ranks(rank);
  return finish("mprobe");
}
