/* SPDX-License-Identifier: Apache-2.0 */
/* Programs for record-then-replay tests (replay_test.sh) of the communicator constructors whose
 * record needs more than the call's arguments, one per argument:
 *   idup           MPI_Comm_idup of MPI_COMM_WORLD and of a split, overlapping, completed by
 *                  MPI_Wait and MPI_Waitall among messages and compute (the new communicator's
 *                  handle is known only when its request completes), then collectives and
 *                  messages on the new communicators
 *   sessions       a session (MPI_Session_init), communicators from its groups: even and odd
 *                  ranks (MPI_Comm_create_from_group) and the intercommunicator between them
 *                  (MPI_Intercomm_create_from_groups), collectives and messages on them, then
 *                  MPI_Session_finalize; beside MPI_Init's MPI_COMM_WORLD
 *   sessions_only  the same in a program that never calls MPI_Init (it must be the only part)
 * Values are checked, so a run also tests MPI. */
#include <mpi.h>
#include <simmpi_compute.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void fail(const char* what) {
  fprintf(stderr, "replay_communicators: rank %d: %s\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static void idup(void) {
  MPI_Comm half, dup_world = MPI_COMM_NULL, dup_half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Request q[2];
  MPI_Comm_idup(MPI_COMM_WORLD, &dup_world, &q[0]);
  MPI_Comm_idup(half, &dup_half, &q[1]);
  SIMMPI_COMPUTE(1e6 * (1 + rank % 3), 1e5);
  /* A message around the ring while the duplications are under way. */
  int token = rank, got = -1;
  MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 3, &got, 1, MPI_INT, (rank + size - 1) % size,
               3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (got != (rank + size - 1) % size) fail("ring value");
  MPI_Wait(&q[0], MPI_STATUS_IGNORE);
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup_world);
  if (sum != size * (size - 1) / 2) fail("allreduce on the duplicate of MPI_COMM_WORLD");
  MPI_Waitall(1, &q[1], MPI_STATUSES_IGNORE);
  int half_size, count = 0;
  MPI_Comm_size(dup_half, &half_size);
  MPI_Allreduce((int[]){1}, &count, 1, MPI_INT, MPI_SUM, dup_half);
  if (count != half_size) fail("allreduce on the duplicate of the split");
  /* Another duplicate, waited for after a collective on the first. */
  MPI_Comm again = MPI_COMM_NULL;
  MPI_Request r;
  MPI_Comm_idup(dup_world, &again, &r);
  MPI_Barrier(dup_half);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  int root_value = rank == 0 ? 42 : 0;
  MPI_Bcast(&root_value, 1, MPI_INT, 0, again);
  if (root_value != 42) fail("bcast on the duplicate of the duplicate");
  MPI_Comm_free(&again);
  MPI_Comm_free(&dup_half);
  MPI_Comm_free(&dup_world);
  MPI_Comm_free(&half);
}

static void sessions(void) {
  MPI_Session s;
  MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &s);
  MPI_Group world, mine, other;
  MPI_Group_from_session_pset(s, "mpi://WORLD", &world);
  int n, me;
  MPI_Group_size(world, &n);
  MPI_Group_rank(world, &me);
  int* members = malloc(sizeof(int) * n);
  int k = 0, j = 0;
  for (int i = me % 2; i < n; i += 2) members[k++] = i;
  MPI_Group_incl(world, k, members, &mine);
  for (int i = 1 - me % 2; i < n; i += 2) members[j++] = i;
  MPI_Group_incl(world, j, members, &other);
  MPI_Comm parity;
  MPI_Comm_create_from_group(mine, me % 2 ? "odd" : "even", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL,
                             &parity);
  int sum = 0;
  MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, parity);
  int expect = 0;
  for (int i = me % 2; i < n; i += 2) expect += i;
  if (sum != expect) fail("allreduce on the communicator from a group");
  SIMMPI_COMPUTE(1e6 * (1 + me % 2), 0);
  if (j > 0) {
    MPI_Comm inter;
    MPI_Intercomm_create_from_groups(mine, 0, other, 0, "evens and odds", MPI_INFO_NULL,
                                     MPI_ERRORS_ARE_FATAL, &inter);
    int remote;
    MPI_Comm_remote_size(inter, &remote);
    if (remote != j) fail("remote size of the intercommunicator from groups");
    int mine_rank, theirs = -1;
    MPI_Comm_rank(inter, &mine_rank);
    if (mine_rank < remote) /* a message to the same local rank on the other side */
      MPI_Sendrecv(&me, 1, MPI_INT, mine_rank, 9, &theirs, 1, MPI_INT, mine_rank, 9, inter,
                   MPI_STATUS_IGNORE);
    if (mine_rank < remote && theirs != 2 * mine_rank + 1 - me % 2)
      fail("message over the intercommunicator from groups");
    MPI_Barrier(inter);
    MPI_Comm_free(&inter);
  }
  MPI_Comm_free(&parity);
  MPI_Group_free(&mine);
  MPI_Group_free(&other);
  MPI_Group_free(&world);
  free(members);
  MPI_Session_finalize(&s);
}

int main(int argc, char** argv) {
  if (argc == 2 && !strcmp(argv[1], "sessions_only")) {
    sessions();
    return 0;
  }
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "idup"))
      idup();
    else if (!strcmp(argv[i], "sessions"))
      sessions();
    else {
      fprintf(stderr, "replay_communicators: unknown part %s\n", argv[i]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  MPI_Finalize();
  return 0;
}
