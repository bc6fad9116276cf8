/* SPDX-License-Identifier: Apache-2.0 */
/* The profiling interface (MPI-3.1 14.2) as a tool uses it: this program defines its own
 * MPI_Send and MPI_Barrier, which count calls and forward to PMPI_Send and PMPI_Barrier; simmpi's
 * functions stay reachable under their PMPI_ names. Each rank sends its right neighbour 3
 * messages and takes 2 barriers, so the counters must read 3 and 2. */
#include "check.h"

static int sends, barriers;

int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) {
  sends++;
  return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int MPI_Barrier(MPI_Comm comm) {
  barriers++;
  return PMPI_Barrier(comm);
}

int main(int argc, char** argv) {
  int rank, size, got = -1;
  PMPI_Init(&argc, &argv);
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < 3; ++i) {
    MPI_Request r;
    MPI_Irecv(&got, 1, MPI_INT, left, i, MPI_COMM_WORLD, &r);
    MPI_Send(&rank, 1, MPI_INT, right, i, MPI_COMM_WORLD);
    PMPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(got == left, "message %d: got %d, expected %d", i, got, left);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(sends == 3 && barriers == 2, "the tool counted %d sends and %d barriers, expected 3, 2",
        sends, barriers);
  return finish("pmpi");
}
