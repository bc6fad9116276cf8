/* SPDX-License-Identifier: Apache-2.0 */
/* Intercommunicators between the even ranks (group A) and the odd ranks (group B):
 * MPI_Intercomm_create, sizes and remote groups, point-to-point addressing the remote group,
 * MPI_Intercomm_merge in both orders, MPI_Comm_dup of an intercommunicator, an
 * intercommunicator of two MPI_COMM_SELFs, and collectives refused with MPI_ERR_COMM. Needs 2
 * ranks or more (1 rank passes trivially). */
#include <stdlib.h>

#include "check.h"

static int rank, size, na, nb, in_a, local_rank;

static void sizes_and_groups(MPI_Comm ic) {
  int flag, n, r, rn;
  MPI_Comm_test_inter(ic, &flag);
  MPI_Comm_size(ic, &n);
  MPI_Comm_rank(ic, &r);
  MPI_Comm_remote_size(ic, &rn);
  CHECK(flag && n == (in_a ? na : nb) && r == local_rank && rn == (in_a ? nb : na),
        "inter %d size %d rank %d remote size %d", flag, n, r, rn);
  MPI_Group remote, world;
  MPI_Comm_remote_group(ic, &remote);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int* idx = malloc(rn * sizeof(int));
  int* got = malloc(rn * sizeof(int));
  for (int i = 0; i < rn; ++i) idx[i] = i;
  MPI_Group_translate_ranks(remote, rn, idx, world, got);
  for (int i = 0; i < rn; ++i)
    CHECK(got[i] == 2 * i + in_a, "remote rank %d is world rank %d, expected %d", i, got[i],
          2 * i + in_a);
  free(idx);
  free(got);
  MPI_Group_free(&remote);
  MPI_Group_free(&world);
}

/* A's rank i sends its world rank to B's rank i % nb; B's rank j answers to A's rank j. */
static void point_to_point(MPI_Comm ic) {
  MPI_Status st;
  int v;
  if (in_a) {
    MPI_Send(&rank, 1, MPI_INT, local_rank % nb, 1, ic);
    if (local_rank < nb) {
      MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 2, ic, &st);
      CHECK(st.MPI_SOURCE == local_rank && v == 2 * local_rank + 1, "A got %d from %d", v,
            st.MPI_SOURCE);
    }
  } else {
    for (int i = local_rank; i < na; i += nb) {
      MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, ic, &st);
      CHECK(st.MPI_SOURCE % nb == local_rank && v == 2 * st.MPI_SOURCE, "B got %d from %d", v,
            st.MPI_SOURCE);
    }
    MPI_Send(&rank, 1, MPI_INT, local_rank, 2, ic);
  }
}

/* The low group comes first; on a tie, group A (its leader has the lower world rank). */
static void merge(MPI_Comm ic, int a_high, int b_high) {
  MPI_Comm m;
  int r, n;
  MPI_Intercomm_merge(ic, in_a ? a_high : b_high, &m);
  MPI_Comm_rank(m, &r);
  MPI_Comm_size(m, &n);
  int a_first = a_high == b_high || !a_high, first = a_first ? in_a : !in_a;
  int expect = first ? local_rank : (in_a ? nb : na) + local_rank;
  CHECK(n == size && r == expect, "merge(A high=%d, B high=%d): rank %d, expected %d", a_high,
        b_high, r, expect);
  long long mine = rank, sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, m);
  CHECK(sum == (long long)size * (size - 1) / 2, "allreduce on merged: %lld", sum);
  MPI_Comm_free(&m);
}

static void dup_and_refuse_collectives(MPI_Comm ic) {
  MPI_Comm d;
  int result;
  MPI_Comm_dup(ic, &d);
  MPI_Comm_compare(ic, d, &result);
  CHECK(result == MPI_CONGRUENT, "compare(intercomm, dup) = %d", result);
  point_to_point(d);
  MPI_Comm_set_errhandler(d, MPI_ERRORS_RETURN);
  int err = MPI_Barrier(d), v = 1, w = 0;
  CHECK(err == MPI_SUCCESS, "barrier on an intercommunicator returned %d", err);
  err = MPI_Scan(&v, &w, 1, MPI_INT, MPI_SUM, d); /* not defined on intercommunicators */
  CHECK(err == MPI_ERR_COMM, "scan on an intercommunicator returned %d", err);
  MPI_Comm_free(&d);
}

static void between_two_selves(void) {
  if (rank != 0 && rank != size - 1) return;
  MPI_Comm ic;
  int peer = rank == 0 ? size - 1 : 0, v = rank, rn;
  MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, peer, 3, &ic);
  MPI_Comm_remote_size(ic, &rn);
  MPI_Sendrecv_replace(&v, 1, MPI_INT, 0, 4, 0, 4, ic, MPI_STATUS_IGNORE);
  CHECK(rn == 1 && v == peer, "self-to-self intercomm carried %d", v);
  MPI_Comm_free(&ic);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size >= 2) {
    na = (size + 1) / 2, nb = size / 2, in_a = rank % 2 == 0, local_rank = rank / 2;
    MPI_Comm local, ic;
    MPI_Comm_split(MPI_COMM_WORLD, !in_a, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? 1 : 0, 17, &ic);
    sizes_and_groups(ic);
    point_to_point(ic);
    merge(ic, 0, 1);
    merge(ic, 1, 0);
    merge(ic, 0, 0);
    merge(ic, 1, 1);
    dup_and_refuse_collectives(ic);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    between_two_selves();
  }
  return finish("intercomm");
}
