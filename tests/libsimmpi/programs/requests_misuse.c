/* SPDX-License-Identifier: Apache-2.0 */
/* Misuse of persistent requests, matched messages and info objects, chosen by argv[1]; each
 * must end the run with one clear message (MPI_ERRORS_ARE_FATAL):
 *   restart  MPI_Start of a persistent receive that is still active
 *   start    MPI_Start of a request made by MPI_Irecv
 *   mrecv    MPI_Mrecv twice on one matched message (a saved copy of the handle)
 *   info     MPI_Info_set on a freed info
 *   coll_restart  MPI_Start of a persistent MPI_Allreduce_init that is still active
 *   coll_free     MPI_Request_free of a persistent MPI_Bcast_init that is still active
 *   coll_cancel   MPI_Cancel of a started persistent MPI_Barrier_init, then of an MPI_Ibarrier */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "";
  int v = 0;
  MPI_Request r;
  MPI_Init(&argc, &argv);
  if (!strcmp(what, "restart")) {
    MPI_Recv_init(&v, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &r);
    MPI_Start(&r);
    MPI_Start(&r);
  }
  if (!strcmp(what, "start")) {
    MPI_Irecv(&v, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &r);
    MPI_Start(&r);
  }
  if (!strcmp(what, "mrecv")) {
    MPI_Message m, copy;
    MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_SELF);
    MPI_Mprobe(0, 5, MPI_COMM_SELF, &m, MPI_STATUS_IGNORE);
    copy = m;
    MPI_Mrecv(&v, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
    MPI_Mrecv(&v, 1, MPI_INT, &copy, MPI_STATUS_IGNORE);
  }
  if (!strcmp(what, "info")) {
    MPI_Info info, saved;
    MPI_Info_create(&info);
    saved = info;
    MPI_Info_free(&info);
    MPI_Info_set(saved, "key", "value");
  }
  if (!strcmp(what, "coll_restart")) {
    int sum;
    MPI_Allreduce_init(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    MPI_Start(&r);
  }
  if (!strcmp(what, "coll_free")) {
    MPI_Bcast_init(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    MPI_Request_free(&r);
  }
  if (!strcmp(what, "coll_cancel")) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r);
    int persistent = MPI_Cancel(&r), err_class = 0;
    MPI_Error_class(persistent, &err_class);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    int nonblocking = MPI_Cancel(&r), nb_class = 0;
    MPI_Error_class(nonblocking, &nb_class);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (err_class == MPI_ERR_REQUEST && nb_class == MPI_ERR_REQUEST) v = 1;
    int all = 0;
    MPI_Allreduce(&v, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0 && all == size) printf("coll_cancel: OK\n");
  }
  MPI_Finalize();
  return 0;
}
