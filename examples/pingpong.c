/* SPDX-License-Identifier: Apache-2.0 */
/* Ping-pong between ranks 0 and 1: prints the one-way time per message size, as measured with
 * MPI_Wtime in simulated time. Usage: pingpong [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    if (rank == 0) fprintf(stderr, "pingpong needs at least 2 ranks\n");
    MPI_Finalize();
    return 1;
  }
  int iterations = argc > 1 ? atoi(argv[1]) : 100;
  const int max_bytes = 1 << 22;
  char* buf = malloc(max_bytes);
  memset(buf, rank, max_bytes);
  if (rank == 0) printf("%10s %14s %12s\n", "bytes", "one-way (us)", "MB/s");
  for (int bytes = 1; bytes <= max_bytes; bytes *= 4) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iterations; ++i) {
      if (rank == 0) {
        MPI_Send(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      }
    }
    double one_way = (MPI_Wtime() - t0) / (2.0 * iterations);
    if (rank == 0) printf("%10d %14.3f %12.1f\n", bytes, one_way * 1e6, bytes / one_way / 1e6);
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
