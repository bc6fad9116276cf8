/* SPDX-License-Identifier: Apache-2.0 */
/* Datatype misuse under MPI_ERRORS_ARE_FATAL: each mode (argv[1]) makes one mistake; the run
 * must end with a message naming the call, the rank and the argument. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, x[4] = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "";
  MPI_Datatype t;
  MPI_Type_vector(2, 1, 2, MPI_INT, &t);
  if (strcmp(mode, "uncommitted") == 0 && rank == 1) MPI_Send(x, 1, t, 0, 0, MPI_COMM_WORLD);
  if (strcmp(mode, "freed") == 0 && rank == 1) {
    MPI_Datatype stale = t;
    MPI_Type_free(&t);
    MPI_Type_commit(&stale);
  }
  if (strcmp(mode, "count") == 0 && rank == 2) MPI_Type_contiguous(-3, MPI_INT, &t);
  if (strcmp(mode, "null") == 0 && rank == 0) MPI_Type_vector(2, 1, 2, MPI_DATATYPE_NULL, &t);
  if (strcmp(mode, "struct") == 0 && rank == 1) {
    int lengths[3] = {1, 1, 1};
    MPI_Aint displs[3] = {0, 8, 16};
    MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_DATATYPE_NULL};
    MPI_Type_create_struct(3, lengths, displs, types, &t);
  }
  MPI_Finalize();
  return 0;
}
