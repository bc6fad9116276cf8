/* SPDX-License-Identifier: Apache-2.0 */
/* Nonblocking neighborhood collectives (MPI-3.1 7.7) on a periodic ring (a 1-D Cartesian
 * topology): in- and out-neighbors are (left, right). Rank r sends block 0 to its left and
 * block 1 to its right, so it receives 10 left + 1 in block 0 and 10 right + 0 in block 1, also
 * when left and right are one rank (2 ranks) or itself (1 rank). Several are in flight at once
 * and complete in any order without mixing their messages. */
#include "check.h"

static int left, right;

static void check_pair(const int* got, int a, int b, const char* what) {
  CHECK(got[0] == a && got[1] == b, "%s: got {%d, %d}, expected {%d, %d}", what, got[0], got[1], a,
        b);
}

static void in_flight_together(MPI_Comm ring, int rank) {
  int a_send[2] = {10 * rank, 10 * rank + 1}, a_recv[2] = {-1, -1};
  int b_send = 100 + rank, b_recv[2] = {-1, -1};
  int c_send[2] = {1000 * rank, 1000 * rank + 1}, c_recv[2] = {-1, -1};
  int counts[2] = {1, 1}, displs[2] = {0, 1};
  MPI_Request r[3];
  MPI_Ineighbor_alltoall(a_send, 1, MPI_INT, a_recv, 1, MPI_INT, ring, &r[0]);
  MPI_Ineighbor_allgather(&b_send, 1, MPI_INT, b_recv, 1, MPI_INT, ring, &r[1]);
  MPI_Ineighbor_alltoallv(c_send, counts, displs, MPI_INT, c_recv, counts, displs, MPI_INT, ring,
                          &r[2]);
  MPI_Wait(&r[2], MPI_STATUS_IGNORE);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Wait(&r[1], MPI_STATUS_IGNORE);
  check_pair(a_recv, 10 * left + 1, 10 * right, "MPI_Ineighbor_alltoall");
  check_pair(b_recv, 100 + left, 100 + right, "MPI_Ineighbor_allgather");
  check_pair(c_recv, 1000 * left + 1, 1000 * right, "MPI_Ineighbor_alltoallv");
}

static void typed(MPI_Comm ring, int rank) {
  double d_send = rank + 0.5, d_recv[4] = {-1, -1, -1, -1};
  int counts[2] = {1, 1}, displs[2] = {0, 2}; /* a gap between the two blocks */
  MPI_Request r;
  MPI_Ineighbor_allgatherv(&d_send, 1, MPI_DOUBLE, d_recv, counts, displs, MPI_DOUBLE, ring, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(d_recv[0] == left + 0.5 && d_recv[1] == -1 && d_recv[2] == right + 0.5,
        "MPI_Ineighbor_allgatherv: {%g, %g, %g}", d_recv[0], d_recv[1], d_recv[2]);

  /* alltoallw: an int to the left, a double to the right, at byte displacements. */
  struct {
    int i;
    double d;
  } out = {7 * rank, 7 * rank + 0.25}, in = {-1, -1};
  int wcounts[2] = {1, 1};
  MPI_Aint sd[2] = {0, (char*)&out.d - (char*)&out}, rd[2] = {(char*)&in.d - (char*)&in, 0};
  MPI_Datatype st[2] = {MPI_INT, MPI_DOUBLE}, rt[2] = {MPI_DOUBLE, MPI_INT};
  /* From the left comes its right block (a double); from the right, its left block (an int). */
  MPI_Ineighbor_alltoallw(&out, wcounts, sd, st, &in, wcounts, rd, rt, ring, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(in.d == 7 * left + 0.25 && in.i == 7 * right, "MPI_Ineighbor_alltoallw: %g and %d", in.d,
        in.i);
}

int main(int argc, char** argv) {
  int rank, size, periods = 1;
  MPI_Comm ring;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periods, 0, &ring);
  MPI_Comm_rank(ring, &rank);
  left = (rank + size - 1) % size, right = (rank + 1) % size;
  for (int round = 0; round < 3; ++round) in_flight_together(ring, rank);
  typed(ring, rank);
  MPI_Comm_free(&ring);
  return finish("ineighbor");
}
