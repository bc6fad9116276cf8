/* SPDX-License-Identifier: Apache-2.0 */
/* Half of a two-file program, to check separate compilation and linking with simmpicc. */
#include <mpi.h>
#include <stdio.h>

int sum_over_ranks(int value); /* in two_files_helper.c */

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int total = sum_over_ranks(rank);
  if (rank == 0) printf("two_files: total=%d expected=%d\n", total, size * (size - 1) / 2);
  MPI_Finalize();
  return total != size * (size - 1) / 2;
}
