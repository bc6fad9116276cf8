/* SPDX-License-Identifier: Apache-2.0 */
/* One-sided misuse that must end the run with a clear message, chosen by argv[1]:
 *   range    rank 0 puts past the end of rank 1's part (MPI_ERR_RMA_RANGE, fatal)
 *   sync     rank 0 puts outside any epoch (MPI_ERR_RMA_SYNC, fatal)
 *   fence    rank 1 never reaches the closing fence (deadlock report)
 *   lock     rank 0 never releases its exclusive lock; rank 1 waits for it (deadlock report)
 *   start    rank 0 starts an access epoch to rank 1, which never posts (deadlock report) */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "";
  int rank, buf[8] = {0}, x = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win win;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_name(win, "halo");
  if (!strcmp(what, "range")) {
    MPI_Win_fence(0, win);
    if (rank == 0) MPI_Put(&x, 1, MPI_INT, 1, 8, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
  } else if (!strcmp(what, "sync")) {
    if (rank == 0) MPI_Put(&x, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
  } else if (!strcmp(what, "fence")) {
    MPI_Win_fence(0, win);
    if (rank == 1) MPI_Recv(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_fence(0, win);
  } else if (!strcmp(what, "lock")) {
    if (rank == 0) {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
      MPI_Recv(&x, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    }
  } else if (!strcmp(what, "start")) {
    MPI_Group world, one;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int r1 = 1;
    MPI_Group_incl(world, 1, &r1, &one);
    if (rank == 0)
      MPI_Win_start(one, 0, win);
    else
      MPI_Recv(&x, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
