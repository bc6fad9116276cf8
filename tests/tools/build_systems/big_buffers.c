/* SPDX-License-Identifier: Apache-2.0 */
/* A plain MPI program, as a user's build system would compile it: every rank fills a 64 MiB
 * buffer from malloc and the ranks sum one byte of each. Under simmpi with
 * runtime.fold_threshold set, the buffers are folded only if the build kept simmpi's link flags. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The buffer escapes through this pointer, so an optimizing build (autoconf's -O2) keeps the
 * allocation and the fill, as a real program's would be kept. */
static char* volatile escaped;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  size_t bytes = (size_t)64 << 20;
  char* buffer = malloc(bytes);
  memset(buffer, 1, bytes);
  escaped = buffer;
  MPI_Barrier(MPI_COMM_WORLD);
  int mine = escaped[bytes - 1], total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("ranks %d total %d\n", size, total);
  free(buffer);
  MPI_Finalize();
  return 0;
}
