/* SPDX-License-Identifier: Apache-2.0 */
/* MPI_Waitall returns at the latest completion of its requests, and its rank is resumed once,
 * not once per request: rank 0 waits for messages from ranks 1..4 that arrive in the order of
 * its request array (rank i computes i ms first), plus a send of its own. The test that runs this
 * counts the switches into MPI_Waitall (runtime.report_switches): 1. */
#include <simmpi.h>
#include <simmpi_compute.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 5, "needs 5 ranks, has %d", size);
  double buf[4][128] = {{0}};
  if (rank == 0) {
    MPI_Request reqs[5];
    for (int i = 1; i <= 4; ++i)
      MPI_Irecv(buf[i - 1], 128, MPI_DOUBLE, i, 0, MPI_COMM_WORLD, &reqs[i - 1]);
    MPI_Isend(buf[0], 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &reqs[4]);
    MPI_Waitall(5, reqs, MPI_STATUSES_IGNORE);
    const double t = simmpi_now();
    /* rank 4's message leaves after 4 ms of compute and takes well under a millisecond */
    CHECK(t > 4e-3 && t < 4.5e-3, "Waitall returned at %g s, not just after rank 4's 4 ms", t);
    for (int i = 1; i <= 4; ++i) CHECK(buf[i - 1][127] == i, "message %d not received", i);
  } else {
    double out[128];
    for (int k = 0; k < 128; ++k) out[k] = rank;
    simmpi_sleep(rank * 1e-3);
    MPI_Send(out, 128, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    if (rank == 1) MPI_Recv(out, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return finish("waitall_once");
}
