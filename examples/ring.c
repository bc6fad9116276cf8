/* SPDX-License-Identifier: Apache-2.0 */
/* A token travels once around all ranks: rank 0 sends 0, every rank adds its rank and passes it
 * on. Rank 0 checks the sum. Usage: ring [laps] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int laps = argc > 1 ? atoi(argv[1]) : 1;
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  long long token = 0;
  for (int lap = 0; lap < laps; ++lap) {
    if (rank == 0) {
      MPI_Send(&token, 1, MPI_LONG_LONG, next, 0, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_LONG_LONG, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&token, 1, MPI_LONG_LONG, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      token += rank;
      MPI_Send(&token, 1, MPI_LONG_LONG, next, 0, MPI_COMM_WORLD);
    }
  }
  int status = 0;
  if (rank == 0) {
    long long expected = (long long)laps * size * (size - 1) / 2;
    printf("ring: %d ranks, %d lap(s), token %lld (expected %lld), %.9f s\n", size, laps, token,
           expected, MPI_Wtime());
    status = token == expected ? 0 : 1;
  }
  MPI_Finalize();
  return status;
}
