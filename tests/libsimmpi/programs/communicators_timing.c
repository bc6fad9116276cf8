/* SPDX-License-Identifier: Apache-2.0 */
/* Making communicators costs the messages MPICH's algorithms send, to the picosecond, on two
 * ranks on two nodes (arguments as for timing.c: O_SEND_PS O_RECV_PS LATENCY_PS BYTES_PER_S;
 * every message here is eager). One message of S bytes costs m(S) = o_s + L + S/B + o_r. */
#include <math.h>
#include <stdlib.h>

#include "check.h"

static long long o_s, o_r, lat;
static double bw;

static long long ps_now(void) {
  return llround(simmpi_now() * 1e12);
}
static long long msg(double bytes) {
  return o_s + lat + llround(bytes / bw * 1e12) + o_r;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 5) {
    fprintf(stderr, "usage: communicators_timing O_SEND_PS O_RECV_PS LATENCY_PS BYTES_PER_S\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  o_s = atoll(argv[1]), o_r = atoll(argv[2]), lat = atoll(argv[3]), bw = atof(argv[4]);
  MPI_Comm c, inter;

  /* Dup: the allreduce of the 256-byte context mask is one exchange on two ranks. */
  MPI_Barrier(MPI_COMM_WORLD);
  long long t0 = ps_now();
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  long long dt = ps_now() - t0;
  CHECK(dt == msg(256), "dup took %lld ps, closed form %lld", dt, msg(256));
  t0 = ps_now();
  MPI_Comm_free(&c);
  CHECK(ps_now() == t0, "free took %lld ps; MPICH's sends nothing", ps_now() - t0);

  /* Split: the allgather of (color, key), 8 bytes, then the context allreduce. */
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = ps_now();
  MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &c);
  dt = ps_now() - t0;
  CHECK(dt == msg(8) + msg(256), "split took %lld ps, closed form %lld", dt, msg(8) + msg(256));
  MPI_Comm_free(&c);

  /* Intercommunicator of the two MPI_COMM_SELFs: the leaders swap (context, size), rank 1
   * sends its member list (4 bytes), rank 0 builds and answers with the handle and its list
   * (8 bytes); the broadcasts within one rank cost nothing. */
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = ps_now();
  MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, 1 - rank, 7, &inter);
  dt = ps_now() - t0;
  long long expect = rank == 0 ? msg(8) + msg(4) + o_s : msg(8) + msg(4) + msg(8);
  CHECK(dt == expect, "intercomm_create took %lld ps on rank %d, closed form %lld", dt, rank,
        expect);
  MPI_Comm_free(&inter);
  return finish("communicators_timing");
}
