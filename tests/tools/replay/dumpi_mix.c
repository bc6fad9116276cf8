/* SPDX-License-Identifier: Apache-2.0 */
/* Programs whose DUMPI traces (recorded natively, with libdumpi, under a real MPI) replay to the
 * time of the same program's online simulated run (dumpi_native_test.sh), one per argument.
 * Plain MPI-2, the calls DUMPI records, no compute of their own, and patterns that do not depend
 * on timing, so the replay of a native trace with --compute-scale 0 makes the online run's calls:
 *   pingpong     messages of growing sizes between ranks 0 and 1 (eager and rendezvous), the
 *                others wait at a barrier
 *   collectives  the collectives DUMPI records, on MPI_COMM_WORLD and on communicators made by
 *                dup, split and create (from MPI_Group_incl)
 *   nonblocking  a ring of Isend/Irecv with Wait, Waitall and Waitany, a probe and a receive
 *                from MPI_ANY_SOURCE (one sender only), Sendrecv(_replace), Ssend, a derived type
 * Values are checked where the program decides something from them. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void pingpong(void) {
  char* buf = calloc(1 << 20, 1);
  for (int bytes = 8; bytes <= (1 << 20); bytes *= 8) {
    if (rank == 0) {
      MPI_Send(buf, bytes, MPI_CHAR, 1, bytes, MPI_COMM_WORLD);
      MPI_Recv(buf, bytes, MPI_CHAR, 1, bytes, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, bytes, MPI_CHAR, 0, bytes, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, bytes, MPI_CHAR, 0, bytes, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  free(buf);
}

static void collectives_on(MPI_Comm comm) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  const int m = 4000;
  int* s = calloc((size_t)(m + 200 * n) * n, sizeof(int));
  int* r = calloc((size_t)(m + 200 * n) * n, sizeof(int));
  /* counts[i] from or to rank i; pair[i] between this rank and rank i (the same both ways) */
  int counts[64], displs[64], pair[64], pair_displs[64];
  for (int i = 0; i < n; ++i) counts[i] = 100 * (i + 1), displs[i] = 100 * i * (i + 1) / 2;
  for (int i = 0, d = 0; i < n; d += pair[i++]) pair[i] = 100 * (me + i + 1), pair_displs[i] = d;
  for (int i = 0; i < n; ++i) s[i] = me;
  MPI_Barrier(comm);
  MPI_Bcast(s, m, MPI_INT, n - 1, comm);
  MPI_Reduce(s, r, m, MPI_INT, MPI_SUM, 0, comm);
  MPI_Allreduce(s, r, 17, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Gather(s, m / 4, MPI_INT, r, m / 4, MPI_INT, 0, comm);
  MPI_Scatter(s, m / 4, MPI_INT, r, m / 4, MPI_INT, n / 2, comm);
  MPI_Allgather(s, 500, MPI_INT, r, 500, MPI_INT, comm);
  MPI_Alltoall(s, 300, MPI_INT, r, 300, MPI_INT, comm);
  MPI_Allgatherv(s, counts[me], MPI_INT, r, counts, displs, MPI_INT, comm);
  MPI_Gatherv(s, counts[me], MPI_INT, r, counts, displs, MPI_INT, 0, comm);
  MPI_Scatterv(s, counts, displs, MPI_INT, r, counts[me], MPI_INT, 0, comm);
  MPI_Alltoallv(s, pair, pair_displs, MPI_INT, r, pair, pair_displs, MPI_INT, comm);
  int blocks[64];
  for (int i = 0; i < n; ++i) blocks[i] = 200;
  MPI_Reduce_scatter(s, r, blocks, MPI_INT, MPI_SUM, comm);
  MPI_Scan(s, r, 1000, MPI_INT, MPI_SUM, comm);
  MPI_Exscan(s, r, 1000, MPI_INT, MPI_SUM, comm);
  free(s), free(r);
}

static void collectives(void) {
  collectives_on(MPI_COMM_WORLD);
  MPI_Comm dup, half, odd;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  collectives_on(dup);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  collectives_on(half);
  MPI_Group world, odds;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int members[64], k = 0;
  for (int i = 1; i < size; i += 2) members[k++] = i;
  MPI_Group_incl(world, k, members, &odds);
  MPI_Comm_create(MPI_COMM_WORLD, odds, &odd);
  if (odd != MPI_COMM_NULL) {
    collectives_on(odd);
    MPI_Comm_free(&odd);
  }
  MPI_Group_free(&odds), MPI_Group_free(&world);
  MPI_Comm_free(&half), MPI_Comm_free(&dup);
}

static void nonblocking(void) {
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size, big = 200000;
  char* buf = calloc(big, 1);
  char* in = calloc(2 * big, 1);
  MPI_Request q[4];
  MPI_Irecv(in, big, MPI_CHAR, prev, 1, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(buf, big, MPI_CHAR, next, 1, MPI_COMM_WORLD, &q[1]);
  MPI_Wait(&q[1], MPI_STATUS_IGNORE);
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  MPI_Irecv(in, 5000, MPI_CHAR, prev, 2, MPI_COMM_WORLD, &q[0]);
  MPI_Irecv(in + big, 90000, MPI_CHAR, next, 3, MPI_COMM_WORLD, &q[1]);
  MPI_Isend(buf, 5000, MPI_CHAR, next, 2, MPI_COMM_WORLD, &q[2]);
  MPI_Isend(buf, 90000, MPI_CHAR, prev, 3, MPI_COMM_WORLD, &q[3]);
  int index;
  MPI_Waitany(4, q, &index, MPI_STATUS_IGNORE);
  MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
  /* a probe and a receive from MPI_ANY_SOURCE with one possible sender: rank 0 */
  if (rank == 0) {
    for (int i = 1; i < size; ++i) MPI_Send(buf, 1000 * i, MPI_CHAR, i, 8, MPI_COMM_WORLD);
  } else {
    MPI_Status st;
    int count;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_CHAR, &count);
    if (st.MPI_SOURCE != 0 || count != 1000 * rank) MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Recv(in, count, MPI_CHAR, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  /* sendrecv, sendrecv_replace, a synchronous send, a derived type */
  MPI_Datatype col;
  MPI_Type_vector(100, 3, 7, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  double* d = calloc(800, sizeof(double));
  MPI_Sendrecv(d, 1, col, next, 6, in, 2400, MPI_CHAR, prev, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv_replace(d, 1, col, next, 7, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&col);
  if (rank % 2 == 0 && next != rank)
    MPI_Ssend(buf, 3000, MPI_CHAR, next, 9, MPI_COMM_WORLD);
  else if (rank % 2 == 1)
    MPI_Recv(in, 3000, MPI_CHAR, prev, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  free(d), free(buf), free(in);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2 || size > 64 || size % 2) {
    if (rank == 0) fprintf(stderr, "dumpi_mix: run it on an even number of ranks, 2 to 64\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "pingpong"))
      pingpong();
    else if (!strcmp(argv[i], "collectives"))
      collectives();
    else if (!strcmp(argv[i], "nonblocking"))
      nonblocking();
    else {
      fprintf(stderr, "dumpi_mix: unknown part %s\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  MPI_Finalize();
  return 0;
}
