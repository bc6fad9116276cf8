/* SPDX-License-Identifier: Apache-2.0 */
/* One-sided simulated times against the closed forms of libsimmpi/rma/operations.hpp, to the
 * picosecond. The test passes the platform's parameters both to the simulator (--set) and to
 * this program:
 *   rma_timing O_SEND O_RECV LATENCY BYTES_PER_S O_PUT O_GET O_ACC O_ATOMIC O_LOCK O_FLUSH
 *              O_FENCE O_PSCW O_WIN_SYNC CORE_BPS
 * (times in ps; O_LOCK ... O_WIN_SYNC the synchronization families' own costs; LATENCY =
 * nic_latency + hop_latency of the one-switch network; CORE_BPS the memory bandwidth of one rank,
 * which bounds the target's reduction). Needs 2 ranks on different nodes and mpi.coll.barrier =
 * dissemination. */
#include <math.h>
#include <stdlib.h>

#include "check.h"

static long long o_s, o_r, lat, o_put, o_get, o_acc, o_atomic, o_lock, o_flush, o_fence, o_pscw,
    o_win_sync;
static double bw, core_bps;
static int rank;

static long long ps_now(void) {
  return llround(simmpi_now() * 1e12);
}
static long long wire(double bytes) {
  return llround(bytes / bw * 1e12);
}
/* The target's reduction of `bytes`: a generic kernel of 3 * bytes of memory traffic, which
 * outweighs its one operation per element at the default peak. */
static long long reduction(double bytes) {
  return llround(3 * bytes / core_bps * 1e12);
}
static long long max2(long long a, long long b) {
  return a > b ? a : b;
}

/* Rank 0 times one operation (issued by `op`) and its flush (MPI_Win_flush or
 * MPI_Win_flush_local) under an exclusive lock on rank 1, which only waits: the lock costs
 * o_lock + 2L, the operation and flush `expected`; the operation is complete at the target
 * `complete` after the lock, and the unlock ends at that or o_lock after the flush. */
static void passive_case_with(const char* what, MPI_Win win, void (*op)(MPI_Win, void*), void* buf,
                              int (*flush)(int, MPI_Win), long long expected, long long complete) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    long long t0 = ps_now();
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
    long long t1 = ps_now();
    CHECK(t1 - t0 == o_lock + 2 * lat, "%s: lock took %lld ps, closed form %lld", what, t1 - t0,
          o_lock + 2 * lat);
    op(win, buf);
    flush(1, win);
    long long t2 = ps_now();
    CHECK(t2 - t1 == expected, "%s and flush took %lld ps, closed form %lld", what, t2 - t1,
          expected);
    MPI_Win_unlock(1, win);
    long long unlock = max2(o_lock, t1 + complete - t2);
    CHECK(ps_now() - t2 == unlock, "%s: unlock took %lld ps, closed form %lld", what, ps_now() - t2,
          unlock);
  }
}
static void passive_case(const char* what, MPI_Win win, void (*op)(MPI_Win, void*), void* buf,
                         long long expected) {
  passive_case_with(what, win, op, buf, MPI_Win_flush, expected, expected);
}

static int bytes;
static void put(MPI_Win win, void* buf) {
  MPI_Put(buf, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, win);
}
static void get(MPI_Win win, void* buf) {
  MPI_Get(buf, bytes, MPI_BYTE, 1, 0, bytes, MPI_BYTE, win);
}
static void acc(MPI_Win win, void* buf) {
  MPI_Accumulate(buf, bytes / 8, MPI_DOUBLE, 1, 0, bytes / 8, MPI_DOUBLE, MPI_SUM, win);
}
static void fop(MPI_Win win, void* buf) {
  MPI_Fetch_and_op(buf, (char*)buf + 8, MPI_LONG, 1, 0, MPI_SUM, win);
}
static void cas(MPI_Win win, void* buf) {
  MPI_Compare_and_swap(buf, (char*)buf + 8, (char*)buf + 16, MPI_LONG, 1, 0, win);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 15) {
    fprintf(stderr,
            "usage: rma_timing O_SEND O_RECV LATENCY BYTES_PER_S O_PUT O_GET O_ACC "
            "O_ATOMIC O_LOCK O_FLUSH O_FENCE O_PSCW O_WIN_SYNC CORE_BPS\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  o_s = atoll(argv[1]), o_r = atoll(argv[2]), lat = atoll(argv[3]), bw = atof(argv[4]);
  o_put = atoll(argv[5]), o_get = atoll(argv[6]), o_acc = atoll(argv[7]);
  o_atomic = atoll(argv[8]), o_lock = atoll(argv[9]), o_flush = atoll(argv[10]);
  o_fence = atoll(argv[11]), o_pscw = atoll(argv[12]), o_win_sync = atoll(argv[13]);
  core_bps = atof(argv[14]);
  const int max_bytes = 1 << 20;
  char* base;
  MPI_Win win;
  MPI_Win_allocate(max_bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  char* buf = calloc(max_bytes, 1);

  /* put: data flow, then an acknowledgement; get: request, then the data back; accumulate: a
   * put plus the target's reduction; the flush's own o_flush overlaps the wait. */
  for (bytes = 8; bytes <= max_bytes; bytes *= 32) {
    passive_case("put", win, put, buf, o_put + max2(o_flush, 2 * lat + wire(bytes)));
    passive_case("get", win, get, buf, o_get + max2(o_flush, 2 * lat + wire(bytes)));
    passive_case("accumulate", win, acc, buf,
                 o_acc + max2(o_flush, 2 * lat + wire(bytes) + reduction(bytes)));
  }
  /* Local completion (MPI_Win_flush_local): a put or accumulate of at most mpi.eager_threshold
   * (64 KiB here) is copied out at the call, so the flush costs only its o_flush; a larger one
   * frees its buffer when its data is at the target, L + S/B after the issue, as a rendezvous
   * send; a get completes locally when its data is back. */
  for (int k = 0; k < 2; ++k) {
    bytes = k == 0 ? 8 : max_bytes;
    int eager = bytes <= 64 * 1024;
    long long put_done = o_put + 2 * lat + wire(bytes);
    long long acc_done = o_acc + 2 * lat + wire(bytes) + reduction(bytes);
    passive_case_with("put (local)", win, put, buf, MPI_Win_flush_local,
                      eager ? o_put + o_flush : o_put + max2(o_flush, lat + wire(bytes)), put_done);
    passive_case_with("accumulate (local)", win, acc, buf, MPI_Win_flush_local,
                      eager ? o_acc + o_flush : o_acc + max2(o_flush, lat + wire(bytes)), acc_done);
    long long get_done = o_get + max2(o_flush, 2 * lat + wire(bytes));
    passive_case_with("get (local)", win, get, buf, MPI_Win_flush_local, get_done, get_done);
  }

  /* Atomics: a round trip of 8 bytes each way (16 out for compare-and-swap). */
  passive_case("fetch_and_op", win, fop, buf, o_atomic + 2 * lat + 2 * wire(8) + reduction(8));
  passive_case("compare_and_swap", win, cas, buf,
               o_atomic + 2 * lat + wire(16) + wire(8) + reduction(8));

  /* Fence: a two-rank dissemination barrier after the caller's o_fence (and, closing an epoch,
   * after its operations are acknowledged). A rank that entered the barrier at B leaves when its
   * send is done and the other's message is in: max(B + o_s, max(B' + o_s + L, B) + o_r), B'
   * the other's entry. Rank 0 puts S bytes between an opening and a closing fence; each rank
   * records when it entered the opening fence and left each, and rank 0 checks all four. */
  bytes = 4096;
  MPI_Barrier(MPI_COMM_WORLD);
  long long t[3];
  t[0] = ps_now();
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  t[1] = ps_now();
  if (rank == 0) put(win, buf);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  t[2] = ps_now();
  long long all[6];
  MPI_Gather(t, 3, MPI_LONG_LONG, all, 3, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    long long b0 = all[0] + o_fence, b1 = all[3] + o_fence;
    long long x0 = max2(b0 + o_s, max2(b1 + o_s + lat, b0) + o_r);
    long long x1 = max2(b1 + o_s, max2(b0 + o_s + lat, b1) + o_r);
    CHECK(all[1] == x0 && all[4] == x1,
          "opening fence left at %lld and %lld ps, closed form %lld "
          "and %lld",
          all[1], all[4], x0, x1);
    b0 = max2(x0 + o_put + o_fence, x0 + o_put + 2 * lat + wire(bytes)); /* the put acknowledged */
    b1 = x1 + o_fence;
    x0 = max2(b0 + o_s, max2(b1 + o_s + lat, b0) + o_r);
    x1 = max2(b1 + o_s, max2(b0 + o_s + lat, b1) + o_r);
    CHECK(all[2] == x0 && all[5] == x1,
          "closing fence left at %lld and %lld ps, closed form %lld "
          "and %lld",
          all[2], all[5], x0, x1);
  }

  /* Post-start-complete-wait without operations: rank 1 exposes its window to rank 0. Each call
   * costs o_pscw first; a post's notice reaches rank 0 L after the post's cost, and the
   * complete's reaches rank 1 L after the complete's. Rank 0 sends its times to rank 1, which
   * checks its own and rank 0's. */
  MPI_Group world_group, peer;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int other = 1 - rank;
  MPI_Group_incl(world_group, 1, &other, &peer);
  MPI_Barrier(MPI_COMM_WORLD);
  long long p[3];
  p[0] = ps_now();
  if (rank == 0) {
    MPI_Win_start(peer, 0, win);
    p[1] = ps_now();
    MPI_Win_complete(win);
  } else {
    MPI_Win_post(peer, 0, win);
    p[1] = ps_now();
    MPI_Win_wait(win);
  }
  p[2] = ps_now();
  if (rank == 0) MPI_Send(p, 3, MPI_LONG_LONG, 1, 0, MPI_COMM_WORLD);
  if (rank == 1) {
    long long q[3];
    MPI_Recv(q, 3, MPI_LONG_LONG, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long long start = max2(q[0] + o_pscw, p[0] + o_pscw + lat), complete = start + o_pscw;
    long long post = p[0] + o_pscw, wait = max2(post + o_pscw, complete + lat);
    CHECK(q[1] == start && q[2] == complete,
          "start and complete returned at %lld and %lld ps, closed form %lld and %lld", q[1], q[2],
          start, complete);
    CHECK(p[1] == post && p[2] == wait,
          "post and wait returned at %lld and %lld ps, closed form %lld and %lld", p[1], p[2], post,
          wait);
  }
  MPI_Group_free(&peer);
  MPI_Group_free(&world_group);

  /* MPI_Win_sync: its own cost only (the memory model is unified). */
  long long s0 = ps_now();
  MPI_Win_sync(win);
  CHECK(ps_now() - s0 == o_win_sync, "MPI_Win_sync took %lld ps, closed form %lld", ps_now() - s0,
        o_win_sync);

  MPI_Win_free(&win);
  free(buf);
  return finish("rma_timing");
}
