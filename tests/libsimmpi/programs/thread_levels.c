/* SPDX-License-Identifier: Apache-2.0 */
/* MPI's thread levels with threads inside ranks.
 *   thread_levels query LEVEL   MPI_Init_thread(LEVEL: single, funneled, serialized, multiple):
 *       provided is LEVEL; MPI_Query_thread says LEVEL in the rank's own fiber and in a thread;
 *       MPI_Is_thread_main is 1 in the fiber that initialized MPI, 0 in the thread (both calls
 *       are allowed from any thread at any level).
 *   thread_levels misuse LEVEL  a thread calls MPI_Comm_rank: an error under single or
 *       funneled (the run ends with the message), fine under serialized or multiple. */
#include <pthread.h>
#include <string.h>

#include "check.h"

static int level_of(const char* name) {
  if (!strcmp(name, "single")) return MPI_THREAD_SINGLE;
  if (!strcmp(name, "funneled")) return MPI_THREAD_FUNNELED;
  if (!strcmp(name, "serialized")) return MPI_THREAD_SERIALIZED;
  return MPI_THREAD_MULTIPLE;
}

static int level;

static void* query(void* arg) {
  int* out = arg;
  MPI_Query_thread(&out[0]);
  MPI_Is_thread_main(&out[1]);
  return NULL;
}

static void* misuse(void* arg) {
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  *(int*)arg = rank;
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  level = level_of(argv[2]);
  int provided = -1, queried = -1, is_main = -1, rank;
  MPI_Init_thread(&argc, &argv, level, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  CHECK(provided == level, "asked for %d, provided %d", level, provided);
  MPI_Query_thread(&queried);
  MPI_Is_thread_main(&is_main);
  CHECK(queried == level && is_main == 1, "main fiber: query %d, is_thread_main %d", queried,
        is_main);
  pthread_t t;
  if (!strcmp(argv[1], "query")) {
    int seen[2] = {-1, -1};
    pthread_create(&t, NULL, query, seen);
    pthread_join(t, NULL);
    CHECK(seen[0] == level && seen[1] == 0, "thread: query %d, is_thread_main %d", seen[0],
          seen[1]);
  } else {
    int seen = -1;
    pthread_create(&t, NULL, misuse, &seen);
    pthread_join(t, NULL);
    CHECK(seen == rank, "thread: MPI_Comm_rank gave %d", seen);
  }
  return finish("thread_levels");
}
