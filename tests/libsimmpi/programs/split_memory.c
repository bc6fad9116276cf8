/* SPDX-License-Identifier: Apache-2.0 */
/* MPI_Comm_split of a large MPI_COMM_WORLD into the rows and columns of a process grid, as HPL
 * does: the communicators must be right (members, order by key, MPI_UNDEFINED), and the host
 * memory must not grow with the square of the rank count (every member of a split used to hold
 * all members' colors and keys, and the allgather's scratch: 2.5 GB at 8,008 ranks). Rank 0
 * prints the simulator process's peak resident set size. */
#include <sys/resource.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int q = 1;
  while ((q + 1) * (q + 1) <= size) ++q;
  const int rows = size / q; /* ranks past rows * q are in no row */
  const int in_row = rank < rows * q;
  MPI_Comm row, col;
  /* Keys reverse the order within a row. */
  MPI_Comm_split(MPI_COMM_WORLD, in_row ? rank / q : MPI_UNDEFINED, q - 1 - rank % q, &row);
  MPI_Comm_split(MPI_COMM_WORLD, rank % q, rank / q, &col);
  if (in_row) {
    int r, n;
    MPI_Comm_rank(row, &r);
    MPI_Comm_size(row, &n);
    CHECK(n == q && r == q - 1 - rank % q, "row rank %d of %d", r, n);
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, row);
    const int first = rank / q * q;
    CHECK(sum == q * first + q * (q - 1) / 2, "row sum %d", sum);
    MPI_Comm_free(&row);
  } else {
    CHECK(row == MPI_COMM_NULL, "a rank past the last full row got a row communicator");
  }
  int c, m;
  MPI_Comm_rank(col, &c);
  MPI_Comm_size(col, &m);
  CHECK(c == rank / q && m == (size - rank % q + q - 1) / q, "column rank %d of %d", c, m);
  MPI_Comm_free(&col);
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  if (rank == 0) printf("split_memory: peak resident set %ld MiB\n", usage.ru_maxrss / 1024);
  return finish("split_memory");
}
