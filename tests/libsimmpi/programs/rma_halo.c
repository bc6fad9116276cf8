/* SPDX-License-Identifier: Apache-2.0 */
/* A ring halo shift (each rank sends S bytes to its right neighbour) written twice: with
 * MPI_Put between fences and with MPI_Irecv/MPI_Isend/MPI_Waitall. Checks the data and both
 * simulated times against their closed forms, to the picosecond:
 *   rma_halo O_SEND O_RECV LATENCY BYTES_PER_S O_PUT O_FENCE BYTES STEPS
 * On a one-switch network with one rank per node every rank's flows use links of their own,
 * and with mpi.coll.barrier = dissemination on a power-of-two number of ranks every rank
 * leaves a barrier lg p (o_s + L + o_r) after all entered it. Then one step costs
 *   point-to-point  o_s + L + S/B + o_r
 *   fence           max(o_put + o_fence, o_put + 2L + S/B) + lg p (o_s + L + o_r)
 * (the put's acknowledgement, then the closing fence's barrier). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static long long ps_now(void) {
  return llround(simmpi_now() * 1e12);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 9) {
    fprintf(stderr,
            "usage: rma_halo O_SEND O_RECV LATENCY BYTES_PER_S O_PUT O_FENCE BYTES STEPS\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  long long o_s = atoll(argv[1]), o_r = atoll(argv[2]), lat = atoll(argv[3]);
  double bw = atof(argv[4]);
  long long o_put = atoll(argv[5]), o_fence = atoll(argv[6]);
  int bytes = atoi(argv[7]), steps = atoi(argv[8]);
  int lg = 0;
  while ((1 << lg) < size) ++lg;
  long long wire = llround(bytes / bw * 1e12);
  long long h0 = o_s + lat + o_r;
  long long p2p_step = o_s + lat + wire + o_r;
  long long put_done = o_put + 2 * lat + wire;
  long long fence_step = (put_done > o_put + o_fence ? put_done : o_put + o_fence) + lg * h0;

  char* halo = malloc(bytes);
  char* out = malloc(bytes);
  MPI_Win win;
  MPI_Win_create(halo, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;

  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  long long t = ps_now();
  for (int s = 0; s < steps; ++s) {
    memset(out, (rank + s) & 0x7f, bytes);
    MPI_Put(out, bytes, MPI_BYTE, right, 0, bytes, MPI_BYTE, win);
    MPI_Win_fence(0, win);
    CHECK(halo[0] == (char)((left + s) & 0x7f) && halo[bytes - 1] == halo[0],
          "fence step %d: got %d from rank %d", s, halo[0], left);
    long long now = ps_now();
    CHECK(now - t == fence_step, "fence step %d took %lld ps, closed form %lld", s, now - t,
          fence_step);
    t = now;
  }
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  MPI_Win_free(&win);

  MPI_Barrier(MPI_COMM_WORLD);
  t = ps_now();
  for (int s = 0; s < steps; ++s) {
    memset(out, (rank + 2 * s) & 0x7f, bytes);
    MPI_Request r[2];
    MPI_Irecv(halo, bytes, MPI_BYTE, left, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(out, bytes, MPI_BYTE, right, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    CHECK(halo[0] == (char)((left + 2 * s) & 0x7f), "p2p step %d: got %d", s, halo[0]);
    long long now = ps_now();
    CHECK(now - t == p2p_step, "p2p step %d took %lld ps, closed form %lld", s, now - t, p2p_step);
    t = now;
  }
  free(halo);
  free(out);
  return finish("rma_halo");
}
