/* SPDX-License-Identifier: Apache-2.0 */
/* What otf2_archive_writer's "nonblocking" archive records, as a program: the same nonblocking
 * collectives after the same compute (SIMMPI_SLEEP: the archive's gaps between calls), so its
 * online run takes the time the archive's replay must take (otf2_replay_test.sh). 2 ranks. */
#include <mpi.h>
#include <simmpi_compute.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  unsigned char buf[8] = {0}, sum[8];
  MPI_Request q;
  SIMMPI_SLEEP(rank == 0 ? 2e-3 : 4e-3);
  MPI_Ibcast(buf, 8, MPI_BYTE, 0, MPI_COMM_WORLD, &q);
  if (rank == 0) SIMMPI_SLEEP(1e-3);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  MPI_Iallreduce(buf, sum, 8, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD, &q);
  SIMMPI_SLEEP(2e-3);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
