/* SPDX-License-Identifier: Apache-2.0 */
/* Sends and receives posted ahead (Scheduler::post_ahead): a rank whose send overhead or
 * computation ends after something else is due hands its postings to the scheduler and runs on.
 * The test that runs this asserts with runtime.report_switches that MPI_Isend, MPI_Irecv and
 * MPI_Send (eager) never switch; this program checks that nothing else changes:
 *  - a ring exchange (MPI_Irecv x 2, MPI_Isend x 2, MPI_Waitall) with uneven computation moves
 *    the right data at every step;
 *  - an eager MPI_Send posted ahead sends the data its buffer held at the call, although the
 *    caller overwrites the buffer before the send is made: to a receive posted in time (rank 1)
 *    and to one posted after the message arrived (rank 2);
 *  - the caller's clock after its sends counts their overheads after its computation. */
#include <simmpi.h>
#include <simmpi_compute.h>

#include "check.h"

enum { kSteps = 20, kDoubles = 64 };

static void ring_exchange(int rank, int size) {
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double send[2][kDoubles], recv[2][kDoubles];
  for (int step = 0; step < kSteps; ++step) {
    simmpi_sleep(1e-4 * (1 + (rank + step) % 3));
    for (int i = 0; i < kDoubles; ++i) send[0][i] = send[1][i] = rank * 1000 + step + i;
    MPI_Request reqs[4];
    MPI_Irecv(recv[0], kDoubles, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(recv[1], kDoubles, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &reqs[1]);
    MPI_Isend(send[0], kDoubles, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &reqs[2]);
    MPI_Isend(send[1], kDoubles, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &reqs[3]);
    MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE);
    for (int i = 0; i < kDoubles; i += 21) {
      CHECK(recv[0][i] == left * 1000 + step + i, "step %d: from the left %g", step, recv[0][i]);
      CHECK(recv[1][i] == right * 1000 + step + i, "step %d: from the right %g", step, recv[1][i]);
    }
  }
}

static void eager_sends_reuse_buffer(int rank) {
  double buf[kDoubles];
  if (rank == 0) {
    /* Ranks 1 and 2 are due (their starts, rank 1's resume at 0.5 ms) before this send's
     * overhead ends, so both sends are posted ahead. */
    simmpi_sleep(1e-3);
    for (int i = 0; i < kDoubles; ++i) buf[i] = 1 + i;
    MPI_Send(buf, kDoubles, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
    for (int i = 0; i < kDoubles; ++i) buf[i] = 2 + i;
    MPI_Send(buf, kDoubles, MPI_DOUBLE, 2, 7, MPI_COMM_WORLD);
    for (int i = 0; i < kDoubles; ++i) buf[i] = -1;
    const double t = simmpi_now();
    CHECK(t > 1e-3 && t < 1.1e-3, "the sends ended at %g s, not just after 1 ms", t);
  } else if (rank <= 2) {
    simmpi_sleep(rank == 1 ? 0.5e-3 : 3e-3);
    MPI_Recv(buf, kDoubles, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < kDoubles; ++i)
      CHECK(buf[i] == rank + i, "rank %d got %g at %d, not %d", rank, buf[i], i, rank + i);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 3, "needs 3 ranks or more, has %d", size);
  eager_sends_reuse_buffer(rank);
  MPI_Barrier(MPI_COMM_WORLD);
  ring_exchange(rank, size);
  return finish("posts_ahead");
}
