/* SPDX-License-Identifier: Apache-2.0 */
/* Every rank receives from its right neighbour before sending: a deadlock the simulator must
 * report, naming each rank, its call and what it waits for. With an argument "poll", ranks poll
 * with MPI_Test instead of blocking, which must be reported too rather than spin forever. With
 * "nbc", rank 0 waits for an MPI_Ibcast from rank 1, which never starts it: the report names
 * rank 0's nonblocking collective too. With "rounds", rank 0 waits in simmpi_poll_rounds with
 * no bound on the rounds. With "ssend", every rank starts with an MPI_Ssend that nobody receives:
 * a blocked synchronous send is reported like a blocked receive. */
#include <mpi.h>
#include <simmpi.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, v = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "nbc") == 0) {
    MPI_Request r;
    if (rank == 0) {
      MPI_Ibcast(&v, 1, MPI_INT, 1, MPI_COMM_WORLD, &r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else if (argc > 1 && strcmp(argv[1], "rounds") == 0 && rank == 0) {
    long round = 0;
    simmpi_poll_rounds(1e-3, -1, 1, 7, MPI_COMM_WORLD, &round);
  } else if (argc > 1 && strcmp(argv[1], "ssend") == 0) {
    MPI_Ssend(&v, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD);
  } else if (argc > 1 && strcmp(argv[1], "poll") == 0) {
    MPI_Request r;
    int flag = 0;
    MPI_Irecv(&v, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, &r);
    while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&v, 1, MPI_INT, (rank + 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Send(&v, 1, MPI_INT, (rank + size - 1) % size, 7, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
