// SPDX-License-Identifier: Apache-2.0
// Each rank has the C library's per-process state to itself, as a process would (issue 19):
// rand/random, the drand48 family, strtok, getopt_long (this file never names optind, so the
// C library's own optind is the one used) and errno, each used across barriers so that the
// ranks' calls interleave. Expected values are a fresh glibc process's.
#include <errno.h>
#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void check(int ok, const char* what, int rank) {
  if (!ok) {
    printf("rank %d: wrong %s\n", rank, what);
    failures++;
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  // Options: every rank parses the whole command line (-n N --name S).
  static const struct option longopts[] = {{"name", required_argument, 0, 's'}, {0, 0, 0, 0}};
  int n = 0, c;
  char name[32] = "";
  while ((c = getopt_long(argc, argv, "n:", longopts, NULL)) != -1) {
    if (c == 'n') n = atoi(optarg);
    if (c == 's') snprintf(name, sizeof name, "%s", optarg);
    MPI_Barrier(MPI_COMM_WORLD);  // the ranks' parses interleave
  }
  check(n == 17 && strcmp(name, "abc") == 0, "options", rank);

  // rand: a new process's sequence on every rank (glibc seeds 1).
  int r1 = rand();
  MPI_Barrier(MPI_COMM_WORLD);
  int r2 = rand();
  check(r1 == 1804289383 && r2 == 846930886, "rand sequence", rank);
  srand(1000 + rank);
  MPI_Barrier(MPI_COMM_WORLD);
  int mine = rand(), all[1024];
  srand(1000 + rank);
  check(rand() == mine, "rand after srand", rank);
  MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
  for (int i = 0; i < size && i < 1024; ++i)
    check(i == rank || all[i] != mine, "rand seeds (another rank's number)", rank);

  // drand48: a new process starts from a zero state (x = 0, so the first number is c / 2^48 =
  // 11 / 2^48); srand48 seeds the rank's own.
  double d1 = drand48();
  MPI_Barrier(MPI_COMM_WORLD);
  check(d1 == 11.0 / 281474976710656.0, "first drand48", rank);
  srand48(7);
  MPI_Barrier(MPI_COMM_WORLD);
  long l1 = lrand48();
  long lall[1024];
  MPI_Allgather(&l1, 1, MPI_LONG, lall, 1, MPI_LONG, MPI_COMM_WORLD);
  for (int i = 0; i < size && i < 1024; ++i) check(lall[i] == l1, "lrand48 after srand48(7)", rank);

  // strtok: each rank's own position.
  char text[64];
  snprintf(text, sizeof text, "r%d,x,y", rank);
  char* t = strtok(text, ",");
  MPI_Barrier(MPI_COMM_WORLD);
  char expect[16];
  snprintf(expect, sizeof expect, "r%d", rank);
  check(t && strcmp(t, expect) == 0, "strtok first token", rank);
  t = strtok(NULL, ",");
  MPI_Barrier(MPI_COMM_WORLD);
  check(t && strcmp(t, "x") == 0, "strtok second token", rank);

  // errno: each rank's own, across other ranks' calls.
  errno = 100 + rank;
  MPI_Barrier(MPI_COMM_WORLD);
  check(errno == 100 + rank, "errno after a barrier", rank);

  int total = 0;
  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("libc state: %d failures at %d ranks\n", total, size);
  MPI_Finalize();
  return 0;
}
