/* SPDX-License-Identifier: Apache-2.0 */
/* Misuse of communicators, groups and topologies, chosen by argv[1]; each must end the run
 * (MPI_ERRORS_ARE_FATAL) with a message naming the call, the rank and the argument:
 *   freed      rank 0 sends on a communicator it freed
 *   null       rank 0 sends on MPI_COMM_NULL
 *   dims       a Cartesian dimension of 0
 *   toolarge   a grid of more processes than the communicator has
 *   direction  MPI_Cart_shift along a dimension that does not exist
 *   mismatch   rank 0 splits while the others dup
 *   grouprank  MPI_Group_incl of a rank outside the group
 *   group      MPI_Comm_create with a group that is not a subgroup
 *   intercoll  a Cartesian topology on an intercommunicator */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, v = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* what = argc > 1 ? argv[1] : "";
  MPI_Comm c, c2;
  (void)c2;
  MPI_Group world;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  if (!strcmp(what, "freed")) { /* the other ranks keep c alive */
    MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &c);
    MPI_Comm stale = c;
    if (rank == 0) MPI_Comm_free(&c);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) MPI_Send(&v, 1, MPI_INT, 0, 0, stale);
  }
  if (!strcmp(what, "null") && rank == 0) MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL);
  int dims[2] = {0, 2}, periods[2] = {0, 0};
  if (!strcmp(what, "dims")) MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c);
  dims[0] = size;
  if (!strcmp(what, "toolarge")) MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &c);
  if (!strcmp(what, "direction")) {
    int src, dst;
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, periods, 0, &c);
    MPI_Cart_shift(c, 1, 1, &src, &dst);
  }
  if (!strcmp(what, "mismatch")) {
    if (rank == 0)
      MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &c);
    else
      MPI_Comm_dup(MPI_COMM_WORLD, &c);
  }
  if (!strcmp(what, "grouprank")) {
    MPI_Group g;
    int bad = 9;
    MPI_Group_incl(world, 1, &bad, &g);
  }
  if (!strcmp(what, "group")) {
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
    MPI_Comm_create(c, world, &c2);
  }
  if (!strcmp(what, "intercoll")) {
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
    MPI_Intercomm_create(c, 0, MPI_COMM_WORLD, rank % 2 ? 0 : 1, 1, &c2);
    MPI_Cart_create(c2, 1, dims, periods, 0, &c);
  }
  MPI_Finalize();
  return 0;
}
