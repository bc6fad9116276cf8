/* SPDX-License-Identifier: Apache-2.0 */
/* The other half of the two-file program: a global counter (privatized) and a reduction. */
#include <mpi.h>

int calls; /* each rank counts its own calls */

int sum_over_ranks(int value) {
  int total = 0;
  ++calls;
  MPI_Allreduce(&value, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return calls == 1 ? total : -1;
}
