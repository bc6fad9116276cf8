/* SPDX-License-Identifier: Apache-2.0 */
/* Point-to-point semantics: non-overtaking order across protocols, wildcards, MPI_PROC_NULL,
 * probes, the Wait/Test families, polling loops, cancel, request free, buffered, synchronous and
 * ready modes, Sendrecv(_replace), Get_count and every predefined basic datatype. Any size >= 2. */
#include <complex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

/* Rank 0 sends messages of growing size (eager and rendezvous) with one tag to rank 1, which
 * must receive them in order, even with MPI_ANY_SOURCE/MPI_ANY_TAG. */
static void non_overtaking(void) {
  enum { N = 12 };
  const int sizes[N] = {1, 100000, 2, 70000, 8, 1 << 20, 3, 4, 200000, 5, 6, 7};
  if (rank == 0) {
    for (int k = 0; k < N; ++k) {
      int* buf = malloc(sizes[k] * sizeof(int));
      for (int i = 0; i < sizes[k]; ++i) buf[i] = k * 1000 + i % 1000;
      MPI_Send(buf, sizes[k], MPI_INT, 1, 5, MPI_COMM_WORLD);
      free(buf);
    }
  } else if (rank == 1) {
    int* buf = malloc((1 << 20) * sizeof(int));
    for (int k = 0; k < N; ++k) {
      MPI_Status st;
      MPI_Recv(buf, 1 << 20, MPI_INT, k % 2 ? MPI_ANY_SOURCE : 0, k % 3 ? MPI_ANY_TAG : 5,
               MPI_COMM_WORLD, &st);
      int count;
      MPI_Get_count(&st, MPI_INT, &count);
      CHECK(count == sizes[k], "message %d: count %d, expected %d", k, count, sizes[k]);
      CHECK(buf[0] == k * 1000 && buf[count - 1] == k * 1000 + (count - 1) % 1000,
            "message %d: payload %d..%d", k, buf[0], buf[count - 1]);
      CHECK(st.MPI_SOURCE == 0 && st.MPI_TAG == 5, "status %d/%d", st.MPI_SOURCE, st.MPI_TAG);
    }
    free(buf);
  }
}

/* Every rank sends its rank to rank 0 with tag = rank; rank 0 receives with wildcards. */
static void any_source(void) {
  if (rank != 0) {
    MPI_Send(&rank, 1, MPI_INT, 0, rank, MPI_COMM_WORLD);
    return;
  }
  int seen = 0;
  for (int i = 1; i < size; ++i) {
    int v;
    MPI_Status st;
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK(v == st.MPI_SOURCE && v == st.MPI_TAG, "value %d from %d tag %d", v, st.MPI_SOURCE,
          st.MPI_TAG);
    seen += v;
  }
  CHECK(seen == size * (size - 1) / 2, "sum of sources %d", seen);
}

static void proc_null(void) {
  int v = 7;
  MPI_Status st;
  MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0 && v == 7,
        "status of a MPI_PROC_NULL receive: source %d tag %d count %d", st.MPI_SOURCE, st.MPI_TAG,
        count);
}

/* Probe then receive exactly the probed message; Iprobe eventually sees it. */
static void probes(void) {
  if (rank == 1) {
    double d[3] = {1.5, 2.5, 3.5};
    MPI_Send(d, 3, MPI_DOUBLE, 0, 42, MPI_COMM_WORLD);
    MPI_Send(d, 2, MPI_DOUBLE, 0, 43, MPI_COMM_WORLD);
  } else if (rank == 0) {
    MPI_Status st;
    MPI_Probe(1, 42, MPI_COMM_WORLD, &st);
    int count;
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    CHECK(count == 3 && st.MPI_TAG == 42, "probe count %d tag %d", count, st.MPI_TAG);
    double d[3];
    MPI_Recv(d, count, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(d[2] == 3.5, "probed payload");
    int flag = 0, polls = 0;
    while (!flag) {
      MPI_Iprobe(MPI_ANY_SOURCE, 43, MPI_COMM_WORLD, &flag, &st);
      ++polls;
    }
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    CHECK(count == 2 && st.MPI_SOURCE == 1, "iprobe count %d source %d after %d polls", count,
          st.MPI_SOURCE, polls);
    MPI_Recv(d, 2, MPI_DOUBLE, 1, 43, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
}

/* Wait/Test families on a ring: everyone receives from both neighbours. */
static void completion_families(void) {
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  int in[2] = {-1, -1}, out = rank;
  MPI_Request r[4];
  MPI_Irecv(&in[0], 1, MPI_INT, left, 1, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(&in[1], 1, MPI_INT, right, 2, MPI_COMM_WORLD, &r[1]);
  MPI_Isend(&out, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &r[2]);
  MPI_Isend(&out, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &r[3]);
  /* Waitany twice, then Testsome/Testall until all done: a polling loop must terminate. */
  int idx, done = 0;
  MPI_Status st;
  MPI_Waitany(4, r, &idx, &st);
  CHECK(idx >= 0 && idx < 4 && r[idx] == MPI_REQUEST_NULL, "waitany index %d", idx);
  ++done;
  int flag = 0;
  while (!flag) MPI_Testall(4, r, &flag, MPI_STATUSES_IGNORE);
  CHECK(in[0] == left && in[1] == right, "ring values %d %d", in[0], in[1]);
  for (int i = 0; i < 4; ++i) CHECK(r[i] == MPI_REQUEST_NULL, "request %d not freed", i);
  /* All-null arrays. */
  MPI_Waitany(4, r, &idx, &st);
  CHECK(idx == MPI_UNDEFINED, "waitany on null requests gives %d", idx);
  int outcount;
  int indices[4];
  MPI_Waitsome(4, r, &outcount, indices, MPI_STATUSES_IGNORE);
  CHECK(outcount == MPI_UNDEFINED, "waitsome on null requests gives %d", outcount);
  MPI_Testany(4, r, &idx, &flag, &st);
  CHECK(flag && idx == MPI_UNDEFINED, "testany on null requests");
  /* Waitsome then Test loop on fresh requests. */
  MPI_Irecv(&in[0], 1, MPI_INT, left, 3, MPI_COMM_WORLD, &r[0]);
  MPI_Isend(&out, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &r[1]);
  int completed = 0;
  while (completed < 2) {
    MPI_Waitsome(2, r, &outcount, indices, MPI_STATUSES_IGNORE);
    CHECK(outcount >= 1, "waitsome returned %d", outcount);
    completed += outcount;
  }
  MPI_Irecv(&in[1], 1, MPI_INT, right, 4, MPI_COMM_WORLD, &r[0]);
  MPI_Send(&out, 1, MPI_INT, left, 4, MPI_COMM_WORLD);
  flag = 0;
  while (!flag) MPI_Test(&r[0], &flag, &st);
  CHECK(in[1] == right && st.MPI_SOURCE == right, "test loop value %d", in[1]);
}

static void cancel_and_free(void) {
  int v = 0;
  MPI_Request r;
  MPI_Status st;
  MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &r);
  MPI_Cancel(&r);
  MPI_Wait(&r, &st);
  int cancelled = 0;
  MPI_Test_cancelled(&st, &cancelled);
  CHECK(cancelled, "receive was not cancelled");
  /* A freed send still delivers. */
  int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
  MPI_Isend(&rank, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &r);
  MPI_Request_free(&r);
  CHECK(r == MPI_REQUEST_NULL, "request_free did not null the handle");
  MPI_Recv(&got, 1, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(got == left, "freed send delivered %d", got);
}

static void send_modes(void) {
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  /* Buffered: the send returns before any receive is posted. */
  int bufsize = 4 * (1000 * sizeof(double) + MPI_BSEND_OVERHEAD);
  char* attached = malloc(bufsize);
  MPI_Buffer_attach(attached, bufsize);
  double big[1000];
  for (int i = 0; i < 1000; ++i) big[i] = rank + i;
  MPI_Bsend(big, 1000, MPI_DOUBLE, right, 11, MPI_COMM_WORLD);
  for (int i = 0; i < 1000; ++i) big[i] = -1; /* the buffered copy must be unaffected */
  MPI_Recv(big, 1000, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(big[999] == left + 999, "bsend payload %f", big[999]);
  void* detached;
  int detached_size;
  MPI_Buffer_detach(&detached, &detached_size);
  CHECK(detached == attached && detached_size == bufsize, "detach returned another buffer");
  free(attached);
  /* Synchronous and ready sends, with the receive posted first. */
  int v = -1;
  MPI_Request r;
  MPI_Irecv(&v, 1, MPI_INT, left, 12, MPI_COMM_WORLD, &r);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Rsend(&rank, 1, MPI_INT, right, 12, MPI_COMM_WORLD);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(v == left, "rsend value %d", v);
  MPI_Irecv(&v, 1, MPI_INT, left, 13, MPI_COMM_WORLD, &r);
  MPI_Ssend(&rank, 1, MPI_INT, right, 13, MPI_COMM_WORLD);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  CHECK(v == left, "ssend value %d", v);
  /* Sendrecv and Sendrecv_replace around the ring. */
  int a = rank * 10, b = -1;
  MPI_Sendrecv(&a, 1, MPI_INT, right, 14, &b, 1, MPI_INT, left, 14, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  CHECK(b == left * 10, "sendrecv value %d", b);
  long long c[4] = {rank, rank + 1, rank + 2, rank + 3};
  MPI_Status st;
  MPI_Sendrecv_replace(c, 4, MPI_LONG_LONG, right, 15, left, 15, MPI_COMM_WORLD, &st);
  CHECK(c[0] == left && c[3] == left + 3 && st.MPI_SOURCE == left, "sendrecv_replace %lld", c[0]);
}

/* Every predefined basic type crosses the ring intact, byte for byte. The pair types have the
 * sizes of a real MPI (MPI_DOUBLE_INT: 12 bytes of data in a 16-byte extent), so data bytes are
 * compared after packing, which leaves the padding out. */
static void datatypes(void) {
  const MPI_Datatype types[] = {MPI_CHAR,
                                MPI_SIGNED_CHAR,
                                MPI_UNSIGNED_CHAR,
                                MPI_BYTE,
                                MPI_WCHAR,
                                MPI_SHORT,
                                MPI_UNSIGNED_SHORT,
                                MPI_INT,
                                MPI_UNSIGNED,
                                MPI_LONG,
                                MPI_UNSIGNED_LONG,
                                MPI_LONG_LONG_INT,
                                MPI_UNSIGNED_LONG_LONG,
                                MPI_FLOAT,
                                MPI_DOUBLE,
                                MPI_LONG_DOUBLE,
                                MPI_C_BOOL,
                                MPI_INT8_T,
                                MPI_INT16_T,
                                MPI_INT32_T,
                                MPI_INT64_T,
                                MPI_UINT8_T,
                                MPI_UINT16_T,
                                MPI_UINT32_T,
                                MPI_UINT64_T,
                                MPI_AINT,
                                MPI_COUNT,
                                MPI_OFFSET,
                                MPI_C_FLOAT_COMPLEX,
                                MPI_C_DOUBLE_COMPLEX,
                                MPI_C_LONG_DOUBLE_COMPLEX,
                                MPI_PACKED,
                                MPI_FLOAT_INT,
                                MPI_DOUBLE_INT,
                                MPI_LONG_INT,
                                MPI_2INT,
                                MPI_SHORT_INT,
                                MPI_LONG_DOUBLE_INT};
  const size_t expected_size[] = {1,
                                  1,
                                  1,
                                  1,
                                  sizeof(wchar_t),
                                  2,
                                  2,
                                  4,
                                  4,
                                  sizeof(long),
                                  sizeof(long),
                                  8,
                                  8,
                                  4,
                                  8,
                                  sizeof(long double),
                                  sizeof(_Bool),
                                  1,
                                  2,
                                  4,
                                  8,
                                  1,
                                  2,
                                  4,
                                  8,
                                  sizeof(MPI_Aint),
                                  8,
                                  8,
                                  8,
                                  16,
                                  2 * sizeof(long double),
                                  1,
                                  8,
                                  12,
                                  sizeof(long) + 4,
                                  8,
                                  6,
                                  sizeof(long double) + 4};
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t) {
    int tsize;
    MPI_Type_size(types[t], &tsize);
    CHECK((size_t)tsize == expected_size[t], "type %zu has size %d, expected %zu", t, tsize,
          expected_size[t]);
    MPI_Aint lb, extent;
    MPI_Type_get_extent(types[t], &lb, &extent);
    unsigned char out[5 * 64], in[5 * 64], expect[5 * 64], got[5 * 64], packed_expect[5 * 64];
    for (int i = 0; i < 5 * extent; ++i) {
      out[i] = (unsigned char)(rank * 7 + i + t);
      expect[i] = (unsigned char)(left * 7 + i + t);
    }
    MPI_Sendrecv(out, 5, types[t], right, (int)t, in, 5, types[t], left, (int)t, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    int p1 = 0, p2 = 0;
    MPI_Pack(in, 5, types[t], got, sizeof got, &p1, MPI_COMM_WORLD);
    MPI_Pack(expect, 5, types[t], packed_expect, sizeof packed_expect, &p2, MPI_COMM_WORLD);
    CHECK(p1 == 5 * tsize && p2 == p1, "type %zu packs to %d bytes", t, p1);
    CHECK(memcmp(got, packed_expect, (size_t)p1) == 0, "type %zu corrupted in transit", t);
  }
}

/* A receive too small for the message: MPI_ERR_TRUNCATE under MPI_ERRORS_RETURN. */
static void truncation(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  if (rank == 0) {
    int v[4] = {1, 2, 3, 4};
    MPI_Send(v, 4, MPI_INT, 1, 77, MPI_COMM_WORLD);
  } else if (rank == 1) {
    int v[2];
    MPI_Status st;
    int err = MPI_Recv(v, 2, MPI_INT, 0, 77, MPI_COMM_WORLD, &st);
    int cls;
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE, "truncated receive returned %d", err);
    CHECK(v[0] == 1 && v[1] == 2, "truncated data %d %d", v[0], v[1]);
    int bad = MPI_Send(v, 1, MPI_INT, size + 5, 0, MPI_COMM_WORLD);
    CHECK(bad == MPI_ERR_RANK, "send to a bad rank returned %d", bad);
    bad = MPI_Send(v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    CHECK(bad == MPI_ERR_COUNT, "negative count returned %d", bad);
    bad = MPI_Send(v, 1, MPI_INT, 0, -3, MPI_COMM_WORLD);
    CHECK(bad == MPI_ERR_TAG, "negative tag returned %d", bad);
    char text[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(MPI_ERR_TRUNCATE, text, &len);
    CHECK(len > 0 && strstr(text, "truncated"), "error string \"%s\"", text);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void environment(void) {
  int flag;
  MPI_Initialized(&flag);
  CHECK(flag, "MPI_Initialized");
  MPI_Finalized(&flag);
  CHECK(!flag, "MPI_Finalized before finalize");
  int self_rank, self_size;
  MPI_Comm_rank(MPI_COMM_SELF, &self_rank);
  MPI_Comm_size(MPI_COMM_SELF, &self_size);
  CHECK(self_rank == 0 && self_size == 1, "COMM_SELF %d/%d", self_rank, self_size);
  int v = rank, w = -1;
  MPI_Sendrecv(&v, 1, MPI_INT, 0, 0, &w, 1, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  CHECK(w == rank, "message to self on COMM_SELF");
  char name[MPI_MAX_PROCESSOR_NAME];
  int len;
  MPI_Get_processor_name(name, &len);
  CHECK(len > 0 && strncmp(name, "node", 4) == 0, "processor name %s", name);
  int version, subversion;
  MPI_Get_version(&version, &subversion);
  CHECK(version == 4 && subversion == 1, "version %d.%d", version, subversion);
  double t0 = MPI_Wtime(), t1 = MPI_Wtime();
  CHECK(t1 > t0, "MPI_Wtime does not advance: %g %g", t0, t1);
  CHECK(MPI_Wtick() > 0, "MPI_Wtick");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Barriers between phases keep one phase's wildcard receives from matching the next one's. */
  void (*phases[])(void) = {environment, non_overtaking,      any_source,      proc_null,
                            probes,      completion_families, cancel_and_free, send_modes,
                            datatypes,   truncation};
  for (size_t i = 0; i < sizeof phases / sizeof phases[0]; ++i) {
    phases[i]();
    MPI_Barrier(MPI_COMM_WORLD);
  }
  return finish("p2p_semantics");
}
