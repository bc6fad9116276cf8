/* SPDX-License-Identifier: Apache-2.0 */
/* Programs whose profile (report.profile) is known by construction; tests/libsimmpi/
 * profile_test.py runs them and checks the JSON file against the closed forms:
 *   profile_cases pingpong N   ranks 0 and 1 exchange 8 bytes N times (Send, then Recv)
 *   profile_cases ring N       every rank MPI_Sendrecv's 8 bytes to its right, N times
 *   profile_cases imbalance    rank r computes (r + 1) ms, then all meet in MPI_Barrier
 *   profile_cases comms        a split communicator named "halves" carries one MPI_Allreduce
 *   profile_cases chain        rank r receives from r - 1, computes (r + 1) ms, sends to r + 1:
 *                              the critical path runs through every rank
 *   profile_cases threads      (2 ranks, MPI_THREAD_MULTIPLE) on each rank a thread does the MPI:
 *                              rank 0's computes 2 ms and sends to rank 1's, which receives and
 *                              computes 3 ms; each main fiber joins its thread, rank 1's then
 *                              computes 1 ms: the critical path runs through both threads
 *   profile_cases poll         (2 ranks) rank 0 computes 2 ms and sends; rank 1 polls for the
 *                              message in simmpi_poll_rounds (rounds of 100 us), computes 0.5 ms,
 *                              then receives it: the path follows the message the polling found
 *   profile_cases persistent N the ring of "ring" by persistent requests (MPI_Send_init,
 *                              MPI_Recv_init, then N rounds of MPI_Startall and MPI_Waitall)
 *   profile_cases gaps         (2 ranks) rank 0 computes 3 us, sends twice back to back,
 *                              computes 1 us, sends, computes 0.5 us, sends; rank 1 receives the
 *                              four messages (own code of known lengths for the timeline) */
#include <mpi.h>
#include <pthread.h>
#include <simmpi.h>
#include <simmpi_compute.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void* thread_work(void* arg) {
  const int rank = *(const int*)arg;
  double v = rank;
  if (rank == 0) {
    SIMMPI_SLEEP(2e-3);
    MPI_Send(&v, 1, MPI_DOUBLE, 1, 5, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&v, 1, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    SIMMPI_SLEEP(3e-3);
  }
  return NULL;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "pingpong";
  if (strcmp(mode, "threads") == 0) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = argc > 2 ? atoi(argv[2]) : 10;
  double v = rank, w = 0;
  if (strcmp(mode, "pingpong") == 0) {
    for (int i = 0; i < n; ++i) {
      if (rank == 0) {
        MPI_Send(&v, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
        MPI_Recv(&v, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
      }
    }
  } else if (strcmp(mode, "ring") == 0) {
    for (int i = 0; i < n; ++i)
      MPI_Sendrecv(&v, 1, MPI_DOUBLE, (rank + 1) % size, 0, &w, 1, MPI_DOUBLE,
                   (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (strcmp(mode, "persistent") == 0) {
    MPI_Request reqs[2];
    MPI_Send_init(&v, 1, MPI_DOUBLE, (rank + 1) % size, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(&w, 1, MPI_DOUBLE, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &reqs[1]);
    for (int i = 0; i < n; ++i) {
      MPI_Startall(2, reqs);
      MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
  } else if (strcmp(mode, "imbalance") == 0) {
    SIMMPI_SLEEP((rank + 1) * 1e-3);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (strcmp(mode, "comms") == 0) {
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_set_name(half, "halves");
    MPI_Allreduce(&v, &w, 1, MPI_DOUBLE, MPI_SUM, half);
    MPI_Comm_free(&half);
  } else if (strcmp(mode, "chain") == 0) {
    if (rank > 0) MPI_Recv(&v, 1, MPI_DOUBLE, rank - 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    SIMMPI_SLEEP((rank + 1) * 1e-3);
    if (rank + 1 < size) MPI_Send(&v, 1, MPI_DOUBLE, rank + 1, 3, MPI_COMM_WORLD);
  } else if (strcmp(mode, "threads") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, thread_work, &rank);
    if (rank == 0) SIMMPI_SLEEP(1e-3);
    pthread_join(t, NULL);
    if (rank == 1) SIMMPI_SLEEP(1e-3);
  } else if (strcmp(mode, "poll") == 0) {
    if (rank == 0) {
      SIMMPI_SLEEP(2e-3);
      MPI_Send(&v, 1, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD);
    } else if (rank == 1) {
      long round = 0;
      simmpi_poll_rounds(100e-6, -1, 0, 4, MPI_COMM_WORLD, &round);
      SIMMPI_SLEEP(0.5e-3);
      MPI_Recv(&v, 1, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else if (strcmp(mode, "gaps") == 0) {
    if (rank == 0) {
      SIMMPI_SLEEP(3e-6);
      MPI_Send(&v, 1, MPI_DOUBLE, 1, 6, MPI_COMM_WORLD);
      MPI_Send(&v, 1, MPI_DOUBLE, 1, 6, MPI_COMM_WORLD);
      SIMMPI_SLEEP(1e-6);
      MPI_Send(&v, 1, MPI_DOUBLE, 1, 6, MPI_COMM_WORLD);
      SIMMPI_SLEEP(0.5e-6);
      MPI_Send(&v, 1, MPI_DOUBLE, 1, 6, MPI_COMM_WORLD);
    } else if (rank == 1) {
      for (int i = 0; i < 4; ++i)
        MPI_Recv(&w, 1, MPI_DOUBLE, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else {
    fprintf(stderr, "profile_cases: unknown mode %s\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Finalize();
  return 0;
}
