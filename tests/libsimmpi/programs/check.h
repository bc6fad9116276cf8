/* SPDX-License-Identifier: Apache-2.0 */
/* A tiny self-checking harness for the MPI test programs: CHECK records a failure with its line,
 * and finish() agrees on the result across ranks and prints one verdict line. */
#ifndef SIMMPI_TEST_CHECK_H
#define SIMMPI_TEST_CHECK_H

#include <mpi.h>
#include <stdio.h>

static int check_failures = 0;

#define CHECK(cond, ...)                                                                       \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      int check_rank_;                                                                         \
      MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);                                             \
      if (check_failures++ < 10) {                                                             \
        fprintf(stderr, "rank %d: %s:%d: CHECK(%s) failed: ", check_rank_, __FILE__, __LINE__, \
                #cond);                                                                        \
        fprintf(stderr, __VA_ARGS__);                                                          \
        fprintf(stderr, "\n");                                                                 \
      }                                                                                        \
    }                                                                                          \
  } while (0)

/* Prints "<name>: OK (<size> ranks)" or FAILED on rank 0; returns main's status. */
static int finish(const char* name) {
  int rank, size, total = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allreduce(&check_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%s: %s (%d ranks, %d failed checks)\n", name, total ? "FAILED" : "OK", size, total);
  MPI_Finalize();
  return total != 0;
}

#endif
