/* SPDX-License-Identifier: Apache-2.0 */
/* Calls a function simmpi does not implement, chosen by argv[1]; the run must end with one
 * message naming the function, the rank and the reason, and exit status 1:
 *   port   rank 0 calls MPI_Open_port
 *   spawn  rank 2 calls MPI_Comm_spawn */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "";
  int rank = -1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (!strcmp(what, "port") && rank == 0) {
    char port[MPI_MAX_PORT_NAME];
    MPI_Open_port(MPI_INFO_NULL, port);
  }
  if (!strcmp(what, "spawn") && rank == 2) {
    MPI_Comm child;
    MPI_Comm_spawn("worker", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_SELF, &child,
                   MPI_ERRCODES_IGNORE);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
