/* SPDX-License-Identifier: Apache-2.0 */
/* Busy-polling with MPI_Iprobe (as HPL waits for its panels): rank 0 computes for a while, then
 * sends rank r (eager and rendezvous sizes in turn) a message that rank r polls for; every rank
 * prints when its poll loop saw the message and when the receive completed. poll_fast_forward.sh
 * runs it with mpi.poll_fast_forward on and off and requires the same output. A bounded loop of a
 * few identical fruitless probes before a send the message depends on (the pattern of HPL's
 * spread and roll, which probe between steps) must not be taken for a busy-polling loop. */
#include <mpi.h>
#include <simmpi_compute.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int big = 1 << 20;
  char* buf = calloc(big, 1);
  for (int it = 0; it < 4; ++it) {
    int bytes = it % 2 ? big : 64;
    if (rank == 0) {
      for (int r = 1; r < size; ++r) {
        SIMMPI_SLEEP(1e-4 * (it + r));
        MPI_Send(buf, bytes, MPI_BYTE, r, it, MPI_COMM_WORLD);
      }
    } else {
      int go = 0;
      double t0 = MPI_Wtime();
      while (!go) MPI_Iprobe(0, it, MPI_COMM_WORLD, &go, MPI_STATUS_IGNORE);
      double found = MPI_Wtime();
      MPI_Recv(buf, bytes, MPI_BYTE, 0, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      printf("rank %d message %d: polled from %.12f, found at %.12f, received at %.12f\n", rank, it,
             t0, found, MPI_Wtime());
    }
  }
  /* Rank 1 probes 5 times for a reply that rank 0 sends only after rank 1's request. */
  if (rank == 0) {
    int x;
    MPI_Recv(&x, 1, MPI_INT, 1, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&x, 1, MPI_INT, 1, 101, MPI_COMM_WORLD);
  } else if (rank == 1) {
    int x = 7, go = 0;
    for (int i = 0; i < 5; ++i) MPI_Iprobe(0, 101, MPI_COMM_WORLD, &go, MPI_STATUS_IGNORE);
    CHECK(!go, "the reply came before the request");
    MPI_Send(&x, 1, MPI_INT, 0, 100, MPI_COMM_WORLD);
    while (!go) MPI_Iprobe(0, 101, MPI_COMM_WORLD, &go, MPI_STATUS_IGNORE);
    MPI_Recv(&x, 1, MPI_INT, 0, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(x == 7, "reply %d", x);
  }
  free(buf);
  return finish("iprobe_spin");
}
