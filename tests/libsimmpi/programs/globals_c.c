/* SPDX-License-Identifier: Apache-2.0 */
/* Each rank must see its own copy of globals, statics and static locals: every rank writes its
 * rank into them, yields many times (a message ring), and checks they still hold its values. */
#include <mpi.h>
#include <stdio.h>

int global_counter;                         /* .bss */
int global_initialized = 42;                /* .data */
static double file_static[64];              /* .bss, static */
const char* global_pointer = "shared text"; /* .data with a relocation */

static int bump(void) {
  static int calls; /* static local */
  return ++calls;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int errors = 0;
  if (global_initialized != 42 || global_counter != 0 || global_pointer[0] != 's') ++errors;
  global_initialized = 1000 + rank;
  for (int i = 0; i < 500; ++i) {
    global_counter += rank;
    file_static[i % 64] = rank * 0.5;
    if (bump() != i + 1) ++errors;
    int token = rank, got = -1;
    MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 0, &got, 1, MPI_INT,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (got != (rank + size - 1) % size) ++errors;
    if (global_counter != rank * (i + 1)) ++errors;
    if (global_initialized != 1000 + rank) ++errors;
    if (file_static[i % 64] != rank * 0.5) ++errors;
  }
  int total = 0;
  MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("globals: %s (%d errors over %d ranks)\n", total ? "FAILED" : "OK", total, size);
  MPI_Finalize();
  return total != 0;
}
