/* SPDX-License-Identifier: Apache-2.0 */
/* Host cost of MPI-IO from folded buffers (issue 21): every rank writes BYTES from a
 * SIMMPI_SHARED_MALLOC buffer (contents meaningless, never copied) to one shared file, at its own
 * block, with MPI_File_write_at_all (two-phase), then the same with independent
 * MPI_File_write_at, its peer in the same run. The file is left as holes: its disk use is
 * printed from st_blocks.
 * Usage: io_bench PATH [BYTES_PER_RANK]. Prints two lines a script can parse. */
#include <mpi.h>
#include <simmpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "host_clock.h"

/* The file's size and the disk it uses (st_blocks: holes use none). */
static void file_bytes(const char* path, long long* size, long long* disk) {
  struct stat st;
  *size = *disk = -1;
  if (stat(path, &st) != 0) return;
  *size = (long long)st.st_size;
  *disk = (long long)st.st_blocks * 512;
}

static void run(const char* what, const char* path, char* buf, int bytes, int collective) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_File fh;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = host_seconds(), s0 = MPI_Wtime();
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  MPI_Offset at = (MPI_Offset)rank * bytes;
  if (collective)
    MPI_File_write_at_all(fh, at, buf, bytes, MPI_BYTE, MPI_STATUS_IGNORE);
  else
    MPI_File_write_at(fh, at, buf, bytes, MPI_BYTE, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
  double host = host_seconds() - t0, sim = MPI_Wtime() - s0;
  if (rank == 0) {
    long long file_size, disk;
    file_bytes(path, &file_size, &disk);
    printf(
        "bench=io_%s ranks=%d bytes=%lld host_s=%.3f sim_s=%.6f file_size=%lld "
        "disk_bytes=%lld\n",
        what, size, (long long)size * bytes, host, sim, file_size, disk);
    MPI_File_delete(path, MPI_INFO_NULL);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc < 2) {
    fprintf(stderr, "usage: io_bench PATH [BYTES_PER_RANK]\n");
    return 2;
  }
  int bytes = argc > 2 ? atoi(argv[2]) : 16 << 20;
  char* buf = SIMMPI_SHARED_MALLOC((size_t)bytes);
  run("write_at_all", argv[1], buf, bytes, 1);
  run("write_at", argv[1], buf, bytes, 0);
  SIMMPI_SHARED_FREE(buf);
  MPI_Finalize();
  return 0;
}
