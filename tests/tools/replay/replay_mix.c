/* SPDX-License-Identifier: Apache-2.0 */
/* Programs for record-then-replay tests (replay_test.sh), one per argument:
 *   stencil      a 2-D halo exchange (Isend/Irecv/Waitall) with dgemm and SIMMPI_COMPUTE
 *                between steps and an allreduce per step: its pattern does not depend on timing
 *   collectives  every recorded collective, blocking and nonblocking, on MPI_COMM_WORLD and on
 *                communicators made by dup, split and create, with a user operation
 *   nonblocking  tests, waitany/waitsome/testany/testsome, probes and receives from
 *                MPI_ANY_SOURCE, sendrecv(_replace), synchronous and ready sends, derived types
 *   persistent   a 1-D halo exchange on persistent requests (MPI_Send_init, MPI_Ssend_init,
 *                MPI_Recv_init from a named source and from MPI_ANY_SOURCE), started by
 *                MPI_Startall and MPI_Start, completed by Waitall and Wait (an inactive one
 *                tested), reused over steps with compute between them, then freed
 *   irregular    MPI_Reduce_scatter with uneven counts and MPI_Alltoallw with a type per peer
 *                (a derived one among them), blocking, nonblocking and in place, on
 *                MPI_COMM_WORLD and on a split communicator
 *   matched      matched probes: MPI_Mprobe from a named source and from MPI_ANY_SOURCE (one
 *                sender only, so the pattern does not depend on timing), MPI_Mrecv, MPI_Imrecv,
 *                MPI_Mprobe of MPI_PROC_NULL, MPI_Improbe for a message never sent
 *   matched_poll MPI_Improbe until a message is there, then MPI_Mrecv (the number of
 *                fruitless probes depends on the platform)
 *   buffered     buffered sends: MPI_Buffer_attach, MPI_Bsend, MPI_Ibsend, MPI_Bsend_init and
 *                MPI_Start, MPI_Buffer_detach (which waits for the buffered messages to leave)
 *   persistent_collectives
 *                every persistent collective (MPI_Barrier_init ... MPI_Alltoallw_init), a user
 *                operation and a derived type among them, on MPI_COMM_WORLD and on a split
 *                communicator, started over steps (MPI_Startall, MPI_Start) with compute
 *                between, completed by Waitall and Wait, then freed
 *   cancel       MPI_Cancel of a receive never matched (withdrawn: MPI_Test_cancelled says so)
 *                and of a send (simmpi never cancels a send: it is delivered and received)
 *   intercomm    an intercommunicator between the even and the odd ranks (MPI_Intercomm_create):
 *                messages between them (blocking and nonblocking), collectives on it (rooted ones
 *                with MPI_ROOT and MPI_PROC_NULL, nonblocking ones), its dup, the
 *                intracommunicator MPI_Intercomm_merge makes of it, and MPI_Comm_create_group
 *                of every third rank of that
 *   polling      MPI_Iprobe until a message is there, behind a computation whose time depends on
 *                the node (the number of fruitless polls depends on the platform, the pattern
 *                does not), and a fixed number of probes for a message never sent
 * Values are checked where the program decides something from them, so a run also tests MPI. */
#include <cblas.h>
#include <mpi.h>
#include <simmpi_compute.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void stencil(void) {
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  const int px = rank % dims[0], py = rank / dims[0];
  const int nb[4] = {
      ((px + dims[0] - 1) % dims[0]) + py * dims[0], ((px + 1) % dims[0]) + py * dims[0],
      px + ((py + dims[1] - 1) % dims[1]) * dims[0], px + ((py + 1) % dims[1]) * dims[0]};
  enum { n = 64, halo = 4096 };
  double *a = calloc(n * n, sizeof(double)), *c = calloc(n * n, sizeof(double));
  double *out = calloc(4 * halo, sizeof(double)), *in = calloc(4 * halo, sizeof(double));
  for (int step = 0; step < 5; ++step) {
    MPI_Request q[8];
    for (int d = 0; d < 4; ++d) {
      MPI_Irecv(in + d * halo, halo, MPI_DOUBLE, nb[d], d ^ 1, MPI_COMM_WORLD, &q[d]);
      MPI_Isend(out + d * halo, halo, MPI_DOUBLE, nb[d], d, MPI_COMM_WORLD, &q[4 + d]);
    }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, a, n, 0.0, c, n);
    SIMMPI_COMPUTE(1e6 * (rank + 1), 1e5);
    MPI_Waitall(8, q, MPI_STATUSES_IGNORE);
    double r = rank, sum;
    MPI_Allreduce(&r, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (sum != size * (size - 1) / 2.0) MPI_Abort(MPI_COMM_WORLD, 3);
    SIMMPI_SLEEP(1e-6 * (step + 1));
  }
  free(a), free(c), free(out), free(in);
}

static void maxabs(void* in, void* inout, int* len, MPI_Datatype* t) {
  (void)t;
  for (int i = 0; i < *len; ++i)
    if (((int*)in)[i] > ((int*)inout)[i]) ((int*)inout)[i] = ((int*)in)[i];
}

static void collectives_on(MPI_Comm comm, MPI_Op user) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  enum { m = 3000 };
  int *s = calloc((size_t)m * n, sizeof(int)), *r = calloc((size_t)m * n, sizeof(int));
  int *counts = calloc(n, sizeof(int)), *displs = calloc(n, sizeof(int));
  for (int i = 0; i < n; ++i) counts[i] = 100 + 10 * i, displs[i] = i * 200;
  MPI_Barrier(comm);
  MPI_Bcast(s, m, MPI_INT, n - 1, comm);
  MPI_Reduce(s, r, m, MPI_INT, MPI_SUM, 0, comm);
  MPI_Allreduce(s, r, m, MPI_INT, user, comm);
  MPI_Allreduce(MPI_IN_PLACE, r, 17, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Gather(s, m / 4, MPI_INT, r, m / 4, MPI_INT, 0, comm);
  MPI_Scatter(s, m / 4, MPI_INT, r, m / 4, MPI_INT, n / 2, comm);
  MPI_Allgather(s, 500, MPI_INT, r, 500, MPI_INT, comm);
  MPI_Alltoall(s, 300, MPI_INT, r, 300, MPI_INT, comm);
  MPI_Allgatherv(s, counts[me], MPI_INT, r, counts, displs, MPI_INT, comm);
  MPI_Gatherv(s, counts[me], MPI_INT, r, counts, displs, MPI_INT, 0, comm);
  MPI_Scatterv(s, counts, displs, MPI_INT, r, counts[me], MPI_INT, 0, comm);
  MPI_Alltoallv(s, counts, displs, MPI_INT, r, counts, displs, MPI_INT, comm);
  MPI_Reduce_scatter_block(s, r, 200, MPI_INT, MPI_SUM, comm);
  MPI_Scan(s, r, 1000, MPI_INT, MPI_SUM, comm);
  MPI_Exscan(s, r, 1000, MPI_INT, MPI_SUM, comm);
  MPI_Request q[4];
  MPI_Ibcast(s, m, MPI_INT, 0, comm, &q[0]);
  MPI_Iallreduce(s + m, r + m, 500, MPI_INT, MPI_SUM, comm, &q[1]);
  MPI_Ibarrier(comm, &q[2]);
  MPI_Ialltoall(s, 100, MPI_INT, r, 100, MPI_INT, comm, &q[3]);
  SIMMPI_COMPUTE(5e6, 0);
  MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
  free(s), free(r), free(counts), free(displs);
}

static void collectives(void) {
  MPI_Op user;
  MPI_Op_create(maxabs, 1, &user);
  collectives_on(MPI_COMM_WORLD, user);
  MPI_Comm dup, half, odd;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  collectives_on(dup, user);
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  collectives_on(half, user);
  MPI_Group world, odds;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int members[64], k = 0;
  for (int i = 1; i < size; i += 2) members[k++] = i;
  MPI_Group_incl(world, k, members, &odds);
  MPI_Comm_create(MPI_COMM_WORLD, odds, &odd);
  if (odd != MPI_COMM_NULL) {
    collectives_on(odd, user);
    MPI_Comm_free(&odd);
  }
  MPI_Group_free(&odds), MPI_Group_free(&world);
  MPI_Comm_free(&half), MPI_Comm_free(&dup);
  MPI_Op_free(&user);
}

static void nonblocking(void) {
  enum { big = 200000 };
  char* buf = calloc(big, 1);
  char* in = calloc((size_t)big * 4, 1);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  /* a ring: test until done, with compute between tests */
  MPI_Request q[2];
  MPI_Irecv(in, big, MPI_CHAR, prev, 1, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(buf, big, MPI_CHAR, next, 1, MPI_COMM_WORLD, &q[1]);
  int done = 0;
  while (!done) {
    SIMMPI_COMPUTE(2e5, 0);
    MPI_Testall(2, q, &done, MPI_STATUSES_IGNORE);
  }
  /* everyone sends to rank 0, which receives from any source */
  if (rank == 0) {
    for (int i = 1; i < size; ++i) {
      MPI_Status st;
      MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      int count;
      MPI_Get_count(&st, MPI_CHAR, &count);
      MPI_Recv(in, count, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(in, big, MPI_CHAR, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else {
    SIMMPI_COMPUTE(1e6 * (size - rank), 0);
    MPI_Send(buf, 1000 * rank, MPI_CHAR, 0, rank, MPI_COMM_WORLD);
    MPI_Ssend(buf, 70000, MPI_CHAR, 0, 9, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* rank 0's wildcards match nothing of what follows */
  /* waitany and waitsome over receives from both neighbours */
  MPI_Request r[4];
  MPI_Irecv(in, 5000, MPI_CHAR, prev, 2, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(in + big, 90000, MPI_CHAR, next, 3, MPI_COMM_WORLD, &r[1]);
  SIMMPI_COMPUTE(3e5 * rank, 0);
  MPI_Isend(buf, 5000, MPI_CHAR, next, 2, MPI_COMM_WORLD, &r[2]);
  MPI_Isend(buf, 90000, MPI_CHAR, prev, 3, MPI_COMM_WORLD, &r[3]);
  int index, outcount, idx[4];
  MPI_Waitany(4, r, &index, MPI_STATUS_IGNORE);
  int flag = 0;
  while (!flag) MPI_Testany(4, r, &index, &flag, MPI_STATUS_IGNORE);
  MPI_Waitsome(4, r, &outcount, idx, MPI_STATUSES_IGNORE);
  MPI_Testsome(4, r, &outcount, idx, MPI_STATUSES_IGNORE);
  MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
  /* Iprobe polling, test of a single request, request_free */
  MPI_Request one;
  MPI_Isend(buf, 100, MPI_CHAR, next, 4, MPI_COMM_WORLD, &one);
  MPI_Request_free(&one);
  flag = 0;
  while (!flag) MPI_Iprobe(prev, 4, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  MPI_Recv(in, 100, MPI_CHAR, prev, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Irecv(in, 100, MPI_CHAR, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &one);
  MPI_Rsend(buf, 0, MPI_CHAR, rank, 5, MPI_COMM_WORLD);
  flag = 0;
  while (!flag) MPI_Test(&one, &flag, MPI_STATUS_IGNORE);
  /* sendrecv, sendrecv_replace, a derived type */
  MPI_Datatype col;
  MPI_Type_vector(100, 3, 7, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  double* d = calloc(800, sizeof(double));
  MPI_Sendrecv(d, 1, col, next, 6, in, 2400, MPI_CHAR, prev, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv_replace(d, 1, col, next, 7, prev, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&col);
  (void)MPI_Wtime();
  free(d), free(buf), free(in);
}

static void persistent(void) {
  enum { halo = 20000 };
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double *out = calloc(2 * halo, sizeof(double)), *in = calloc(2 * halo, sizeof(double));
  int token = rank, got = -1;
  MPI_Request q[4], tok_send, tok_recv;
  MPI_Recv_init(in, halo, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD, &q[0]);
  MPI_Recv_init(in + halo, halo / 2, MPI_DOUBLE, next, 2, MPI_COMM_WORLD, &q[1]);
  MPI_Send_init(out, halo, MPI_DOUBLE, next, 1, MPI_COMM_WORLD, &q[2]);
  MPI_Ssend_init(out + halo, halo / 2, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &q[3]);
  MPI_Send_init(&token, 1, MPI_INT, next, 3, MPI_COMM_WORLD, &tok_send);
  MPI_Recv_init(&got, 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &tok_recv);
  for (int step = 0; step < 4; ++step) {
    MPI_Startall(4, q);
    SIMMPI_COMPUTE(4e5 * (1 + (rank + step) % 3), 1e5);
    MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
    MPI_Start(&tok_recv);
    MPI_Start(&tok_send);
    MPI_Wait(&tok_send, MPI_STATUS_IGNORE);
    MPI_Wait(&tok_recv, MPI_STATUS_IGNORE);
    if (got != prev + step * size) MPI_Abort(MPI_COMM_WORLD, 4);
    int flag = 0; /* an inactive persistent request tests complete: timing plays no part */
    MPI_Test(&q[0], &flag, MPI_STATUS_IGNORE);
    if (!flag) MPI_Abort(MPI_COMM_WORLD, 4);
    token += size;
    SIMMPI_SLEEP(2e-6);
  }
  for (int i = 0; i < 4; ++i) MPI_Request_free(&q[i]);
  MPI_Request_free(&tok_send), MPI_Request_free(&tok_recv);
  free(out), free(in);
}

static void irregular_on(MPI_Comm comm) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  const size_t un = (size_t)n;
  int *wcounts = calloc(un, sizeof(int)), *wdispls = calloc(un, sizeof(int));
  int* rs = calloc(un, sizeof(int)); /* reduce-scatter counts: uneven */
  MPI_Datatype* types = calloc(un, sizeof(MPI_Datatype));
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);
  int total = 0, bytes = 0;
  for (int i = 0; i < n; ++i) {
    rs[i] = 100 + 700 * (i % 4);
    total += rs[i];
    types[i] = i % 3 == 0 ? MPI_DOUBLE : i % 3 == 1 ? MPI_INT : pair;
    wcounts[i] = 40 + 25 * i;
    wdispls[i] = bytes;
    bytes += wcounts[i] * 16;
  }
  int *in = calloc((size_t)total, sizeof(int)), *out = calloc((size_t)total, sizeof(int));
  for (int i = 0; i < total; ++i) in[i] = 1;
  MPI_Reduce_scatter(in, out, rs, MPI_INT, MPI_SUM, comm);
  if (out[0] != n) MPI_Abort(MPI_COMM_WORLD, 5);
  MPI_Reduce_scatter(MPI_IN_PLACE, in, rs, MPI_INT, MPI_SUM, comm);
  char *s = calloc((size_t)bytes, 1), *r = calloc((size_t)bytes, 1);
  MPI_Alltoallw(s, wcounts, wdispls, types, r, wcounts, wdispls, types, comm);
  MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, r, wcounts, wdispls, types, comm);
  MPI_Request q[2];
  MPI_Ireduce_scatter(out, in, rs, MPI_INT, MPI_MAX, comm, &q[0]);
  MPI_Ialltoallw(s, wcounts, wdispls, types, r, wcounts, wdispls, types, comm, &q[1]);
  SIMMPI_COMPUTE(2e6 * (me + 1), 0);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  MPI_Type_free(&pair);
  free(wcounts), free(wdispls), free(types), free(rs);
  free(in), free(out), free(s), free(r);
}

static void irregular(void) {
  irregular_on(MPI_COMM_WORLD);
  MPI_Comm third;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 3, rank, &third);
  irregular_on(third);
  MPI_Comm_free(&third);
}

static void matched(void) {
  enum { big = 100000 };
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  char *out = calloc(big, 1), *in = calloc(2 * big, 1);
  MPI_Request q[3];
  MPI_Isend(out, big, MPI_CHAR, next, 1, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(out, 300 + rank, MPI_CHAR, prev, 2, MPI_COMM_WORLD, &q[1]);
  SIMMPI_COMPUTE(1e6 * (rank % 3 + 1), 0);
  MPI_Message m;
  MPI_Status st;
  MPI_Mprobe(prev, 1, MPI_COMM_WORLD, &m, &st);
  int count;
  MPI_Get_count(&st, MPI_CHAR, &count);
  if (count != big) MPI_Abort(MPI_COMM_WORLD, 6);
  MPI_Mrecv(in, count, MPI_CHAR, &m, MPI_STATUS_IGNORE);
  MPI_Mprobe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &m, &st);
  if (st.MPI_SOURCE != next) MPI_Abort(MPI_COMM_WORLD, 6);
  MPI_Imrecv(in + big, 300 + next, MPI_CHAR, &m, &q[2]);
  MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
  MPI_Mrecv(in, 0, MPI_CHAR, &m, MPI_STATUS_IGNORE);
  int flag = 1;
  MPI_Improbe(prev, 99, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE);
  if (flag) MPI_Abort(MPI_COMM_WORLD, 6);
  MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
  free(out), free(in);
}

static void matched_poll(void) {
  const int next = (rank + 1) % size;
  char buf[5000] = {0}, in[5000];
  MPI_Request q;
  SIMMPI_COMPUTE(2e6 * (rank + 1), 0);
  MPI_Isend(buf, sizeof buf, MPI_CHAR, next, 3, MPI_COMM_WORLD, &q);
  int flag = 0;
  MPI_Message m;
  while (!flag) MPI_Improbe(MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE);
  MPI_Mrecv(in, sizeof in, MPI_CHAR, &m, MPI_STATUS_IGNORE);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
}

static void buffered(void) {
  enum { n = 30000 };
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  const int space = 3 * (n + MPI_BSEND_OVERHEAD);
  char *attached = malloc(space), *out = calloc(n, 1), *in = calloc(n, 1);
  MPI_Buffer_attach(attached, space);
  MPI_Request q[2];
  MPI_Bsend(out, n, MPI_CHAR, next, 1, MPI_COMM_WORLD);
  MPI_Ibsend(out, n / 2, MPI_CHAR, next, 2, MPI_COMM_WORLD, &q[0]);
  MPI_Bsend_init(out, n / 3, MPI_CHAR, next, 3, MPI_COMM_WORLD, &q[1]);
  MPI_Start(&q[1]);
  SIMMPI_COMPUTE(1e6 * (rank + 1), 0);
  MPI_Recv(in, n, MPI_CHAR, prev, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(in, n, MPI_CHAR, prev, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(in, n, MPI_CHAR, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  MPI_Request_free(&q[1]);
  void* back;
  int bytes;
  MPI_Buffer_detach(&back, &bytes);
  if (back != attached || bytes != space) MPI_Abort(MPI_COMM_WORLD, 7);
  free(attached), free(out), free(in);
}

static void persistent_collectives_on(MPI_Comm comm, MPI_Op user) {
  int me, n;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  enum { m = 2000, kinds = 16 };
  const size_t un = (size_t)n;
  int *s = calloc(m * un, sizeof(int)), *r = calloc(2 * m * un, sizeof(int));
  int *counts = calloc(un, sizeof(int)), *displs = calloc(un, sizeof(int));
  MPI_Datatype* types = calloc(un, sizeof(MPI_Datatype));
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  for (int i = 0; i < n; ++i) {
    counts[i] = 100 + 10 * i, displs[i] = i * 200;
    types[i] = i % 2 ? pair : MPI_INT;
  }
  int* bytes = calloc(un, sizeof(int)); /* Alltoallw's displacements are bytes */
  for (int i = 0; i < n; ++i) bytes[i] = displs[i] * 8;
  MPI_Request q[kinds];
  MPI_Barrier_init(comm, MPI_INFO_NULL, &q[0]);
  MPI_Bcast_init(s, m, MPI_INT, n - 1, comm, MPI_INFO_NULL, &q[1]);
  MPI_Reduce_init(s, r, m, MPI_INT, MPI_SUM, 0, comm, MPI_INFO_NULL, &q[2]);
  MPI_Allreduce_init(s, r, m, MPI_INT, user, comm, MPI_INFO_NULL, &q[3]);
  MPI_Gather_init(s, m / 4, MPI_INT, r, m / 4, MPI_INT, 0, comm, MPI_INFO_NULL, &q[4]);
  MPI_Scatter_init(s, m / 4, MPI_INT, r, m / 4, MPI_INT, n / 2, comm, MPI_INFO_NULL, &q[5]);
  MPI_Allgather_init(s, 500, MPI_INT, r, 500, MPI_INT, comm, MPI_INFO_NULL, &q[6]);
  MPI_Alltoall_init(s, 300, MPI_INT, r, 300, MPI_INT, comm, MPI_INFO_NULL, &q[7]);
  MPI_Allgatherv_init(s, counts[me], MPI_INT, r, counts, displs, MPI_INT, comm, MPI_INFO_NULL,
                      &q[8]);
  MPI_Gatherv_init(s, counts[me], MPI_INT, r, counts, displs, MPI_INT, 0, comm, MPI_INFO_NULL,
                   &q[9]);
  MPI_Scatterv_init(s, counts, displs, MPI_INT, r, counts[me], MPI_INT, 0, comm, MPI_INFO_NULL,
                    &q[10]);
  MPI_Alltoallv_init(s, counts, displs, MPI_INT, r, counts, displs, MPI_INT, comm, MPI_INFO_NULL,
                     &q[11]);
  MPI_Reduce_scatter_block_init(s, r, 200, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &q[12]);
  MPI_Reduce_scatter_init(s, r, counts, MPI_INT, MPI_MAX, comm, MPI_INFO_NULL, &q[13]);
  MPI_Scan_init(s, r, 1000, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &q[14]);
  MPI_Exscan_init(s, r, 1000, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &q[15]);
  MPI_Request w;
  MPI_Alltoallw_init(s, counts, bytes, types, r, counts, bytes, types, comm, MPI_INFO_NULL, &w);
  for (int step = 0; step < 3; ++step) {
    /* one at a time: started together they would share the two buffers */
    for (int k = 0; k < kinds; ++k) {
      MPI_Start(&q[k]);
      if (k % 4 == 0) SIMMPI_COMPUTE(1e6 * (me % 3 + 1), 1e4);
      MPI_Wait(&q[k], MPI_STATUS_IGNORE);
    }
    MPI_Startall(1, &w);
    SIMMPI_COMPUTE(2e6 * (step + 1), 0);
    MPI_Waitall(1, &w, MPI_STATUSES_IGNORE);
  }
  s[0] = me + 1;
  MPI_Start(&q[3]); /* the user operation: the largest */
  MPI_Wait(&q[3], MPI_STATUS_IGNORE);
  if (r[0] != n) MPI_Abort(MPI_COMM_WORLD, 7);
  for (int k = 0; k < kinds; ++k) MPI_Request_free(&q[k]);
  MPI_Request_free(&w);
  MPI_Type_free(&pair);
  free(s), free(r), free(counts), free(displs), free(types), free(bytes);
}

static void persistent_collectives(void) {
  MPI_Op user;
  MPI_Op_create(maxabs, 1, &user);
  persistent_collectives_on(MPI_COMM_WORLD, user);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  persistent_collectives_on(half, user);
  MPI_Comm_free(&half);
  MPI_Op_free(&user);
}

static void cancel(void) {
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  char buf[4000] = {0}, in[4000];
  MPI_Request never, sent;
  MPI_Status st;
  MPI_Irecv(in, 100, MPI_CHAR, prev, 77, MPI_COMM_WORLD, &never);
  MPI_Isend(buf, sizeof buf, MPI_CHAR, next, 5, MPI_COMM_WORLD, &sent);
  SIMMPI_COMPUTE(1e6 * (rank % 3 + 1), 0);
  MPI_Cancel(&never);
  MPI_Cancel(&sent);
  MPI_Wait(&never, &st);
  int cancelled = 0;
  MPI_Test_cancelled(&st, &cancelled);
  if (!cancelled) MPI_Abort(MPI_COMM_WORLD, 8);
  MPI_Recv(in, sizeof in, MPI_CHAR, prev, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&sent, &st);
  MPI_Test_cancelled(&st, &cancelled);
  if (cancelled) MPI_Abort(MPI_COMM_WORLD, 8);
}

static void intercomm(void) {
  enum { m = 5000 };
  const int color = rank % 2;
  MPI_Comm half, inter, dup, merged;
  MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
  /* the leaders: world ranks 0 (evens) and 1 (odds) */
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 42, &inter);
  int me, remote;
  MPI_Comm_rank(inter, &me);
  MPI_Comm_remote_size(inter, &remote);
  int *s = calloc(2 * m * (size_t)size, sizeof(int)),
      *r = calloc(2 * m * (size_t)size, sizeof(int));
  if (me < remote) { /* a partner of the same rank in the other group */
    MPI_Request q[2];
    MPI_Irecv(r, m, MPI_INT, me, 1, inter, &q[0]);
    MPI_Isend(s, m, MPI_INT, me, 1, inter, &q[1]);
    SIMMPI_COMPUTE(1e6 * (rank % 3 + 1), 0);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    if (color)
      MPI_Recv(r, 2 * m, MPI_INT, me, 2, inter, MPI_STATUS_IGNORE);
    else
      MPI_Send(s, 2 * m, MPI_INT, me, 2, inter);
  }
  const int root = color ? 0 : me == 0 ? MPI_ROOT : MPI_PROC_NULL; /* evens' rank 0 sends */
  s[0] = 7;
  MPI_Bcast(s, m, MPI_INT, root, inter);
  if (color && s[0] != 7) MPI_Abort(MPI_COMM_WORLD, 9);
  MPI_Allreduce(s, r, m, MPI_INT, MPI_SUM, inter);
  MPI_Allgather(s, 300, MPI_INT, r, 300, MPI_INT, inter);
  MPI_Alltoall(s, 200, MPI_INT, r, 200, MPI_INT, inter);
  MPI_Gather(s, 400, MPI_INT, r, 400, MPI_INT, root, inter);
  MPI_Barrier(inter);
  MPI_Request q[2];
  MPI_Ibcast(s, m, MPI_INT, root, inter, &q[0]);
  MPI_Iallreduce(s + m, r + m, 1000, MPI_INT, MPI_MAX, inter, &q[1]);
  SIMMPI_COMPUTE(2e6 * (me + 1), 0);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  MPI_Comm_dup(inter, &dup);
  MPI_Allreduce(s, r, 100, MPI_INT, MPI_SUM, dup);
  MPI_Intercomm_merge(dup, color, &merged);
  int mine = rank, sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, merged);
  if (sum != size * (size - 1) / 2) MPI_Abort(MPI_COMM_WORLD, 9);
  if (rank % 3 == 0) { /* only the group's members call it */
    MPI_Group all, thirds;
    MPI_Comm_group(merged, &all);
    int k = 0, members[64];
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (int i = 0; i < size; ++i) { /* the merged ranks of world ranks 0, 3, 6... */
      int world_rank;
      MPI_Group_translate_ranks(all, 1, &i, world, &world_rank);
      if (world_rank % 3 == 0) members[k++] = i;
    }
    MPI_Group_free(&world);
    MPI_Group_incl(all, k, members, &thirds);
    MPI_Comm third;
    MPI_Comm_create_group(merged, thirds, 5, &third);
    MPI_Allreduce(s, r, 700, MPI_INT, MPI_SUM, third);
    MPI_Comm_free(&third);
    MPI_Group_free(&thirds), MPI_Group_free(&all);
  }
  MPI_Comm_free(&merged), MPI_Comm_free(&dup), MPI_Comm_free(&inter), MPI_Comm_free(&half);
  free(s), free(r);
}

static void polling(void) {
  const int partner = rank ^ 1;
  if (partner >= size) return;
  char buf[64] = {0};
  for (int step = 0; step < 3; ++step) {
    if (rank & 1) {
      int flag = 0;
      while (!flag) MPI_Iprobe(partner, 8, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      MPI_Recv(buf, 64, MPI_CHAR, partner, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      for (int i = 0; i < 5; ++i) MPI_Iprobe(partner, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      if (flag) MPI_Abort(MPI_COMM_WORLD, 4); /* tag 9 is never sent */
    } else {
      SIMMPI_COMPUTE(1.234567e6 * (step + 1), 1e5);
      MPI_Send(buf, 64, MPI_CHAR, partner, 8, MPI_COMM_WORLD);
    }
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "stencil"))
      stencil();
    else if (!strcmp(argv[i], "collectives"))
      collectives();
    else if (!strcmp(argv[i], "nonblocking"))
      nonblocking();
    else if (!strcmp(argv[i], "persistent"))
      persistent();
    else if (!strcmp(argv[i], "irregular"))
      irregular();
    else if (!strcmp(argv[i], "matched"))
      matched();
    else if (!strcmp(argv[i], "matched_poll"))
      matched_poll();
    else if (!strcmp(argv[i], "buffered"))
      buffered();
    else if (!strcmp(argv[i], "persistent_collectives"))
      persistent_collectives();
    else if (!strcmp(argv[i], "cancel"))
      cancel();
    else if (!strcmp(argv[i], "intercomm"))
      intercomm();
    else if (!strcmp(argv[i], "polling"))
      polling();
    else {
      fprintf(stderr, "replay_mix: unknown part %s\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  MPI_Finalize();
  return 0;
}
