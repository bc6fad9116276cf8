// SPDX-License-Identifier: Apache-2.0
// The MPI tool information interface (MPI_T): simmpi's configuration keys as control variables,
// the rank's queues and own-code time as performance variables, one category, and the error
// codes the standard names. Prints the eager threshold it reads and "mpi_t: N failures".
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int failures = 0, rank = -1;

static void check(int ok, const char* what) {
  if (!ok) {
    printf("rank %d: wrong %s\n", rank, what);
    failures++;
  }
}

int main(int argc, char** argv) {
  int provided, n, index, count, cls;
  check(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED, "call before MPI_T_init_thread");
  check(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS, "MPI_T_init_thread");
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  // Control variables: every configuration key, read-only.
  check(MPI_T_cvar_get_num(&n) == MPI_SUCCESS && n > 20, "number of control variables");
  check(MPI_T_cvar_get_index("mpi.eager_threshold", &index) == MPI_SUCCESS, "cvar index");
  char name[256], desc[1024];
  int name_len = sizeof name, desc_len = sizeof desc, verbosity, bind, scope;
  MPI_Datatype type;
  MPI_T_enum enumtype;
  check(MPI_T_cvar_get_info(index, name, &name_len, &verbosity, &type, &enumtype, desc, &desc_len,
                            &bind, &scope) == MPI_SUCCESS &&
            strcmp(name, "mpi.eager_threshold") == 0 && name_len == 20 && type == MPI_CHAR &&
            scope == MPI_T_SCOPE_CONSTANT && desc_len > 1,
        "cvar info");
  MPI_T_cvar_handle cvar;
  check(MPI_T_cvar_handle_alloc(index, NULL, &cvar, &count) == MPI_SUCCESS && count > 1,
        "cvar handle");
  char value[256] = "";
  check(MPI_T_cvar_read(cvar, value) == MPI_SUCCESS && (int)strlen(value) + 1 == count,
        "cvar read");
  if (rank == 0) printf("mpi_t: mpi.eager_threshold = %s\n", value);
  check(MPI_T_cvar_write(cvar, value) == MPI_T_ERR_CVAR_SET_NEVER, "cvar write refused");
  check(MPI_T_cvar_get_index("no.such.key", &index) == MPI_T_ERR_INVALID_NAME, "unknown cvar");
  check(MPI_T_cvar_get_info(n, name, &name_len, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
            MPI_T_ERR_INVALID_INDEX,
        "cvar index out of range");
  check(MPI_T_cvar_handle_free(&cvar) == MPI_SUCCESS && cvar == MPI_T_CVAR_HANDLE_NULL,
        "cvar handle free");

  // Performance variables: this rank's unexpected-message queue.
  MPI_T_pvar_session session;
  MPI_T_pvar_handle queue, own;
  check(MPI_T_pvar_session_create(&session) == MPI_SUCCESS, "session");
  check(MPI_T_pvar_get_index("unexpected_queue_length", MPI_T_PVAR_CLASS_LEVEL, &index) ==
            MPI_SUCCESS,
        "pvar index");
  check(MPI_T_pvar_handle_alloc(session, index, NULL, &queue, &count) == MPI_SUCCESS && count == 1,
        "pvar handle");
  int size, msg = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 1 && rank == 1)
    for (int i = 0; i < 3; ++i) MPI_Send(&msg, 1, MPI_INT, 0, i, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  unsigned waiting = 99;
  check(MPI_T_pvar_read(session, queue, &waiting) == MPI_SUCCESS, "pvar read");
  check(waiting == (size > 1 && rank == 0 ? 3u : 0u), "unexpected queue length");
  if (size > 1 && rank == 0) {
    for (int i = 0; i < 3; ++i) MPI_Recv(&msg, 1, MPI_INT, 1, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_T_pvar_read(session, queue, &waiting);
    check(waiting == 0, "unexpected queue length after the receives");
  }
  check(MPI_T_pvar_start(session, queue) == MPI_T_ERR_PVAR_NO_STARTSTOP, "continuous: no start");
  check(MPI_T_pvar_write(session, queue, &waiting) == MPI_T_ERR_PVAR_NO_WRITE, "read-only");

  // Own-code time: grows with computation when it is measured.
  check(MPI_T_pvar_get_index("own_code_time", MPI_T_PVAR_CLASS_TIMER, &index) == MPI_SUCCESS,
        "own_code_time index");
  MPI_T_pvar_handle_alloc(session, index, NULL, &own, &count);
  double before = -1, after = -1;
  MPI_T_pvar_read(session, own, &before);
  volatile double x = 0;
  for (int i = 0; i < 20000000; ++i) x += i * 1e-9;
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_T_pvar_read(session, own, &after);
  check(before >= 0 && after > before, "own_code_time grows");

  // One category with everything.
  int ncat, ncv, npv, nsub;
  name_len = sizeof name;
  check(MPI_T_category_get_num(&ncat) == MPI_SUCCESS && ncat == 1, "categories");
  check(MPI_T_category_get_info(0, name, &name_len, NULL, NULL, &ncv, &npv, &nsub) == MPI_SUCCESS &&
            strcmp(name, "simmpi") == 0 && ncv == n && npv >= 3 && nsub == 0,
        "category info");

  check(MPI_T_pvar_handle_free(session, &queue) == MPI_SUCCESS, "pvar handle free");
  check(MPI_T_pvar_session_free(&session) == MPI_SUCCESS, "session free");
  check(MPI_T_pvar_read(session, own, &after) == MPI_T_ERR_INVALID_SESSION, "freed session");
  check(MPI_T_finalize() == MPI_SUCCESS, "MPI_T_finalize");
  check(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED, "call after MPI_T_finalize");
  (void)cls;
  int total = 0;
  MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("mpi_t: %d failures\n", total);
  MPI_Finalize();
  return 0;
}
