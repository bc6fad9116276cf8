/* SPDX-License-Identifier: Apache-2.0 */
/* simmpi_process_state: every rank gets the same zeroed block for a name, whatever the rank's
 * private globals; another name gives another block. */
#include <mpi.h>
#include <simmpi.h>
#include <stdint.h>
#include <stdio.h>

static long private_counter; /* a global: each rank has its own */

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, ok = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long* shared = simmpi_process_state("test counter", 64 * sizeof(long));
  long* other = simmpi_process_state("another", sizeof(long));
  ok &= other != shared && *other == 0;
  /* Each rank in turn adds its rank + 1 to both counters. */
  for (int turn = 0; turn < size; ++turn) {
    if (turn == rank) {
      shared[0] += rank + 1;
      private_counter += rank + 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  ok &= shared[0] == (long)size * (size + 1) / 2 && private_counter == rank + 1;
  ok &= simmpi_process_state("test counter", 64 * sizeof(long)) == shared;
  for (int i = 1; i < 64; ++i) ok &= shared[i] == 0;
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "process_state: OK\n" : "process_state: FAILED\n");
  MPI_Finalize();
  return all ? 0 : 1;
}
