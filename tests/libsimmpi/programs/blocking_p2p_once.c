/* SPDX-License-Identifier: Apache-2.0 */
/* A blocking synchronous send whose receive is posted late: rank 0's MPI_Ssend returns when
 * rank 1, after 2 ms of compute, has received the message. Each rank is resumed once in its
 * call, when the message is through: the postings (rank 0's at the end of its send overhead,
 * rank 1's at the end of its compute) are the scheduler's work. The test that runs this counts
 * the switches into MPI_Ssend and MPI_Recv (runtime.report_switches): 1 each. */
#include <simmpi.h>
#include <simmpi_compute.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double v[4] = {0, 0, 0, 0};
  if (rank == 0) {
    v[3] = 42;
    MPI_Ssend(v, 4, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    const double t = simmpi_now();
    CHECK(t > 2e-3 && t < 2.1e-3, "MPI_Ssend returned at %g s, not just after the receive", t);
  } else if (rank == 1) {
    simmpi_sleep(2e-3);
    MPI_Recv(v, 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(v[3] == 42, "received %g, not 42", v[3]);
  }
  return finish("blocking_p2p_once");
}
