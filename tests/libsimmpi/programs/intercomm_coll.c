/* SPDX-License-Identifier: Apache-2.0
 * Collectives on an intercommunicator (MPI-4.1 6.2.2), every value checked, in blocking,
 * nonblocking and persistent forms. MPI_COMM_WORLD is split into group A (world ranks [0, a))
 * and group B (the rest), joined by MPI_Intercomm_create; every rooted collective runs once with
 * its root in each group (the last member of that group).
 *   intercomm_coll A              all the collectives, then MPI_Comm_split, MPI_Comm_create and
 *                                 MPI_Comm_idup of the intercommunicator; "intercomm_coll: OK"
 *   intercomm_coll A time BYTES   (1 + 1 ranks) an intercomm MPI_Bcast of BYTES takes exactly
 *                                 the time of an MPI_Send of BYTES on MPI_COMM_WORLD
 *   intercomm_coll A badroot      group B names a root outside group A (MPI_ERR_ROOT)
 *   intercomm_coll A tworoots     two members of group A pass MPI_ROOT (MPI_ERR_ROOT)
 *   intercomm_coll A bothnamed    both groups name a root in the other (MPI_ERR_ROOT)
 *   intercomm_coll A crosscall    group A calls MPI_Barrier, B MPI_Allreduce (MPI_ERR_OTHER)
 *   intercomm_coll A inplace      MPI_IN_PLACE in an intercomm MPI_Allreduce (MPI_ERR_BUFFER)
 *   intercomm_coll A scan         MPI_Scan on an intercommunicator (MPI_ERR_COMM) */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int errors = 0;
static int mode = 0; /* 0 blocking, 1 nonblocking, 2 persistent (started twice) */
static int grp, lrank, lsize, rsize;
static const char* const mode_names[] = {"blocking", "nonblocking", "persistent"};

#define EXPECT(cond, ...)                                                      \
  do {                                                                         \
    if (!(cond)) {                                                             \
      if (errors++ < 10) {                                                     \
        printf("group %c rank %d (%s): ", "AB"[grp], lrank, mode_names[mode]); \
        printf(__VA_ARGS__);                                                   \
        printf("\n");                                                          \
      }                                                                        \
    }                                                                          \
  } while (0)

/* One collective in the current mode: B(args), I(args, &req) + wait, or P(args, info, &req)
 * started and waited for twice, then freed. */
#define COLL(B, I, P, ...)                \
  do {                                    \
    MPI_Request r_;                       \
    if (mode == 0) {                      \
      B(__VA_ARGS__);                     \
    } else if (mode == 1) {               \
      I(__VA_ARGS__, &r_);                \
      MPI_Wait(&r_, MPI_STATUS_IGNORE);   \
    } else {                              \
      P(__VA_ARGS__, MPI_INFO_NULL, &r_); \
      for (int k_ = 0; k_ < 2; ++k_) {    \
        MPI_Start(&r_);                   \
        MPI_Wait(&r_, MPI_STATUS_IGNORE); \
      }                                   \
      MPI_Request_free(&r_);              \
    }                                     \
  } while (0)

/* Element i of what member r of group g contributes. */
static int val(int g, int r, int i) {
  return (g + 1) * 100000 + r * 100 + i;
}

/* The root argument of a rooted collective whose root is the last member of group `g`. */
static int root_arg(int g) {
  if (g != grp) return rsize - 1;
  return lrank == lsize - 1 ? MPI_ROOT : MPI_PROC_NULL;
}

static void fill(int* v, int n, int x) {
  for (int i = 0; i < n; ++i) v[i] = x;
}

static void check_bcast(MPI_Comm ic) {
  for (int g = 0; g < 2; ++g) {
    int buf[5], root = root_arg(g);
    for (int i = 0; i < 5; ++i) buf[i] = root == MPI_ROOT ? val(g, lsize - 1, i) : -1;
    COLL(MPI_Bcast, MPI_Ibcast, MPI_Bcast_init, buf, 5, MPI_INT, root, ic);
    for (int i = 0; i < 5; ++i) {
      int want = root == MPI_PROC_NULL ? -1 : val(g, g == grp ? lsize - 1 : rsize - 1, i);
      EXPECT(buf[i] == want, "bcast root in %c: buf[%d]=%d, expected %d", "AB"[g], i, buf[i], want);
    }
  }
}

static void check_reduce(MPI_Comm ic) {
  for (int g = 0; g < 2; ++g) {
    int in[4], out[4], root = root_arg(g);
    for (int i = 0; i < 4; ++i) in[i] = val(grp, lrank, i);
    fill(out, 4, -1);
    COLL(MPI_Reduce, MPI_Ireduce, MPI_Reduce_init, in, out, 4, MPI_INT, MPI_SUM, root, ic);
    for (int i = 0; i < 4; ++i) {
      int want = -1;
      if (root == MPI_ROOT)
        for (int r = want = 0; r < rsize; ++r) want += val(1 - grp, r, i);
      EXPECT(out[i] == want, "reduce root in %c: out[%d]=%d, expected %d", "AB"[g], i, out[i],
             want);
    }
  }
}

static void check_allreduce(MPI_Comm ic) {
  int in[3], out[3];
  for (int i = 0; i < 3; ++i) in[i] = val(grp, lrank, i);
  COLL(MPI_Allreduce, MPI_Iallreduce, MPI_Allreduce_init, in, out, 3, MPI_INT, MPI_MAX, ic);
  for (int i = 0; i < 3; ++i)
    EXPECT(out[i] == val(1 - grp, rsize - 1, i), "allreduce: out[%d]=%d, expected %d", i, out[i],
           val(1 - grp, rsize - 1, i));
}

/* Gather and gatherv: block r (r + 1 ints for gatherv, 2 for gather) from member r of the other
 * group lands at r * (rsize + 2) at the root. */
static void check_gather(MPI_Comm ic, int varying) {
  for (int g = 0; g < 2; ++g) {
    int root = root_arg(g), in[64], out[1024], counts[64], displs[64];
    int mine = varying ? lrank + 1 : 2, stride = varying ? rsize + 2 : 2;
    for (int i = 0; i < mine; ++i) in[i] = val(grp, lrank, i);
    for (int r = 0; r < rsize; ++r) counts[r] = varying ? r + 1 : 2, displs[r] = r * stride;
    fill(out, 1024, -1);
    if (varying)
      COLL(MPI_Gatherv, MPI_Igatherv, MPI_Gatherv_init, in, mine, MPI_INT, out, counts, displs,
           MPI_INT, root, ic);
    else
      COLL(MPI_Gather, MPI_Igather, MPI_Gather_init, in, mine, MPI_INT, out, 2, MPI_INT, root, ic);
    for (int r = 0; r < rsize && root == MPI_ROOT; ++r)
      for (int i = 0; i < stride; ++i) {
        int want = i < counts[r] ? val(1 - grp, r, i) : -1;
        EXPECT(out[r * stride + i] == want, "gather%s: block %d [%d]=%d, expected %d",
               varying ? "v" : "", r, i, out[r * stride + i], want);
      }
    if (root != MPI_ROOT) EXPECT(out[0] == -1, "gather: a non-root's recvbuf was written");
  }
}

/* Scatter and scatterv: member r of the other group gets r + 1 ints (2 for scatter) from
 * r * (rsize + 2) of the root's buffer. */
static void check_scatter(MPI_Comm ic, int varying) {
  for (int g = 0; g < 2; ++g) {
    int root = root_arg(g), in[1024], out[64], counts[64], displs[64];
    int stride = varying ? rsize + 2 : 2;
    for (int r = 0; r < rsize; ++r) {
      counts[r] = varying ? r + 1 : 2, displs[r] = r * stride;
      for (int i = 0; i < stride; ++i) in[r * stride + i] = val(grp, r, i) + 7;
    }
    int mine = varying ? lrank + 1 : 2;
    fill(out, 64, -1);
    if (varying)
      COLL(MPI_Scatterv, MPI_Iscatterv, MPI_Scatterv_init, in, counts, displs, MPI_INT, out, mine,
           MPI_INT, root, ic);
    else
      COLL(MPI_Scatter, MPI_Iscatter, MPI_Scatter_init, in, 2, MPI_INT, out, mine, MPI_INT, root,
           ic);
    for (int i = 0; i < mine + 1; ++i) {
      int want = root >= 0 && i < mine ? val(1 - grp, lrank, i) + 7 : -1;
      EXPECT(out[i] == want, "scatter%s root in %c: out[%d]=%d, expected %d", varying ? "v" : "",
             "AB"[g], i, out[i], want);
    }
  }
}

/* Allgather(v): block r of the other group (r + 1 ints for allgatherv, 3 for allgather) lands
 * at r * (rsize + 3). */
static void check_allgather(MPI_Comm ic, int varying) {
  int in[64], out[1024], counts[64], displs[64], stride = rsize + 3;
  int mine = varying ? lrank + 1 : 3;
  for (int i = 0; i < mine; ++i) in[i] = val(grp, lrank, i);
  for (int r = 0; r < rsize; ++r) counts[r] = varying ? r + 1 : 3, displs[r] = r * stride;
  fill(out, 1024, -1);
  if (varying)
    COLL(MPI_Allgatherv, MPI_Iallgatherv, MPI_Allgatherv_init, in, mine, MPI_INT, out, counts,
         displs, MPI_INT, ic);
  else {
    MPI_Datatype block; /* three ints with the stride of the blocks: recvcount 1 */
    MPI_Type_contiguous(3, MPI_INT, &block);
    MPI_Type_create_resized(block, 0, (MPI_Aint)(stride * sizeof(int)), &block);
    MPI_Type_commit(&block);
    COLL(MPI_Allgather, MPI_Iallgather, MPI_Allgather_init, in, 3, MPI_INT, out, 1, block, ic);
    MPI_Type_free(&block);
  }
  for (int r = 0; r < rsize; ++r)
    for (int i = 0; i < stride; ++i) {
      int want = i < counts[r] ? val(1 - grp, r, i) : -1;
      EXPECT(out[r * stride + i] == want, "allgather%s: block %d [%d]=%d, expected %d",
             varying ? "v" : "", r, i, out[r * stride + i], want);
    }
}

/* Element i of the block member `from` of group g sends to member `to` of the other group. */
static int a2a(int g, int from, int to, int i) {
  return val(g, from, i) + 1000 * to;
}

/* Alltoall (2 ints a block), alltoallv ((from + to) % 3 ints, blocks spaced 4 apart) and
 * alltoallw (the alltoallv layout, with byte displacements and a type per peer). */
static void check_alltoall(MPI_Comm ic, int kind) {
  int in[256], out[256], sc[64], sd[64], rc[64], rd[64];
  MPI_Datatype st[64], rt[64];
  for (int j = 0; j < rsize; ++j) {
    sc[j] = kind == 0 ? 2 : (lrank + j) % 3, sd[j] = kind == 0 ? 2 * j : 4 * j;
    rc[j] = kind == 0 ? 2 : (j + lrank) % 3, rd[j] = kind == 0 ? 2 * j : 4 * j;
    for (int i = 0; i < 4; ++i) in[4 * j + i] = 0;
    for (int i = 0; i < sc[j]; ++i) in[sd[j] + i] = a2a(grp, lrank, j, i);
    st[j] = rt[j] = MPI_INT;
  }
  fill(out, 256, -1);
  if (kind == 0)
    COLL(MPI_Alltoall, MPI_Ialltoall, MPI_Alltoall_init, in, 2, MPI_INT, out, 2, MPI_INT, ic);
  else if (kind == 1)
    COLL(MPI_Alltoallv, MPI_Ialltoallv, MPI_Alltoallv_init, in, sc, sd, MPI_INT, out, rc, rd,
         MPI_INT, ic);
  else {
    for (int j = 0; j < rsize; ++j) sd[j] *= (int)sizeof(int), rd[j] *= (int)sizeof(int);
    COLL(MPI_Alltoallw, MPI_Ialltoallw, MPI_Alltoallw_init, in, sc, sd, st, out, rc, rd, rt, ic);
    for (int j = 0; j < rsize; ++j) rd[j] /= (int)sizeof(int);
  }
  for (int j = 0; j < rsize; ++j)
    for (int i = 0; i < rc[j]; ++i)
      EXPECT(out[rd[j] + i] == a2a(1 - grp, j, lrank, i),
             "alltoall%s: from %d [%d]=%d, expected %d",
             kind == 0   ? ""
             : kind == 1 ? "v"
                         : "w",
             j, i, out[rd[j] + i], a2a(1 - grp, j, lrank, i));
}

/* Reduce_scatter(_block): both groups reduce vectors of lsize * rsize * 2 elements (the same
 * total in both, as MPICH's algorithm needs); the other group's sum is scattered over this
 * group: 2 * rsize elements each for the block form, 3 * rsize and rsize in turn for the other,
 * the last member taking what is left. */
static void check_reduce_scatter(MPI_Comm ic, int block) {
  int total = lsize * rsize * 2, in[2048], out[2048], counts[64], first = 0;
  for (int i = 0; i < total; ++i) in[i] = val(grp, lrank, i);
  for (int r = 0, left = total; r < lsize; ++r) {
    counts[r] = block ? 2 * rsize : (r == lsize - 1 ? left : (r % 2 ? 1 : 3) * rsize);
    left -= counts[r];
    if (r < lrank) first += counts[r];
  }
  fill(out, 2048, -1);
  if (block)
    COLL(MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block, MPI_Reduce_scatter_block_init, in,
         out, 2 * rsize, MPI_INT, MPI_SUM, ic);
  else
    COLL(MPI_Reduce_scatter, MPI_Ireduce_scatter, MPI_Reduce_scatter_init, in, out, counts, MPI_INT,
         MPI_SUM, ic);
  for (int i = 0; i < counts[lrank] + 1; ++i) {
    int want = -1;
    if (i < counts[lrank])
      for (int r = want = 0; r < rsize; ++r) want += val(1 - grp, r, first + i);
    EXPECT(out[i] == want, "reduce_scatter%s: out[%d]=%d, expected %d", block ? "_block" : "", i,
           out[i], want);
  }
}

/* The barrier: no member leaves before every member of both groups entered (simulated time
 * is one clock for all ranks). */
static void check_barrier(MPI_Comm ic) {
  double t[2], all[2 * 1024];
  int world;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  usleep((useconds_t)(20 * (lrank + 3 * grp))); /* entries spread apart */
  t[0] = MPI_Wtime();
  COLL(MPI_Barrier, MPI_Ibarrier, MPI_Barrier_init, ic);
  t[1] = MPI_Wtime();
  MPI_Allgather(t, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int r = 0; r < world; ++r)
    EXPECT(t[1] >= all[2 * r], "barrier: left at %.9f s before world rank %d entered at %.9f s",
           t[1], r, all[2 * r]);
}

/* The sum of the other group's local ranks, over intercommunicator `c`, and the sizes, must
 * be those of the members listed (by local rank of `ic`) in mine[] and theirs[] (in order). */
static void check_made(MPI_Comm c, const char* how, const int* mine, int nmine, const int* theirs,
                       int ntheirs) {
  int sz, rsz, r, flag, sum = 0, want = 0;
  MPI_Comm_test_inter(c, &flag);
  MPI_Comm_size(c, &sz);
  MPI_Comm_remote_size(c, &rsz);
  MPI_Comm_rank(c, &r);
  EXPECT(flag && sz == nmine && rsz == ntheirs, "%s: sizes %d+%d, expected %d+%d", how, sz, rsz,
         nmine, ntheirs);
  EXPECT(r < nmine && mine[r] == lrank, "%s: rank %d", how, r);
  MPI_Allreduce(&lrank, &sum, 1, MPI_INT, MPI_SUM, c);
  for (int i = 0; i < ntheirs; ++i) want += theirs[i];
  EXPECT(sum == want, "%s: allreduce gave %d, expected %d", how, sum, want);
}

/* MPI_Comm_split (color lrank % 2, reversed order), MPI_Comm_create (all but the last member
 * of each group, or the only one) and MPI_Comm_idup of the intercommunicator. */
static void check_comms(MPI_Comm ic) {
  int mine[64], theirs[64], nm = 0, nt = 0;
  MPI_Comm c;
  MPI_Comm_split(ic, lrank % 2, -lrank, &c);
  for (int r = lsize - 1; r >= 0; --r)
    if (r % 2 == lrank % 2) mine[nm++] = r;
  for (int r = rsize - 1; r >= 0; --r)
    if (r % 2 == lrank % 2) theirs[nt++] = r;
  EXPECT((c == MPI_COMM_NULL) == (nt == 0), "split: %s communicator",
         c == MPI_COMM_NULL ? "no" : "a");
  if (c != MPI_COMM_NULL) {
    check_made(c, "split", mine, nm, theirs, nt);
    MPI_Comm_free(&c);
  }
  MPI_Group local, sub;
  MPI_Comm_group(ic, &local);
  int keep = lsize > 1 ? lsize - 1 : 1, first[64];
  for (int r = 0; r < 64; ++r) first[r] = r;
  MPI_Group_incl(local, keep, first, &sub);
  MPI_Comm_create(ic, sub, &c);
  int rkeep = rsize > 1 ? rsize - 1 : 1;
  EXPECT((c == MPI_COMM_NULL) == (lrank >= keep), "create: %s communicator",
         c == MPI_COMM_NULL ? "no" : "a");
  if (c != MPI_COMM_NULL) {
    check_made(c, "create", first, keep, first, rkeep);
    MPI_Comm_free(&c);
  }
  MPI_Group_free(&sub);
  MPI_Group_free(&local);
  MPI_Request req;
  for (int r = 0; r < 64; ++r) mine[r] = r;
  MPI_Comm_idup(ic, &c, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  check_made(c, "idup", mine, lsize, mine, rsize);
  MPI_Comm_free(&c);
}

/* With one rank in each group: the intercomm bcast is one message, the time of an MPI_Send of
 * the same bytes, from the root's call to the end of the receive (one clock for all ranks). */
static void check_time(MPI_Comm ic, int bytes) {
  char* buf = calloc((size_t)bytes + 1, 1);
  double took[2];
  for (int k = 0; k < 2; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    if (k == 0)
      MPI_Bcast(buf, bytes, MPI_BYTE, grp == 0 ? MPI_ROOT : 0, ic);
    else if (grp == 0)
      MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    else
      MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (grp == 1) t = MPI_Wtime(); /* the receiver's end; the sender's start comes over */
    double start = t;
    MPI_Bcast(&start, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    took[k] = t - start;
  }
  if (grp == 1) {
    EXPECT(fabs(took[0] - took[1]) < 1e-13 && took[0] > 0, /* equal to the picosecond */
           "bcast of %d bytes took %.12f s, the send %.12f s", bytes, took[0], took[1]);
    printf("intercomm bcast of %d bytes: %.12f s, MPI_Send: %.12f s\n", bytes, took[0], took[1]);
  }
  free(buf);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int a = argc > 1 ? atoi(argv[1]) : 1;
  const char* what = argc > 2 ? argv[2] : "all";
  if (a < 1 || a >= size) {
    if (rank == 0) printf("intercomm_coll: group A needs 1 to %d ranks, not %d\n", size - 1, a);
    MPI_Finalize();
    return 1;
  }
  grp = rank >= a;
  MPI_Comm local, ic;
  MPI_Comm_split(MPI_COMM_WORLD, grp, rank, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, grp ? 0 : a, 7, &ic);
  MPI_Comm_rank(ic, &lrank);
  MPI_Comm_size(ic, &lsize);
  MPI_Comm_remote_size(ic, &rsize);
  int in = 1, out = 0;
  if (!strcmp(what, "time")) {
    check_time(ic, argc > 3 ? atoi(argv[3]) : 1000);
  } else if (!strcmp(what, "badroot")) {
    MPI_Bcast(&in, 1, MPI_INT, grp == 0 ? MPI_PROC_NULL : rsize, ic);
  } else if (!strcmp(what, "tworoots")) { /* both members of group A pass MPI_ROOT */
    MPI_Bcast(&in, 1, MPI_INT, grp == 0 ? MPI_ROOT : 0, ic);
  } else if (!strcmp(what, "bothnamed")) { /* both groups name a root in the other */
    MPI_Gather(&in, 1, MPI_INT, &out, 1, MPI_INT, 0, ic);
  } else if (!strcmp(what, "crosscall")) { /* the groups call different collectives */
    if (grp == 0)
      MPI_Barrier(ic);
    else
      MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, ic);
  } else if (!strcmp(what, "inplace")) {
    MPI_Allreduce(MPI_IN_PLACE, &in, 1, MPI_INT, MPI_SUM, ic);
  } else if (!strcmp(what, "scan")) {
    MPI_Scan(&in, &out, 1, MPI_INT, MPI_SUM, ic);
  } else {
    int modes = argc > 3 ? atoi(argv[3]) : 3;
    for (mode = 0; mode < modes; ++mode) {
      check_barrier(ic);
      check_bcast(ic);
      check_reduce(ic);
      check_allreduce(ic);
      for (int varying = 0; varying < 2; ++varying) {
        check_gather(ic, varying);
        check_scatter(ic, varying);
        check_allgather(ic, varying);
        check_reduce_scatter(ic, varying == 0);
      }
      for (int kind = 0; kind < 3; ++kind) check_alltoall(ic, kind);
    }
    check_comms(ic);
  }
  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "intercomm_coll: %d errors\n" : "intercomm_coll: OK\n", all);
  MPI_Comm_free(&ic);
  MPI_Comm_free(&local);
  MPI_Finalize();
  return all != 0;
}
