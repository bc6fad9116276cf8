/* SPDX-License-Identifier: Apache-2.0 */
/* A spawn that fails under the default error handler (MPI_ERRORS_ARE_FATAL), for its message:
 *   spawn_misuse.sim -n P -- CHILDREN [COMMAND]   (COMMAND: this program by default) */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm inter;
  const char* command = argc > 2 ? argv[2] : argv[0];
  MPI_Comm_spawn(command, MPI_ARGV_NULL, argc > 1 ? atoi(argv[1]) : 1, MPI_INFO_NULL, 0,
                 MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
  MPI_Finalize();
  return 0;
}
