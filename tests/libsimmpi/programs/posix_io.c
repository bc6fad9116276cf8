/* SPDX-License-Identifier: Apache-2.0 */
/* POSIX I/O of ranks under io.posix_mounts timed by the storage model, with zero network
 * latencies (the test sets them): an open or close costs one metadata operation M, a write or
 * read of S bytes L + S/BW; the same calls outside the mount cost nothing. Every rank writes its
 * own file with write(), and with fwrite(), and reads it back with pread() and fread().
 *   posix_io MOUNT OUTSIDE S L_PS M_PS OST_BPS */
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static long long ps_now(void) {
  return llround(simmpi_now() * 1e12);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 7) {
    fprintf(stderr, "usage: posix_io MOUNT OUTSIDE S L_PS M_PS OST_BPS\n");
    return 2;
  }
  long long S = atoll(argv[3]), l = atoll(argv[4]), m = atoll(argv[5]);
  double bw = atof(argv[6]);
  long long access = l + llround(S / bw * 1e12);
  char* out = malloc((size_t)S);
  char* in = malloc((size_t)S);
  for (long long i = 0; i < S; ++i) out[i] = (char)(i * 7 + rank);
  char path[600], other[600];
  snprintf(path, sizeof path, "%s/posix_%d.dat", argv[1], rank);
  snprintf(other, sizeof other, "%s/posix_%d.dat", argv[2], rank);
  MPI_Barrier(MPI_COMM_WORLD);

  long long t0 = ps_now();
  int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  long long t1 = ps_now();
  CHECK(fd >= 0 && t1 - t0 >= m, "open took %lld ps, at least m = %lld", t1 - t0, m);
  CHECK(write(fd, out, (size_t)S) == S, "write");
  long long t2 = ps_now();
  CHECK(t2 - t1 >= access, "write took %lld ps, at least %lld", t2 - t1, access);
  if (rank == 0)
    CHECK(t2 - t1 == access, "alone, write took %lld ps, closed form %lld", t2 - t1, access);
  close(fd);
  CHECK(ps_now() - t2 >= m, "close took %lld ps", ps_now() - t2);
  fd = open(path, O_RDONLY);
  memset(in, 0, (size_t)S);
  CHECK(pread(fd, in, (size_t)S, 0) == S && memcmp(in, out, (size_t)S) == 0, "pread back");
  close(fd);

  FILE* f = fopen(path, "w");
  t0 = ps_now();
  CHECK(fwrite(out, 1, (size_t)S, f) == (size_t)S, "fwrite");
  CHECK(ps_now() - t0 >= access, "fwrite took %lld ps", ps_now() - t0);
  fclose(f);
  f = fopen(path, "r");
  memset(in, 0, (size_t)S);
  CHECK(fread(in, 1, (size_t)S, f) == (size_t)S && memcmp(in, out, (size_t)S) == 0, "fread back");
  fclose(f);
  unlink(path);

  /* Outside the mount: host I/O, no simulated time. */
  t0 = ps_now();
  fd = open(other, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  CHECK(write(fd, out, (size_t)S) == S, "write outside");
  close(fd);
  CHECK(ps_now() == t0, "I/O outside the mount took %lld ps", ps_now() - t0);
  unlink(other);
  free(in);
  free(out);
  return finish("posix_io");
}
