/* SPDX-License-Identifier: Apache-2.0 */
/* Ways a program can go wrong, chosen by argv[1], each of which must end the run with a clear
 * message and a non-zero status:
 *   crash     rank 1 writes through a null pointer
 *   status    rank 2 returns 3 from main
 *   abort     rank 1 calls MPI_Abort(MPI_COMM_WORLD, 5)
 *   mismatch  ranks disagree on the root of an MPI_Bcast
 *   badrank   rank 0 sends to a rank that does not exist (MPI_ERRORS_ARE_FATAL)
 *   nofinal   rank 1 returns from main without MPI_Finalize
 *   overflow  rank 1 recurses until its stack overflows
 *   exit      every rank calls exit(0) after MPI_Finalize (fine: status 0)
 *   codes     after MPI_Finalize, rank 1 returns 1 and rank 2 returns 2: the job's status is
 *             their bitwise OR, 3, as with MPICH's mpiexec
 *   errors_abort  rank 2 sends to a rank that does not exist under MPI_ERRORS_ABORT */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int depth(int n) {
  volatile char pad[4096];
  pad[0] = (char)n;
  return n > 0 ? depth(n - 1) + pad[0] : 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, v = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* what = argc > 1 ? argv[1] : "";
  MPI_Barrier(MPI_COMM_WORLD);
  if (!strcmp(what, "crash") && rank == 1) *(volatile int*)0 = 1;
  if (!strcmp(what, "status") && rank == 2) return 3;
  if (!strcmp(what, "abort") && rank == 1) MPI_Abort(MPI_COMM_WORLD, 5);
  if (!strcmp(what, "mismatch")) MPI_Bcast(&v, 1, MPI_INT, rank == 0 ? 0 : 1, MPI_COMM_WORLD);
  if (!strcmp(what, "badrank") && rank == 0) MPI_Send(&v, 1, MPI_INT, 9, 0, MPI_COMM_WORLD);
  if (!strcmp(what, "nofinal") && rank == 1) return 0;
  if (!strcmp(what, "overflow") && rank == 1) printf("%d\n", depth(1 << 20));
  if (!strcmp(what, "errors_abort")) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ABORT);
    if (rank == 2) MPI_Send(&v, 1, MPI_INT, 9, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  if (!strcmp(what, "exit")) exit(0);
  if (!strcmp(what, "codes")) return rank == 1 ? 1 : rank == 2 ? 2 : 0;
  return 0;
}
