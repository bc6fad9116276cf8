/* SPDX-License-Identifier: Apache-2.0 */
/* A fruitless MPI_Iprobe is owed instead of slept while nothing it looks for can arrive; this
 * checks the horizon is not too late. Rank 1 starts a send at 1 us and sleeps through its 300 ns
 * overhead; rank 0 starts polling at 1.25 us, after the send began, so the envelope (leaving at
 * 1.3 us, 600 ns of latency) arrives at 1.9 us, before now + overhead + latency at the first
 * poll (2.05 us). The poll ending at 1.9 us must see it, whether rank 0 names the source or not.
 *   run with: -n 2 --set mpi.send_overhead=300ns --set network.nic_latency=500ns
 *             --set network.hop_latency=100ns --set mpi.poll_cost=50ns (a crossbar: one switch) */
#include <math.h>
#include <mpi.h>
#include <simmpi.h>
#include <simmpi_compute.h>
#include <stdio.h>

/* Each round starts at the absolute time `start` on both ranks. */
static int check_round(double start, int source, int tag) {
  int rank, ok = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  SIMMPI_SLEEP(start - simmpi_now());
  if (rank == 1) {
    SIMMPI_SLEEP(1e-6);
    int x = tag;
    MPI_Send(&x, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
  } else {
    SIMMPI_SLEEP(1.2e-6);
    (void)MPI_Wtime(); /* lets the time pass (50 ns more): the polls start with nothing owed */
    int flag = 0, x;
    MPI_Status st;
    while (!flag) MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, &st);
    double seen = simmpi_now() - start;
    ok = fabs(seen - 1.9e-6) < 1e-12;

    if (!ok)
      printf("poll_horizon: source %d: seen at %.12f s, expected 0.000001900000\n", source, seen);
    MPI_Recv(&x, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  return ok;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int ok = check_round(1e-3, 1, 7) & check_round(2e-3, MPI_ANY_SOURCE, 8), all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) printf(all ? "poll_horizon: OK\n" : "poll_horizon: FAILED\n");
  MPI_Finalize();
  return all ? 0 : 1;
}
