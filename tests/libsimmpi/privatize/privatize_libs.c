/* SPDX-License-Identifier: Apache-2.0 */
/* Each rank has its own state in the shared libraries the program brings and in thread-local
 * variables: the linked library libpriv_linked.so, the plugin libpriv_plugin.so that ranks
 * dlopen one after another (each starts from the image its constructor left, not from another
 * rank's), and the program's own __thread/_Thread_local variables. Payloads are sent from and
 * received into those variables while other ranks' copies are live.
 * Usage: privatize_libs [linked-shared | heap]
 *   linked-shared: the run excludes libpriv_linked (runtime.privatize_libs=-libpriv_linked);
 *                  check that its counter is then one for all ranks;
 *   heap:          also dlopen libpriv_heap.so, which simmpi must name at load. */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#ifndef PLUGIN_PATH
#define PLUGIN_PATH "libpriv_plugin.so" /* found through the program's run path */
#endif

int* linked_hidden(void);
int linked_from_constructor(void);
int* linked_tls(void);
long* linked_tls_zero(void);
int linked_bump(void);

static __thread int exe_tls = 100;
static _Thread_local int exe_tls_zero;
static int errors;

#define CHECK(cond)                                                                   \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      ++errors;                                                                       \
      fprintf(stderr, "rank %d: line %d: %s does not hold\n", rank, __LINE__, #cond); \
    }                                                                                 \
  } while (0)

typedef int* (*Getter)(void);

/* dlopens the plugin; the rank's copy must be the constructor's image (99, 3). */
static void open_plugin(int rank, Getter* state, Getter* tls) {
  void* h = dlopen(PLUGIN_PATH, RTLD_NOW);
  if (!h) {
    fprintf(stderr, "rank %d: dlopen: %s\n", rank, dlerror());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  *state = (Getter)dlsym(h, "plugin_state");
  *tls = (Getter)dlsym(h, "plugin_tls");
  CHECK(*(*state)() == 99);
  CHECK(*(*tls)() == 3);
  *(*state)() = 5000 + rank;
  *(*tls)() = 6000 + rank;
}

static void shared_linked(int rank, int size) {
  linked_bump();
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(*linked_hidden() == 5 + size); /* one counter, bumped by every rank */
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1 && strcmp(argv[1], "linked-shared") == 0) {
    shared_linked(rank, size);
  } else {
    CHECK(linked_from_constructor() == 42);
    CHECK(*linked_hidden() == 5 && *linked_tls() == 11 && *linked_tls_zero() == 0);
    CHECK(exe_tls == 100 && exe_tls_zero == 0);
    CHECK(linked_bump() == 6 && *linked_tls_zero() == 1);
    *linked_hidden() = 1000 + rank;
    *linked_tls() = 2000 + rank;
    exe_tls = 3000 + rank;
    exe_tls_zero = 4000 + rank;
    Getter state = NULL, tls = NULL;
    if (rank == 0) open_plugin(rank, &state, &tls);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != 0) open_plugin(rank, &state, &tls);
    if (argc > 1 && strcmp(argv[1], "heap") == 0 && !dlopen(HEAP_PATH, RTLD_NOW)) ++errors;
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(*linked_hidden() == 1000 + rank && *linked_tls() == 2000 + rank);
    CHECK(exe_tls == 3000 + rank && exe_tls_zero == 4000 + rank);
    CHECK(*state() == 5000 + rank && *tls() == 6000 + rank);
    /* Payloads from one rank's library and thread-local variables into another's. */
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Sendrecv(linked_hidden(), 1, MPI_INT, next, 1, state(), 1, MPI_INT, prev, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Request req[2];
    MPI_Irecv(tls(), 1, MPI_INT, prev, 2, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(&exe_tls, 1, MPI_INT, next, 2, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(*state() == 1000 + prev && *tls() == 3000 + prev);
    CHECK(*linked_hidden() == 1000 + rank && *linked_tls() == 2000 + rank);
    CHECK(exe_tls == 3000 + rank && exe_tls_zero == 4000 + rank && *linked_tls_zero() == 1);
  }
  int total = 0;
  MPI_Reduce(&errors, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("privatize_libs: %s (%d ranks, %d errors)\n", total ? "FAILED" : "OK", size, total);
  MPI_Finalize();
  return total != 0;
}
