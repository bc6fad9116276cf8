/* SPDX-License-Identifier: Apache-2.0 */
/* A profiling tool that wraps both the int and the large-count (_c) form of a call must count a
 * _c call once: simmpi's _c front ends reach the int implementation by its PMPI_ name, never
 * through the tool's MPI_ wrapper (MPI-4.1 15.2). Each rank calls each of four collectives once
 * in each form; every counter must read 1, and the results must be right. */
#include "check.h"

static int allgather, allgather_c, bcast, bcast_c, allreduce, allreduce_c, alltoall, alltoall_c;

int MPI_Allgather(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt,
                  MPI_Comm comm) {
  allgather++;
  return PMPI_Allgather(sb, sc, st, rb, rc, rt, comm);
}
int MPI_Allgather_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc,
                    MPI_Datatype rt, MPI_Comm comm) {
  allgather_c++;
  return PMPI_Allgather_c(sb, sc, st, rb, rc, rt, comm);
}
int MPI_Bcast(void* b, int c, MPI_Datatype t, int root, MPI_Comm comm) {
  bcast++;
  return PMPI_Bcast(b, c, t, root, comm);
}
int MPI_Bcast_c(void* b, MPI_Count c, MPI_Datatype t, int root, MPI_Comm comm) {
  bcast_c++;
  return PMPI_Bcast_c(b, c, t, root, comm);
}
int MPI_Allreduce(const void* sb, void* rb, int c, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  allreduce++;
  return PMPI_Allreduce(sb, rb, c, t, op, comm);
}
int MPI_Allreduce_c(const void* sb, void* rb, MPI_Count c, MPI_Datatype t, MPI_Op op,
                    MPI_Comm comm) {
  allreduce_c++;
  return PMPI_Allreduce_c(sb, rb, c, t, op, comm);
}
int MPI_Alltoall(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt,
                 MPI_Comm comm) {
  alltoall++;
  return PMPI_Alltoall(sb, sc, st, rb, rc, rt, comm);
}
int MPI_Alltoall_c(const void* sb, MPI_Count sc, MPI_Datatype st, void* rb, MPI_Count rc,
                   MPI_Datatype rt, MPI_Comm comm) {
  alltoall_c++;
  return PMPI_Alltoall_c(sb, sc, st, rb, rc, rt, comm);
}

int main(int argc, char** argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int all[64], sum = 0, sum_c = 0, v = -1, v_c = -1, to[64], from[64];
  for (int form = 0; form < 2; ++form) {
    for (int i = 0; i < size; ++i) all[i] = -1;
    if (form == 0)
      MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    else
      MPI_Allgather_c(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < size; ++i)
      CHECK(all[i] == i, "form %d: allgather[%d] = %d", form, i, all[i]);
  }
  v = rank == 0 ? 42 : 0;
  v_c = rank == 0 ? 43 : 0;
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Bcast_c(&v_c, 1, MPI_INT, 0, MPI_COMM_WORLD);
  CHECK(v == 42 && v_c == 43, "bcast gave %d and %d", v, v_c);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce_c(&rank, &sum_c, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(sum == size * (size - 1) / 2 && sum_c == sum, "allreduce gave %d and %d", sum, sum_c);
  for (int i = 0; i < size; ++i) to[i] = rank * 100 + i;
  MPI_Alltoall(to, 1, MPI_INT, from, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoall_c(to, 1, MPI_INT, from, 1, MPI_INT, MPI_COMM_WORLD);
  for (int i = 0; i < size; ++i) CHECK(from[i] == i * 100 + rank, "alltoall[%d] = %d", i, from[i]);
  CHECK(allgather == 1 && allgather_c == 1, "allgather counted %d, _c %d", allgather, allgather_c);
  CHECK(bcast == 1 && bcast_c == 1, "bcast counted %d, _c %d", bcast, bcast_c);
  CHECK(allreduce == 1 && allreduce_c == 1, "allreduce counted %d, _c %d", allreduce, allreduce_c);
  CHECK(alltoall == 1 && alltoall_c == 1, "alltoall counted %d, _c %d", alltoall, alltoall_c);
  return finish("pmpi_large_count");
}
