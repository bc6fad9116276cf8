/* SPDX-License-Identifier: Apache-2.0 */
/* Communicator constructors against hand-computed memberships: MPI_Comm_dup, MPI_Comm_split
 * (with reversed keys and MPI_UNDEFINED), MPI_Comm_split_type by node, MPI_Comm_create,
 * MPI_Comm_create_group, MPI_Comm_compare, names, MPI_Comm_free and the reuse of freed
 * context ids and handles. Usage: communicators RANKS_PER_NODE (the node.ranks_per_node the
 * run was given). */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

/* Sum of the ranks r in [0, size) with r % m == c. */
static long long sum_mod(int m, int c) {
  long long s = 0;
  for (int r = c; r < size; r += m) s += r;
  return s;
}

static long long allreduce_sum(MPI_Comm comm, long long v) {
  long long out = -1;
  MPI_Allreduce(&v, &out, 1, MPI_LONG_LONG, MPI_SUM, comm);
  return out;
}

static void dup_isolates_and_costs(void) {
  MPI_Comm d;
  double t0 = simmpi_now();
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  double t1 = simmpi_now();
  /* The context-id allreduce moves messages: a dup takes time as soon as there are two ranks. */
  CHECK(size == 1 ? t1 == t0 : t1 > t0, "dup took %g s", t1 - t0);
  int result, n, r;
  MPI_Comm_compare(MPI_COMM_WORLD, d, &result);
  CHECK(result == MPI_CONGRUENT, "compare(world, dup) = %d", result);
  MPI_Comm_compare(d, d, &result);
  CHECK(result == MPI_IDENT, "compare(dup, dup) = %d", result);
  MPI_Comm_size(d, &n);
  MPI_Comm_rank(d, &r);
  CHECK(n == size && r == rank, "dup size %d rank %d", n, r);
  /* A message on the dup never matches a receive on MPI_COMM_WORLD. */
  int out = rank, in = -1, flag = 1;
  MPI_Request s;
  MPI_Isend(&out, 1, MPI_INT, rank, 5, d, &s);
  MPI_Iprobe(rank, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  CHECK(!flag, "a message sent on the dup is visible on MPI_COMM_WORLD");
  MPI_Recv(&in, 1, MPI_INT, rank, 5, d, MPI_STATUS_IGNORE);
  MPI_Wait(&s, MPI_STATUS_IGNORE);
  CHECK(in == rank, "self message on dup carried %d", in);
  CHECK(allreduce_sum(d, rank) == sum_mod(1, 0), "allreduce on dup");
  /* Names are per process; a new communicator has none. */
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Comm_get_name(d, name, &len);
  CHECK(len == 0 && name[0] == 0, "unnamed dup is called \"%s\"", name);
  MPI_Comm_set_name(d, "dup of world");
  MPI_Comm_get_name(d, name, &len);
  CHECK(!strcmp(name, "dup of world") && len == 12, "dup named \"%s\" (%d)", name, len);
  MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
  CHECK(!strcmp(name, "MPI_COMM_WORLD"), "world is called \"%s\"", name);
  MPI_Comm_free(&d);
  CHECK(d == MPI_COMM_NULL, "free leaves MPI_COMM_NULL");
}

static void split_by_color(void) {
  /* Colors r % 3, keys -r: each color's ranks in decreasing order. */
  MPI_Comm s;
  int c = rank % 3, n, r, result;
  MPI_Comm_split(MPI_COMM_WORLD, c, -rank, &s);
  MPI_Comm_size(s, &n);
  MPI_Comm_rank(s, &r);
  int expect_n = (size - c + 2) / 3;
  int last = c + 3 * (expect_n - 1);
  CHECK(n == expect_n, "split color %d has %d ranks, expected %d", c, n, expect_n);
  CHECK(r == (last - rank) / 3, "split rank %d, expected %d", r, (last - rank) / 3);
  CHECK(allreduce_sum(s, rank) == sum_mod(3, c), "allreduce over color %d", c);
  MPI_Comm_compare(MPI_COMM_WORLD, s, &result);
  CHECK(result == (size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL), "compare(world, split) = %d", result);
  /* A split of the split: members by key (r), then its group against the world's. */
  MPI_Comm s2;
  MPI_Comm_split(s, 0, r, &s2);
  MPI_Group g2, gw;
  MPI_Comm_group(s2, &g2);
  MPI_Comm_group(MPI_COMM_WORLD, &gw);
  int zero = 0, world_of_zero = -1;
  MPI_Group_translate_ranks(g2, 1, &zero, gw, &world_of_zero);
  CHECK(world_of_zero == last, "rank 0 of the color group is world rank %d, expected %d",
        world_of_zero, last);
  MPI_Group_free(&g2);
  MPI_Group_free(&gw);
  MPI_Comm_free(&s2);
  MPI_Comm_free(&s);
  /* One color in reverse key order: the same ranks in another order. */
  MPI_Comm_split(MPI_COMM_WORLD, 7, size - rank, &s);
  MPI_Comm_rank(s, &r);
  MPI_Comm_compare(MPI_COMM_WORLD, s, &result);
  CHECK(r == size - 1 - rank, "reversed split rank %d", r);
  CHECK(result == (size == 1 ? MPI_CONGRUENT : MPI_SIMILAR), "compare(world, reversed) = %d",
        result);
  MPI_Comm_free(&s);
  /* Odd ranks opt out. */
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2 ? MPI_UNDEFINED : 0, rank, &s);
  if (rank % 2) {
    CHECK(s == MPI_COMM_NULL, "MPI_UNDEFINED gave a communicator");
  } else {
    MPI_Comm_size(s, &n);
    CHECK(n == (size + 1) / 2, "even split has %d ranks", n);
    CHECK(allreduce_sum(s, rank) == sum_mod(2, 0), "allreduce over even ranks");
    MPI_Comm_free(&s);
  }
}

static void split_by_node(int per_node) {
  MPI_Comm node;
  int n, r;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &n);
  MPI_Comm_rank(node, &r);
  int first = rank / per_node * per_node;
  int expect_n = size - first < per_node ? size - first : per_node;
  CHECK(n == expect_n && r == rank - first, "node comm size %d rank %d, expected %d %d", n, r,
        expect_n, rank - first);
  long long expect_sum = 0;
  for (int i = first; i < first + expect_n; ++i) expect_sum += i;
  CHECK(allreduce_sum(node, rank) == expect_sum, "allreduce over a node");
  MPI_Comm_free(&node);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, rank, MPI_INFO_NULL, &node);
  CHECK(node == MPI_COMM_NULL, "split_type MPI_UNDEFINED gave a communicator");
}

static void create_from_groups(void) {
  MPI_Group world, evens, reversed;
  MPI_Comm c;
  int n, r;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int range[1][3] = {{0, size - 1, 2}};
  MPI_Group_range_incl(world, 1, range, &evens);
  MPI_Comm_create(MPI_COMM_WORLD, evens, &c);
  if (rank % 2) {
    CHECK(c == MPI_COMM_NULL, "odd rank got a communicator from MPI_Comm_create");
  } else {
    MPI_Comm_size(c, &n);
    MPI_Comm_rank(c, &r);
    CHECK(n == (size + 1) / 2 && r == rank / 2, "create: size %d rank %d", n, r);
    CHECK(allreduce_sum(c, rank) == sum_mod(2, 0), "allreduce over created comm");
    MPI_Comm_free(&c);
  }
  int* order = malloc(size * sizeof(int));
  for (int i = 0; i < size; ++i) order[i] = size - 1 - i;
  MPI_Group_incl(world, size, order, &reversed);
  MPI_Comm_create(MPI_COMM_WORLD, reversed, &c);
  MPI_Comm_rank(c, &r);
  CHECK(r == size - 1 - rank, "create from reversed group: rank %d", r);
  MPI_Comm_free(&c);
  /* Only the members call MPI_Comm_create_group; two groups in a row with the same tag. */
  int half = (size + 1) / 2;
  MPI_Group first_half, second_half;
  int lo[1][3] = {{0, half - 1, 1}}, hi[1][3] = {{size - 1, size - half, -1}};
  MPI_Group_range_incl(world, 1, lo, &first_half);
  MPI_Group_range_incl(world, 1, hi, &second_half);
  if (rank < half) {
    MPI_Comm_create_group(MPI_COMM_WORLD, first_half, 9, &c);
    MPI_Comm_size(c, &n);
    MPI_Comm_rank(c, &r);
    CHECK(n == half && r == rank, "create_group first half: size %d rank %d", n, r);
    CHECK(allreduce_sum(c, rank) == (long long)half * (half - 1) / 2, "allreduce over first half");
    MPI_Comm_free(&c);
  }
  if (rank >= size - half) {
    MPI_Comm_create_group(MPI_COMM_WORLD, second_half, 9, &c);
    MPI_Comm_rank(c, &r);
    CHECK(r == size - 1 - rank, "create_group second half (reversed): rank %d", r);
    MPI_Comm_free(&c);
  }
  free(order);
  MPI_Group_free(&first_half);
  MPI_Group_free(&second_half);
  MPI_Group_free(&reversed);
  MPI_Group_free(&evens);
  MPI_Group_free(&world);
}

static void free_recycles(void) {
  /* More dup/free pairs than a rank has context ids (2048): ids must come back. Handles of
   * destroyed communicators are reused lowest first. */
  MPI_Comm d, first = MPI_COMM_NULL;
  int rounds = size <= 16 ? 2100 : 50; /* ids are per rank: small runs show it, fast */
  for (int i = 0; i < rounds; ++i) {
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    if (i == 0) first = d;
    CHECK(d == first, "iteration %d got handle 0x%x, expected the reused 0x%x", i, d, first);
    MPI_Comm_free(&d);
  }
  /* A communicator freed with a send in flight lives until the send completes. */
  if (size < 2) return;
  enum { N = 100000 }; /* rendezvous: the send waits for the receive */
  double* buf = calloc(N, sizeof(double));
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  if (rank == 0) {
    MPI_Request req;
    MPI_Isend(buf, N, MPI_DOUBLE, 1, 3, d, &req);
    MPI_Comm_free(&d);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(buf, N, MPI_DOUBLE, 0, 3, d, MPI_STATUS_IGNORE);
    MPI_Comm_free(&d);
  } else {
    MPI_Comm_free(&d);
  }
  free(buf);
  /* A freed handle is an error (raised on MPI_COMM_WORLD, whose handler returns here). */
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  MPI_Comm stale = d;
  int n = 0;
  MPI_Comm_free(&d);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int err = MPI_Comm_size(stale, &n);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  CHECK(err == MPI_ERR_COMM, "MPI_Comm_size on a freed communicator returned %d", err);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int per_node = argc > 1 ? atoi(argv[1]) : 1;
  dup_isolates_and_costs();
  split_by_color();
  split_by_node(per_node);
  create_from_groups();
  free_recycles();
  return finish("communicators");
}
