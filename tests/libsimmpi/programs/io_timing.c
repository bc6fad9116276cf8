/* SPDX-License-Identifier: Apache-2.0 */
/* MPI-IO's simulated times against the closed forms of hardware/storage/storage_model.hpp, to
 * the picosecond, on a one-switch network whose latencies are zero (the test sets them), so
 * an access of S bytes to one OST costs l + S/B and a metadata operation m:
 *   io_timing PREFIX CASE S L_PS M_PS OST_BPS LINK_BPS STRIPES
 * CASE one:     rank 0 alone opens (one metadata operation, m) and writes S bytes: m + l + S/bw
 *      stripes: rank 0 writes S bytes to a file striped over STRIPES OSTs:
 *               l + S / min(STRIPES x bw, link)
 *      shared:  every rank writes S bytes to one OST at once: the last ends l + N S / bw
 *               after the first began
 *      read:    rank 0 reads S bytes back: l + S/bw
 *      link:    (OSTs faster than the client's link) rank 0 writes S bytes while it sends S bytes
 *               to rank 1: both flows share its link, so the write takes l + 2 S / link, where
 *               alone it takes l + S / link */
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
    fprintf(stderr, "usage: io_timing PREFIX CASE S L_PS M_PS OST_BPS LINK_BPS STRIPES\n");
    return 2;
  }
  char path[512];
  snprintf(path, sizeof path, "%s.dat", argv[1]);
  const char* which = argv[2];
  long long S = atoll(argv[3]), l = atoll(argv[4]), m = atoll(argv[5]);
  double bw = atof(argv[6]), link = atof(argv[7]);
  int stripes = atoi(argv[8]);
  char* buf = calloc((size_t)S, 1);
  MPI_Info info;
  MPI_Info_create(&info);
  char factor[16];
  snprintf(factor, sizeof factor, "%d", stripes);
  MPI_Info_set(info, "striping_factor", factor);
  MPI_File fh;
  MPI_Status st;
  if (strcmp(which, "one") == 0) {
    if (rank == 0) {
      long long t0 = ps_now();
      MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh);
      long long t1 = ps_now();
      CHECK(t1 - t0 == m, "open took %lld ps, closed form m = %lld", t1 - t0, m);
      MPI_File_write_at(fh, 0, buf, (int)S, MPI_BYTE, &st);
      long long expected = l + llround(S / bw * 1e12);
      CHECK(ps_now() - t1 == expected, "write took %lld ps, closed form %lld", ps_now() - t1,
            expected);
      MPI_File_close(&fh);
    }
  } else if (strcmp(which, "stripes") == 0 || strcmp(which, "read") == 0) {
    if (rank == 0) {
      MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_RDWR, info, &fh);
      double rate = stripes * bw < link ? stripes * bw : link;
      long long t0 = ps_now();
      MPI_File_write_at(fh, 0, buf, (int)S, MPI_BYTE, &st);
      long long expected = l + llround(S / rate * 1e12);
      CHECK(ps_now() - t0 == expected, "striped write took %lld ps, closed form %lld",
            ps_now() - t0, expected);
      t0 = ps_now();
      MPI_File_read_at(fh, 0, buf, (int)S, MPI_BYTE, &st);
      CHECK(ps_now() - t0 == expected, "striped read took %lld ps, closed form %lld", ps_now() - t0,
            expected);
      MPI_File_close(&fh);
    }
  } else if (strcmp(which, "link") == 0) {
    char* msg = calloc((size_t)S, 1);
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh);
    if (rank == 0) {
      long long t0 = ps_now();
      MPI_File_write_at(fh, 0, buf, (int)S, MPI_BYTE, &st);
      long long alone = ps_now() - t0, expected = l + llround(S / link * 1e12);
      CHECK(alone == expected, "write alone took %lld ps, closed form %lld", alone, expected);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) MPI_Recv(msg, (int)S, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0) {
      MPI_Request req;
      MPI_Isend(msg, (int)S, MPI_BYTE, 1, 0, MPI_COMM_WORLD, &req);
      long long t0 = ps_now();
      MPI_File_write_at(fh, S, buf, (int)S, MPI_BYTE, &st);
      long long shared = ps_now() - t0, expected = l + llround(2 * S / link * 1e12);
      /* The message's handshake starts its flow a few hundred ns apart from the write's. */
      CHECK(llabs(shared - expected) < 2000000,
            "write beside a message took %lld ps, closed "
            "form %lld",
            shared, expected);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_File_close(&fh);
    free(msg);
  } else if (strcmp(which, "shared") == 0) {
    MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh);
    MPI_Barrier(MPI_COMM_WORLD);
    long long t0 = ps_now();
    MPI_File_write_at(fh, (MPI_Offset)rank * S, buf, (int)S, MPI_BYTE, &st);
    long long t1 = ps_now(), first = 0, last = 0;
    MPI_Allreduce(&t0, &first, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&t1, &last, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    /* Max-min sharing of one OST keeps it busy from the first write's start: the last ends
     * N S / bw later (after the OST's latency); the solver's rates round to a picosecond per
     * flow. */
    long long expected = l + llround((double)size * S / bw * 1e12);
    CHECK(llabs(last - first - expected) <= size, "the writes took %lld ps, closed form %lld",
          last - first, expected);
    MPI_File_close(&fh);
  }
  MPI_Info_free(&info);
  free(buf);
  return finish("io_timing");
}
