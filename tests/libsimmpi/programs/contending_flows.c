/* SPDX-License-Identifier: Apache-2.0
 * Communication only, with many flows sharing one link: every rank but 0 sends MESSAGES messages
 * of different sizes to rank 0 at once, ROUNDS times. Each message that ends re-rates all the
 * others on rank 0's link, so the simulator's CPU goes to the network's max-min solver, not to
 * the ranks' code (which does nothing between its calls).
 *   contending_flows MESSAGES ROUNDS   prints "contending_flows: OK" when every message arrived */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int messages = argc > 1 ? atoi(argv[1]) : 8, rounds = argc > 2 ? atoi(argv[2]) : 1;
  int count = rank == 0 ? (size - 1) * messages : messages;
  MPI_Request* requests = malloc(count * sizeof(MPI_Request));
  int* buffers = malloc((size_t)count * 1024 * sizeof(int));
  int bad = 0;
  for (int round = 0; round < rounds; round++) {
    for (int i = 0; i < count; i++) {
      /* Sizes 64 B to 4 KiB apart, so that the messages end one by one. */
      int source = rank == 0 ? 1 + i / messages : rank, k = rank == 0 ? i % messages : i;
      int n = 16 + (source * 7 + k * 13) % 1008;
      int* b = buffers + (size_t)i * 1024;
      if (rank == 0) {
        MPI_Irecv(b, n, MPI_INT, source, k, MPI_COMM_WORLD, &requests[i]);
      } else {
        b[0] = source * 1000 + k;
        MPI_Isend(b, n, MPI_INT, 0, k, MPI_COMM_WORLD, &requests[i]);
      }
    }
    MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
    if (rank == 0)
      for (int i = 0; i < count; i++)
        bad |= buffers[(size_t)i * 1024] != (1 + i / messages) * 1000 + i % messages;
  }
  if (rank == 0) printf(bad ? "contending_flows: wrong data\n" : "contending_flows: OK\n");
  free(requests);
  free(buffers);
  MPI_Finalize();
  return bad;
}
