/* SPDX-License-Identifier: Apache-2.0 */
/* MPI_Comm_spawn and MPI_Comm_spawn_multiple of this program (MPI-3.1 10.3), checked from both
 * sides: the children's own MPI_COMM_WORLD, argv and MPI_APPNUM, the intercommunicator's groups,
 * messages both ways, a broadcast and an allreduce over it, MPI_Intercomm_merge of it, a second
 * intercommunicator made with it as the peer (MPI_Intercomm_create), the children's view's name
 * (MPI_COMM_PARENT), and the children's start no earlier than mpi.spawn_launch_time after the
 * root's call.
 *
 *   spawn.sim -n P --set node.count=N -- C [single|multiple|toomany|other]
 *
 * single (the default): C children with argv {"child", "x"}; multiple: one child with argv
 * {"first"} and C-1 with {"second", "y", "z"}; toomany: C children where fewer slots are free,
 * which must fail with MPI_ERR_SPAWN under MPI_ERRORS_RETURN (errcodes filled, MPI_COMM_NULL);
 * other: spawning /bin/true, which is not this program, must fail the same way. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const double kLaunchTime = 0.05; /* mpi.spawn_launch_time's default */

/* The children's part of every mode that starts them. */
static int child(int argc, char** argv, MPI_Comm parent) {
  int rank, size, remote, *appnum, flag;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_remote_size(parent, &remote);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &appnum, &flag);
  CHECK(flag, "MPI_APPNUM is set");
  int is_multiple = argc >= 2 && (strcmp(argv[1], "first") == 0 || strcmp(argv[1], "second") == 0);
  if (is_multiple) {
    CHECK(*appnum == (rank == 0 ? 0 : 1), "rank %d: appnum %d", rank, *appnum);
    if (*appnum == 0)
      CHECK(argc == 2 && strcmp(argv[1], "first") == 0, "argv of command 0");
    else
      CHECK(argc == 4 && strcmp(argv[1], "second") == 0 && strcmp(argv[2], "y") == 0 &&
                strcmp(argv[3], "z") == 0,
            "argv of command 1");
  } else {
    CHECK(*appnum == 0, "appnum %d", *appnum);
    CHECK(argc == 3 && strcmp(argv[1], "child") == 0 && strcmp(argv[2], "x") == 0,
          "argc %d argv[1] %s", argc, argc > 1 ? argv[1] : "");
  }
  /* The parents' time at their call travels with the first message. */
  double t0;
  int value;
  MPI_Status st;
  MPI_Recv(&t0, 1, MPI_DOUBLE, 0, 1, parent, &st);
  MPI_Recv(&value, 1, MPI_INT, 0, 2, parent, &st);
  CHECK(value == 100 + rank, "got %d from the root, want %d", value, 100 + rank);
  CHECK(st.MPI_SOURCE == 0, "source %d", st.MPI_SOURCE);
  value *= 2;
  MPI_Send(&value, 1, MPI_INT, rank % remote, 3, parent);
  int b = 0;
  MPI_Bcast(&b, 1, MPI_INT, 0, parent);
  CHECK(b == 42, "bcast from the parents' root gave %d", b);
  int mine = 100 * (rank + 1), sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, parent);
  CHECK(sum == remote * (remote + 1) / 2, "allreduce over the parents gave %d", sum);
  MPI_Comm merged;
  int mrank, msize, msum = 0;
  MPI_Intercomm_merge(parent, 1, &merged);
  MPI_Comm_rank(merged, &mrank);
  MPI_Comm_size(merged, &msize);
  CHECK(msize == size + remote && mrank == remote + rank, "merged rank %d of %d", mrank, msize);
  MPI_Allreduce(&mrank, &msum, 1, MPI_INT, MPI_SUM, merged);
  CHECK(msum == msize * (msize - 1) / 2, "merged allreduce %d", msum);
  MPI_Comm_free(&merged);
  char name[MPI_MAX_OBJECT_NAME] = "";
  int len;
  MPI_Comm_get_name(parent, name, &len);
  CHECK(strcmp(name, "MPI_COMM_PARENT") == 0, "the parent's name is \"%s\"", name);
  MPI_Comm again;
  int again_remote;
  MPI_Intercomm_create(MPI_COMM_WORLD, 0, parent, 0, 123, &again);
  MPI_Comm_remote_size(again, &again_remote);
  CHECK(again_remote == remote, "MPI_Intercomm_create over the parent: remote size %d",
        again_remote);
  MPI_Comm_free(&again);
  double now = MPI_Wtime();
  CHECK(now >= t0 + kLaunchTime, "a child runs at %.6f s, before the launch ends (%.6f s)", now,
        t0 + kLaunchTime);
  MPI_Comm_free(&parent);
  MPI_Comm check;
  MPI_Comm_get_parent(&check);
  CHECK(check == MPI_COMM_NULL, "the parent is MPI_COMM_NULL once freed");
  return finish("spawn children");
}

static int expect_failure(const char* command, int children, int universe) {
  int rank, errs[64];
  MPI_Comm inter = MPI_COMM_WORLD;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int i = 0; i < children; ++i) errs[i] = -1;
  int err = MPI_Comm_spawn(command, MPI_ARGV_NULL, children, MPI_INFO_NULL, 0, MPI_COMM_WORLD,
                           &inter, errs);
  int cls = -1;
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_SPAWN, "spawning %d of %s: class %d", children, command, cls);
  CHECK(inter == MPI_COMM_NULL, "no intercommunicator after a failed spawn");
  if (rank == 0)
    for (int i = 0; i < children; ++i)
      CHECK(errs[i] == MPI_ERR_SPAWN, "errcodes[%d]=%d", i, errs[i]);
  (void)universe;
  return finish("spawn parents");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL) return child(argc, argv, parent);
  int rank, size, *universe, flag;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &universe, &flag);
  int children = argc > 1 ? atoi(argv[1]) : 1;
  const char* mode = argc > 2 ? argv[2] : "single";
  if (strcmp(mode, "toomany") == 0) return expect_failure(argv[0], children, *universe);
  if (strcmp(mode, "other") == 0) return expect_failure("/bin/true", children, *universe);
  CHECK(flag && *universe >= size + children, "MPI_UNIVERSE_SIZE %d", flag ? *universe : -1);
  double t0 = MPI_Wtime();
  MPI_Comm inter;
  int errs[64];
  if (strcmp(mode, "multiple") == 0) {
    char* cmds[2] = {argv[0], argv[0]};
    char* first[] = {"first", NULL};
    char* second[] = {"second", "y", "z", NULL};
    char** argvs[2] = {first, second};
    int maxprocs[2] = {1, children - 1};
    MPI_Info infos[2] = {MPI_INFO_NULL, MPI_INFO_NULL};
    MPI_Comm_spawn_multiple(children > 1 ? 2 : 1, cmds, argvs, maxprocs, infos, 0, MPI_COMM_WORLD,
                            &inter, errs);
  } else {
    char* args[] = {"child", "x", NULL};
    MPI_Comm_spawn(argv[0], args, children, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, errs);
  }
  if (rank == 0)
    for (int i = 0; i < children; ++i) CHECK(errs[i] == MPI_SUCCESS, "errcodes[%d]=%d", i, errs[i]);
  int local, remote, is_inter;
  MPI_Comm_test_inter(inter, &is_inter);
  MPI_Comm_size(inter, &local);
  MPI_Comm_remote_size(inter, &remote);
  CHECK(is_inter && local == size && remote == children, "local %d remote %d", local, remote);
  if (rank == 0)
    for (int i = 0; i < children; ++i) {
      int v = 100 + i;
      MPI_Send(&t0, 1, MPI_DOUBLE, i, 1, inter);
      MPI_Send(&v, 1, MPI_INT, i, 2, inter);
    }
  for (int i = rank; i < children; i += size) {
    int v;
    MPI_Recv(&v, 1, MPI_INT, i, 3, inter, MPI_STATUS_IGNORE);
    CHECK(v == 2 * (100 + i), "child %d answered %d", i, v);
  }
  int b = 42;
  MPI_Bcast(&b, 1, MPI_INT, rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
  int mine = rank + 1, sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter);
  CHECK(sum == 100 * children * (children + 1) / 2, "allreduce over the children gave %d", sum);
  MPI_Comm merged;
  int mrank, msize;
  MPI_Intercomm_merge(inter, 0, &merged);
  MPI_Comm_rank(merged, &mrank);
  MPI_Comm_size(merged, &msize);
  CHECK(msize == size + children && mrank == rank, "merged rank %d of %d", mrank, msize);
  int msum = 0;
  MPI_Allreduce(&mrank, &msum, 1, MPI_INT, MPI_SUM, merged);
  CHECK(msum == msize * (msize - 1) / 2, "merged allreduce %d", msum);
  MPI_Comm_free(&merged);
  MPI_Comm again;
  int again_remote;
  MPI_Intercomm_create(MPI_COMM_WORLD, 0, inter, 0, 123, &again);
  MPI_Comm_remote_size(again, &again_remote);
  CHECK(again_remote == children, "MPI_Intercomm_create over the spawn: remote size %d",
        again_remote);
  MPI_Comm_free(&again);
  MPI_Comm_free(&inter);
  return finish("spawn parents");
}
