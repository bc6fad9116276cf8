/* SPDX-License-Identifier: Apache-2.0 */
/* Every rank receives from its right neighbour before sending: a deadlock the simulator must
 * report, naming each rank, its call and what it waits for. With an argument "poll", ranks poll
 * with MPI_Test instead of blocking, which must be reported too rather than spin forever. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, v = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "poll") == 0) {
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
