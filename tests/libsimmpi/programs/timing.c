/* SPDX-License-Identifier: Apache-2.0 */
/* Simulated times against the model's closed form, to the picosecond. The test passes the
 * platform's parameters both to the simulator (--set) and to this program (arguments):
 *   timing O_SEND_PS O_RECV_PS LATENCY_PS BYTES_PER_S EAGER_BYTES POLL_PS
 * with LATENCY_PS = nic_latency + hop_latency of the one-switch network. Needs 2 ranks on
 * different nodes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "check.h"

static long long ps_now(void) {
  return llround(simmpi_now() * 1e12);
}
static long long wire_ps(double bytes, double bw) {
  return llround(bytes / bw * 1e12);
}

static long long o_s, o_r, lat, poll;
static double bw;
static long long eager;
static int rank;

/* Round trip of `bytes` between ranks 0 and 1, measured on rank 0. */
static long long round_trip(char* buf, int bytes) {
  MPI_Barrier(MPI_COMM_WORLD);
  long long t0 = ps_now();
  if (rank == 0) {
    MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
  }
  return ps_now() - t0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 7) {
    fprintf(stderr,
            "usage: timing O_SEND_PS O_RECV_PS LATENCY_PS BYTES_PER_S EAGER_BYTES POLL_PS\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  o_s = atoll(argv[1]), o_r = atoll(argv[2]), lat = atoll(argv[3]), bw = atof(argv[4]);
  eager = atoll(argv[5]), poll = atoll(argv[6]);
  char* buf = calloc(1 << 21, 1);

  /* Eager: each way costs o_s + L + S/B + o_r (the receiver is already waiting). */
  for (int bytes = 8; bytes <= eager; bytes *= 8) {
    long long expected = 2 * (o_s + lat + wire_ps(bytes, bw) + o_r);
    long long got = round_trip(buf, bytes);
    if (rank == 0)
      CHECK(got == expected, "eager %d bytes: round trip %lld ps, closed form %lld ps", bytes, got,
            expected);
  }
  /* Rendezvous: request-to-send, clear-to-send, then the data: o_s + 3L + S/B + o_r. */
  for (int bytes = (int)eager * 2; bytes <= (1 << 21); bytes *= 4) {
    long long expected = 2 * (o_s + 3 * lat + wire_ps(bytes, bw) + o_r);
    long long got = round_trip(buf, bytes);
    if (rank == 0)
      CHECK(got == expected, "rendezvous %d bytes: round trip %lld ps, closed form %lld ps", bytes,
            got, expected);
  }
  /* A polling loop ends within one poll of the completion time, each MPI_Test costing POLL. */
  MPI_Barrier(MPI_COMM_WORLD);
  long long t0 = ps_now();
  if (rank == 1) {
    long long sent_at = ps_now(); /* travels in the message: ranks leave the barrier apart */
    memcpy(buf, &sent_at, sizeof sent_at);
    MPI_Send(buf, 100, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
  } else {
    MPI_Request r;
    int flag = 0, polls = 0;
    MPI_Irecv(buf, 100, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &r);
    while (!flag) {
      MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
      ++polls;
    }
    long long sent_at;
    memcpy(&sent_at, buf, sizeof sent_at);
    long long done = sent_at + o_s + lat + wire_ps(100, bw) + o_r;
    long long now = ps_now();
    CHECK(now >= done && now < done + poll, "polling loop ended at %lld, completion at %lld", now,
          done);
    CHECK(now - t0 == polls * poll, "%d polls took %lld ps, expected %lld", polls, now - t0,
          polls * poll);
  }
  /* The C clocks read simulated time (each call costs one poll). */
  long long before = ps_now();
  struct timeval tv;
  gettimeofday(&tv, NULL);
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  time_t secs = time(NULL);
  double wt = MPI_Wtime();
  long long after = ps_now();
  CHECK(after - before == 4 * poll, "four clock calls took %lld ps", after - before);
  CHECK(tv.tv_sec == 1700000000 + (before + poll) / 1000000000000LL &&
            tv.tv_usec == (before + poll) / 1000000 % 1000000,
        "gettimeofday %ld.%06ld at simulated %lld ps", (long)tv.tv_sec, (long)tv.tv_usec,
        before + poll);
  CHECK(ts.tv_sec == 0 && ts.tv_nsec == (before + 2 * poll) / 1000, "clock_gettime %ld.%09ld",
        (long)ts.tv_sec, ts.tv_nsec);
  CHECK(secs == 1700000000, "time() %ld", (long)secs);
  CHECK(llround(wt * 1e12) == before + 4 * poll, "MPI_Wtime %.12f", wt);
  free(buf);
  return finish("timing");
}
