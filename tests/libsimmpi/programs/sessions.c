/* SPDX-License-Identifier: Apache-2.0 */
/* Sessions (MPI-4.1 11.3), self-checking on any number of ranks. With no argument the program
 * never calls MPI_Init: it lives on sessions alone (process sets, groups from them, communicators
 * from groups, an intercommunicator from two groups, session error handlers, a second session
 * after the first is finalized). With "world" it does the same between MPI_Init and
 * MPI_Finalize, and checks that a communicator from mpi://WORLD is congruent with
 * MPI_COMM_WORLD. With "unfinalized" a rank returns from main with its session open. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static int handler_calls = 0;

#define CHECK(cond, ...)                                                         \
  do {                                                                           \
    if (!(cond)) {                                                               \
      if (failures++ < 10) {                                                     \
        fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
        fprintf(stderr, __VA_ARGS__);                                            \
        fprintf(stderr, "\n");                                                   \
      }                                                                          \
    }                                                                            \
  } while (0)

static void count_calls(MPI_Session* session, int* code, ...) {
  (void)session;
  (void)code;
  ++handler_calls;
}

static int error_class(int code) {
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}

/* The process sets and their info. Returns the world size. */
static int check_psets(MPI_Session s) {
  int n = 0, world = 0;
  MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n);
  CHECK(n == 2, "%d process sets", n);
  for (int i = 0; i < n; ++i) {
    int len = 0;
    MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL);
    char* name = malloc((size_t)len);
    MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, name);
    CHECK((int)strlen(name) + 1 == len, "pset %d: \"%s\" with length %d", i, name, len);
    MPI_Info info;
    MPI_Session_get_pset_info(s, name, &info);
    char value[32] = "";
    int flag = 0;
    MPI_Info_get(info, "mpi_size", sizeof value - 1, value, &flag);
    CHECK(flag, "no mpi_size for %s", name);
    if (!strcmp(name, "mpi://SELF")) CHECK(atoi(value) == 1, "SELF has size %s", value);
    if (!strcmp(name, "mpi://WORLD")) world = atoi(value);
    MPI_Info_free(&info);
    free(name);
  }
  char cut[6];
  int len = (int)sizeof cut;
  MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, cut);
  CHECK(!strcmp(cut, "mpi:/") && len == 12, "a short buffer got \"%s\", length %d", cut, len);
  return world;
}

/* Communicators from groups: WORLD, two halves at once, SELF, and the two halves joined. */
static void check_comms(MPI_Session s, int world, int with_world) {
  MPI_Group wg, sg;
  MPI_Group_from_session_pset(s, "mpi://WORLD", &wg);
  int gsize = 0, grank = -1;
  MPI_Group_size(wg, &gsize);
  MPI_Group_rank(wg, &grank);
  CHECK(gsize == world, "WORLD group of %d, pset size %d", gsize, world);
  MPI_Comm comm;
  MPI_Comm_create_from_group(wg, "org.simmpi.test.world", MPI_INFO_NULL, MPI_ERRORS_RETURN, &comm);
  int rank, size, sum = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  CHECK(rank == grank && size == world, "comm rank %d of %d", rank, size);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
  CHECK(sum == size * (size - 1) / 2, "allreduce of ranks gave %d", sum);
  MPI_Errhandler eh;
  MPI_Comm_get_errhandler(comm, &eh);
  CHECK(eh == MPI_ERRORS_RETURN, "the new communicator's handler is not the one given");
  if (with_world) {
    int result = -1;
    MPI_Comm_compare(comm, MPI_COMM_WORLD, &result);
    CHECK(result == MPI_CONGRUENT, "comm from mpi://WORLD vs MPI_COMM_WORLD: %d", result);
  }

  /* Two halves, made at the same time with different tags. */
  int half = size / 2, lower = rank < half;
  int range[1][3] = {{lower ? 0 : half, lower ? half - 1 : size - 1, 1}};
  MPI_Group mine, other;
  MPI_Group_range_incl(wg, 1, range, &mine);
  int orange[1][3] = {{lower ? half : 0, lower ? size - 1 : half - 1, 1}};
  if (half > 0) {
    MPI_Group_range_incl(wg, 1, orange, &other);
    MPI_Comm hc;
    MPI_Comm_create_from_group(mine, lower ? "lower" : "upper", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                               &hc);
    int hsize = 0, hsum = 0;
    MPI_Comm_size(hc, &hsize);
    CHECK(hsize == (lower ? half : size - half), "half of size %d", hsize);
    MPI_Allreduce(&rank, &hsum, 1, MPI_INT, MPI_SUM, hc);
    int lo = lower ? 0 : half, hi = lower ? half - 1 : size - 1;
    CHECK(hsum == (lo + hi) * (hi - lo + 1) / 2, "half sum %d", hsum);
    MPI_Comm_free(&hc);

    MPI_Comm inter;
    MPI_Intercomm_create_from_groups(mine, 0, other, 0, "org.simmpi.test.inter", MPI_INFO_NULL,
                                     MPI_ERRORS_RETURN, &inter);
    int is_inter = 0, rsize = 0;
    MPI_Comm_test_inter(inter, &is_inter);
    MPI_Comm_remote_size(inter, &rsize);
    CHECK(is_inter && rsize == (lower ? size - half : half), "intercomm remote size %d", rsize);
    /* The two leaders swap their world ranks over the intercommunicator. */
    int lrank;
    MPI_Comm_rank(inter, &lrank);
    if (lrank == 0) {
      int got = -1;
      MPI_Sendrecv(&rank, 1, MPI_INT, 0, 3, &got, 1, MPI_INT, 0, 3, inter, MPI_STATUS_IGNORE);
      CHECK(got == (lower ? half : 0), "leader got %d", got);
    }
    MPI_Comm_free(&inter);
    MPI_Group_free(&other);
  }
  MPI_Group_free(&mine);

  MPI_Group_from_session_pset(s, "mpi://SELF", &sg);
  MPI_Comm self;
  MPI_Comm_create_from_group(sg, "self", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &self);
  MPI_Comm_size(self, &size);
  CHECK(size == 1, "SELF comm of %d", size);
  MPI_Comm_free(&self);
  MPI_Group_free(&sg);
  MPI_Comm_free(&comm);
  MPI_Group_free(&wg);
}

/* Session error handlers and info. */
static void check_errors(MPI_Session s) {
  MPI_Group g = MPI_GROUP_NULL;
  CHECK(error_class(MPI_Group_from_session_pset(s, "mpi://NOWHERE", &g)) == MPI_ERR_ARG,
        "an unknown process set");
  int len = 0;
  CHECK(error_class(MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 2, &len, NULL)) == MPI_ERR_ARG,
        "process set 2 of 2");
  MPI_Errhandler eh, got;
  MPI_Session_create_errhandler(count_calls, &eh);
  MPI_Session_set_errhandler(s, eh);
  MPI_Session_get_errhandler(s, &got);
  CHECK(got == eh, "get_errhandler gave another handler");
  MPI_Session_call_errhandler(s, MPI_ERR_OTHER);
  MPI_Group_from_session_pset(s, "mpi://nowhere", &g);
  CHECK(handler_calls == 2, "the user handler ran %d times, not 2", handler_calls);
  MPI_Session_set_errhandler(s, MPI_ERRORS_RETURN);
  /* A communicator call's own errors go to the handler it is given. */
  MPI_Group wg;
  MPI_Group_from_session_pset(s, "mpi://world", &wg); /* any case, as MPICH */
  MPI_Comm_create_from_group(wg, "no-comm", MPI_INFO_NULL, eh, NULL);
  CHECK(handler_calls == 3, "the handler given to MPI_Comm_create_from_group did not run");
  MPI_Group_free(&wg);
  MPI_Comm empty = MPI_COMM_WORLD;
  MPI_Comm_create_from_group(MPI_GROUP_EMPTY, "empty", MPI_INFO_NULL, MPI_ERRORS_RETURN, &empty);
  CHECK(empty == MPI_COMM_NULL, "a communicator from MPI_GROUP_EMPTY is not MPI_COMM_NULL");
  MPI_Errhandler_free(&eh);
  MPI_Info info;
  MPI_Session_get_info(s, &info);
  char value[64] = "";
  int flag = 0;
  MPI_Info_get(info, "thread_level", sizeof value - 1, value, &flag);
  CHECK(flag && !strcmp(value, "MPI_THREAD_SINGLE"), "thread_level %s", value);
  MPI_Info_free(&info);
}

int main(int argc, char** argv) {
  int with_world = argc > 1 && !strcmp(argv[1], "world");
  if (with_world) MPI_Init(&argc, &argv);
  MPI_Info asked;
  MPI_Session s, s2;
  /* Info objects may be made before any session (MPI-4.1 11.4.1); a thread level that is none
   * is refused through the handler the call is given. */
  MPI_Info_create(&asked);
  MPI_Info_set(asked, "thread_level", "MPI_THREAD_NONE");
  CHECK(error_class(MPI_Session_init(asked, MPI_ERRORS_RETURN, &s)) == MPI_ERR_ARG,
        "thread_level MPI_THREAD_NONE");
  MPI_Info_set(asked, "thread_level", "MPI_THREAD_SINGLE");
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2);
  MPI_Session_init(asked, MPI_ERRORS_RETURN, &s);
  MPI_Info_free(&asked);
  CHECK(s != s2 && s != MPI_SESSION_NULL, "two sessions, handles %x and %x", s, s2);
  int world = check_psets(s);
  check_comms(s, world, with_world);
  check_errors(s);
  MPI_Session_finalize(&s2);

  /* The verdict, agreed on a communicator of the session. */
  MPI_Group wg;
  MPI_Comm comm;
  MPI_Group_from_session_pset(s, "mpi://WORLD", &wg);
  MPI_Comm_create_from_group(wg, "verdict", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &comm);
  int total = 0, rank;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, comm);
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_free(&comm);
  MPI_Group_free(&wg);
  if (argc > 1 && !strcmp(argv[1], "unfinalized") && rank == 0) return 0;
  MPI_Session_finalize(&s);
  CHECK(s == MPI_SESSION_NULL, "finalized session not null");

  /* A session again, after the last one ended. */
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s);
  MPI_Group_from_session_pset(s, "mpi://WORLD", &wg);
  MPI_Comm_create_from_group(wg, "again", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &comm);
  int again = 0, one = 1, size;
  MPI_Comm_size(comm, &size);
  MPI_Allreduce(&one, &again, 1, MPI_INT, MPI_SUM, comm);
  CHECK(again == size, "second session's allreduce gave %d", again);
  MPI_Comm_free(&comm);
  MPI_Group_free(&wg);
  MPI_Session_finalize(&s);

  int initialized = -1;
  MPI_Initialized(&initialized);
  CHECK(initialized == with_world, "MPI_Initialized says %d", initialized);
  if (with_world) MPI_Finalize();
  if (rank == 0)
    printf("sessions%s: %s (%d ranks, %d failed checks)\n", with_world ? " with world" : "",
           total || failures ? "FAILED" : "OK", size, total + failures);
  return total || failures;
}
