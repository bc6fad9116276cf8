/* SPDX-License-Identifier: Apache-2.0 */
/* Ports, names, MPI_Comm_accept/connect and MPI_Comm_disconnect (MPI-3.1 10.4, 10.5.3):
 *
 *   connect.sim -n P -- groups     the even and the odd ranks connect through a published name
 *   connect.sim -n P --set node.count=N -- spawned C
 *                                  the parents accept C spawned children that connect to the
 *                                  port named in their argv (a second intercommunicator)
 *
 * Checked: the groups' sizes from both sides, a message each way per rank, an allreduce and a
 * broadcast over the new intercommunicator, MPI_Comm_disconnect; MPI_ERR_NAME for a name not
 * published, MPI_ERR_PORT for a closed port, MPI_ERR_SERVICE for unpublishing twice,
 * MPI_ERR_UNSUPPORTED_OPERATION for MPI_Comm_join (no socket between simulated ranks). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Both sides of a connection: `low` is the accepting group. */
static void exercise(MPI_Comm inter, int low) {
  int rank, size, remote;
  MPI_Comm_rank(inter, &rank);
  MPI_Comm_size(inter, &size);
  MPI_Comm_remote_size(inter, &remote);
  /* Rank r sends to remote rank r % remote, and so receives from the remote ranks q with
   * q % size == r. */
  int out = (low ? 1000 : 2000) + rank, in = -1;
  MPI_Request req;
  MPI_Isend(&out, 1, MPI_INT, rank % remote, 7, inter, &req);
  for (int q = rank; q < remote; q += size) {
    MPI_Recv(&in, 1, MPI_INT, q, 7, inter, MPI_STATUS_IGNORE);
    CHECK(in == (low ? 2000 : 1000) + q, "rank %d got %d from remote rank %d", rank, in, q);
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  int mine = low ? 1 : 10, sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter);
  CHECK(sum == (low ? 10 : 1) * remote, "allreduce over the other group: %d", sum);
  int b = low ? 77 : 0;
  MPI_Bcast(&b, 1, MPI_INT, low ? (rank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, inter);
  CHECK(b == 77, "bcast gave %d", b);
  MPI_Comm_disconnect(&inter);
  CHECK(inter == MPI_COMM_NULL, "disconnect sets MPI_COMM_NULL");
}

static void misuse(void) {
  char port[MPI_MAX_PORT_NAME];
  int cls;
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Error_class(MPI_Lookup_name("no such service", MPI_INFO_NULL, port), &cls);
  CHECK(cls == MPI_ERR_NAME, "lookup of an unpublished name: class %d", cls);
  MPI_Open_port(MPI_INFO_NULL, port);
  MPI_Close_port(port);
  MPI_Comm c = MPI_COMM_WORLD;
  MPI_Error_class(MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), &cls);
  CHECK(cls == MPI_ERR_PORT && c == MPI_COMM_NULL, "connect to a closed port: class %d", cls);
  MPI_Error_class(MPI_Unpublish_name("no such service", MPI_INFO_NULL, port), &cls);
  CHECK(cls == MPI_ERR_SERVICE, "unpublishing an unpublished name: class %d", cls);
  c = MPI_COMM_WORLD;
  MPI_Error_class(MPI_Comm_join(0, &c), &cls);
  CHECK(cls == MPI_ERR_UNSUPPORTED_OPERATION && c == MPI_COMM_NULL, "MPI_Comm_join: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static int groups(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int low = rank % 2 == 0;
  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, !low, rank, &half);
  char port[MPI_MAX_PORT_NAME] = "";
  if (rank == 0) {
    MPI_Open_port(MPI_INFO_NULL, port);
    MPI_Publish_name("connect-test", MPI_INFO_NULL, port);
  }
  MPI_Barrier(MPI_COMM_WORLD); /* published before anyone looks */
  if (low) {
    MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter);
  } else {
    char found[MPI_MAX_PORT_NAME] = "";
    if (rank == 1) MPI_Lookup_name("connect-test", MPI_INFO_NULL, found);
    MPI_Comm_connect(found, MPI_INFO_NULL, 0, half, &inter);
  }
  int remote;
  MPI_Comm_remote_size(inter, &remote);
  CHECK(remote == (low ? size / 2 : (size + 1) / 2), "remote size %d", remote);
  exercise(inter, low);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Unpublish_name("connect-test", MPI_INFO_NULL, port);
    MPI_Close_port(port);
  }
  if (rank == 0) misuse();
  MPI_Comm_free(&half);
  return finish("connect groups");
}

static int spawned(int argc, char** argv, int children) {
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL) {
    MPI_Comm inter;
    CHECK(argc == 2, "the port travels in argv");
    MPI_Comm_connect(argv[1], MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
    exercise(inter, 0);
    MPI_Comm_disconnect(&parent);
    return finish("connect children");
  }
  char port[MPI_MAX_PORT_NAME];
  MPI_Comm kids, inter;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) MPI_Open_port(MPI_INFO_NULL, port);
  MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  char* args[] = {port, NULL};
  MPI_Comm_spawn(argv[0], args, children, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &kids,
                 MPI_ERRCODES_IGNORE);
  MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter);
  exercise(inter, 1);
  MPI_Comm_disconnect(&kids);
  if (rank == 0) MPI_Close_port(port);
  return finish("connect parents");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent;
  MPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL) return spawned(argc, argv, 0);
  if (argc > 2 && strcmp(argv[1], "spawned") == 0) return spawned(argc, argv, atoi(argv[2]));
  return groups();
}
