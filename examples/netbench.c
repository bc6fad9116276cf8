/* SPDX-License-Identifier: Apache-2.0 */
/* One network measurement per run, the same under simmpi and under a native MPI (mpicc), for
 * calibrating the network keys (docs/uq.md): the time of a ping-pong's one-way message (half a
 * round trip) or of an MPI_Allreduce, the fastest of ITERATIONS repetitions after a warm-up,
 * measured with MPI_Wtime. The fastest, not the mean: on a shared machine most repetitions are
 * stretched by other processes, the fastest least (under simmpi they are all the same).
 * Usage: netbench pingpong|allreduce BYTES ITERATIONS
 * Prints: netbench: op=pingpong ranks=2 bytes=1024 time_s=1.234e-06 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void pingpong(char* buf, int bytes, int rank) {
  if (rank == 0) {
    MPI_Send(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(buf, bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
  }
}

static double fastest(int is_pingpong, char* buf, char* out, int bytes, int iterations, int rank) {
  double best = 1e30;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < iterations; ++i) {
    double t0 = MPI_Wtime();
    if (is_pingpong)
      pingpong(buf, bytes, rank);
    else
      MPI_Allreduce(buf, out, bytes, MPI_CHAR, MPI_BOR, MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0;
    if (t < best) best = t;
  }
  return is_pingpong ? best / 2 : best;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int is_pingpong = argc == 4 && strcmp(argv[1], "pingpong") == 0;
  if (argc != 4 || (!is_pingpong && strcmp(argv[1], "allreduce") != 0) ||
      (is_pingpong && size < 2)) {
    if (rank == 0)
      fprintf(stderr,
              "usage: netbench pingpong|allreduce BYTES ITERATIONS (pingpong: 2 ranks or "
              "more)\n");
    MPI_Finalize();
    return 2;
  }
  int bytes = atoi(argv[2]), iterations = atoi(argv[3]);
  char* buf = calloc(bytes + 1, 1);
  char* out = calloc(bytes + 1, 1);
  fastest(is_pingpong, buf, out, bytes, iterations / 10 + 1, rank); /* warm-up */
  double t = fastest(is_pingpong, buf, out, bytes, iterations, rank);
  if (rank == 0) printf("netbench: op=%s ranks=%d bytes=%d time_s=%.9e\n", argv[1], size, bytes, t);
  free(buf);
  free(out);
  MPI_Finalize();
  return 0;
}
