/* SPDX-License-Identifier: Apache-2.0 */
/* Prints argc and argv from the last rank, to check that arguments reach main unchanged. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == size - 1) {
    printf("ranks=%d argc=%d", size, argc);
    for (int i = 1; i < argc; ++i) printf(" [%s]", argv[i]);
    printf("\n");
  }
  MPI_Finalize();
  return 0;
}
