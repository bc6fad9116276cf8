/* SPDX-License-Identifier: Apache-2.0 */
/* The time of a partitioned transfer (libsimmpi/p2p/partitioned.hpp), to the picosecond, on two
 * ranks on two nodes (arguments O_SEND_PS O_RECV_PS LATENCY_PS BYTES_PER_S, as for
 * communicators_timing.c). Rank 0 sends 1 MiB (far above the eager threshold) in 8 partitions to
 * rank 1; "go" messages order the two sides, and each side checks its own times against the
 * other's, exchanged afterwards.
 *   A  receiver started first, all partitions ready at once at t1: one flow of the whole size,
 *      as an eager message: the send completes at t1 + o_s + L + S/B, the receive o_r later.
 *   B  sender ready first, receiver starts at t_r: the flow waits for the clear-to-send, L after
 *      t_r: complete at t_r + 2L + S/B (+ o_r for the receive).
 *   C  partitions readied one by one, 100 us apart: each its own flow, announced by MPI_Parrived
 *      o_r after t_p + o_s + L + S/8/B (the last poll that said no was before, the first that
 *      said yes after). */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

#define PARTS 8
#define COUNT (131072 / PARTS) /* doubles per partition: 1 MiB in all */

static long long o_s, o_r, lat;
static double bw;
static double buf[PARTS * COUNT];

static long long ps_now(void) {
  return llround(simmpi_now() * 1e12);
}
static long long flow(double bytes) {
  return lat + llround(bytes / bw * 1e12);
}

static void go_send(int to) {
  MPI_Send(NULL, 0, MPI_BYTE, to, 99, MPI_COMM_WORLD);
}
static void go_recv(int from) {
  MPI_Recv(NULL, 0, MPI_BYTE, from, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}
static void swap_times(long long* mine, long long* theirs, int n, int peer) {
  MPI_Sendrecv(mine, n, MPI_LONG_LONG, peer, 98, theirs, n, MPI_LONG_LONG, peer, 98, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
}

static void sender(MPI_Request req) {
  const double S = sizeof buf;
  long long t[PARTS + 1], other[PARTS + 1];
  /* A */
  MPI_Start(&req);
  go_recv(1);
  t[0] = ps_now();
  MPI_Pready_range(0, PARTS - 1, req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  long long end = ps_now();
  CHECK(end - t[0] == o_s + flow(S), "A: send took %lld ps, closed form %lld", end - t[0],
        o_s + flow(S));
  swap_times(t, other, 1, 1);
  /* B */
  MPI_Start(&req);
  MPI_Pready_range(0, PARTS - 1, req);
  go_send(1);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  end = ps_now();
  swap_times(t, other, 1, 1); /* other[0]: the receiver's start */
  CHECK(end == other[0] + lat + flow(S), "B: send ended at %lld ps, closed form %lld", end,
        other[0] + lat + flow(S));
  /* C */
  MPI_Start(&req);
  go_recv(1);
  for (int p = 0; p < PARTS; ++p) {
    t[p] = ps_now();
    MPI_Pready(p, req);
    usleep(100);
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  swap_times(t, other, PARTS, 1);
}

static void receiver(MPI_Request req) {
  const double S = sizeof buf;
  long long t[PARTS + 1], other[PARTS + 1];
  /* A */
  MPI_Start(&req);
  go_send(0);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  long long end = ps_now();
  swap_times(t, other, 1, 0);
  CHECK(end == other[0] + o_s + flow(S) + o_r, "A: receive ended at %lld ps, closed form %lld", end,
        other[0] + o_s + flow(S) + o_r);
  /* B */
  go_recv(0);
  t[0] = ps_now();
  MPI_Start(&req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  end = ps_now();
  CHECK(end - t[0] == 2 * lat + llround(S / bw * 1e12) + o_r,
        "B: receive took %lld ps from its start, closed form %lld", end - t[0],
        2 * lat + llround(S / bw * 1e12) + o_r);
  swap_times(t, other, 1, 0);
  /* C */
  long long last_no[PARTS], first_yes[PARTS];
  MPI_Start(&req);
  go_send(0);
  for (int p = 0; p < PARTS; ++p) {
    int flag = 0;
    while (!flag) {
      long long before = ps_now();
      MPI_Parrived(req, p, &flag);
      if (flag)
        first_yes[p] = ps_now();
      else
        last_no[p] = before;
    }
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  swap_times(t, other, PARTS, 0);
  for (int p = 0; p < PARTS; ++p) {
    long long due = other[p] + o_s + flow(S / PARTS) + o_r;
    CHECK(last_no[p] < due && due <= first_yes[p],
          "C: partition %d announced between %lld and %lld ps, closed form %lld", p, last_no[p],
          first_yes[p], due);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 5 || size != 2) {
    fprintf(stderr, "usage: -n 2 partitioned_timing O_SEND_PS O_RECV_PS LATENCY_PS BYTES_PER_S\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  o_s = atoll(argv[1]), o_r = atoll(argv[2]), lat = atoll(argv[3]), bw = atof(argv[4]);
  MPI_Request req;
  if (rank == 0)
    MPI_Psend_init(buf, PARTS, COUNT, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  else
    MPI_Precv_init(buf, PARTS, COUNT, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
  if (rank == 0)
    sender(req);
  else
    receiver(req);
  MPI_Request_free(&req);
  return finish("partitioned_timing");
}
