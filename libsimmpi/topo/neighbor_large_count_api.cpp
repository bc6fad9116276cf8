// SPDX-License-Identifier: Apache-2.0
// The large-count (_c) forms of the neighbourhood collectives (MPI-4.1 8.6), blocking,
// nonblocking and persistent: each hands its counts to the int form when they fit and fails with
// MPI_ERR_COUNT otherwise (core/count_narrowing.hpp).
#include "libsimmpi/core/count_narrowing.hpp"

using namespace simmpi::mpi;

namespace {

// The caller's in- and out-degree on `comm`'s topology; 0 and 0 for anything else (the int call
// then raises the error).
void neighbor_degrees(MPI_Comm comm, int* indegree, int* outdegree) {
  *indegree = *outdegree = 0;
  int kind = MPI_UNDEFINED, flag = 0;
  if (comm == MPI_COMM_NULL || MPI_Topo_test(comm, &kind) != MPI_SUCCESS) return;
  if (kind == MPI_CART) {
    int ndims = 0;
    MPI_Cartdim_get(comm, &ndims);
    *indegree = *outdegree = 2 * ndims;
  } else if (kind == MPI_GRAPH) {
    int rank = 0, neighbors = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Graph_neighbors_count(comm, rank, &neighbors);
    *indegree = *outdegree = neighbors;
  } else if (kind == MPI_DIST_GRAPH) {
    MPI_Dist_graph_neighbors_count(comm, indegree, outdegree, &flag);
  }
}

}  // namespace

extern "C" {

int MPI_Ineighbor_allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, MPI_Request* request) {
  CountNarrowing n("MPI_Ineighbor_allgather_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Ineighbor_allgather(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype,
                                  comm, request);
}

int MPI_Ineighbor_allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                               void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  CountNarrowing n("MPI_Ineighbor_allgatherv_c");
  const int sendcount_ = n(sendcount, "sendcount");
  int indegree = 0, outdegree = 0;
  neighbor_degrees(comm, &indegree, &outdegree);
  const int* recvcounts_ = n.array(recvcounts, indegree, "recvcounts");
  const int* displs_ = n.array(displs, indegree, "displs");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Ineighbor_allgatherv(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_,
                                   recvtype, comm, request);
}

int MPI_Ineighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request* request) {
  CountNarrowing n("MPI_Ineighbor_alltoall_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Ineighbor_alltoall(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm,
                                 request);
}

int MPI_Ineighbor_alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf,
                              const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  CountNarrowing n("MPI_Ineighbor_alltoallv_c");
  int indegree = 0, outdegree = 0;
  neighbor_degrees(comm, &indegree, &outdegree);
  const int* sendcounts_ = n.array(sendcounts, outdegree, "sendcounts");
  const int* sdispls_ = n.array(sdispls, outdegree, "sdispls");
  const int* recvcounts_ = n.array(recvcounts, indegree, "recvcounts");
  const int* rdispls_ = n.array(rdispls, indegree, "rdispls");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Ineighbor_alltoallv(sendbuf, sendcounts_, sdispls_, sendtype, recvbuf, recvcounts_,
                                  rdispls_, recvtype, comm, request);
}

int MPI_Ineighbor_alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[],
                              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                              void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request) {
  CountNarrowing n("MPI_Ineighbor_alltoallw_c");
  int indegree = 0, outdegree = 0;
  neighbor_degrees(comm, &indegree, &outdegree);
  const int* sendcounts_ = n.array(sendcounts, outdegree, "sendcounts");
  const int* recvcounts_ = n.array(recvcounts, indegree, "recvcounts");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Ineighbor_alltoallw(sendbuf, sendcounts_, sdispls, sendtypes, recvbuf, recvcounts_,
                                  rdispls, recvtypes, comm, request);
}

int MPI_Neighbor_allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm) {
  CountNarrowing n("MPI_Neighbor_allgather_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Neighbor_allgather(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype,
                                 comm);
}

int MPI_Neighbor_allgather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                  void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  CountNarrowing n("MPI_Neighbor_allgather_init_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Neighbor_allgather_init(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype,
                                      comm, info, request);
}

int MPI_Neighbor_allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                              void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                              MPI_Datatype recvtype, MPI_Comm comm) {
  CountNarrowing n("MPI_Neighbor_allgatherv_c");
  const int sendcount_ = n(sendcount, "sendcount");
  int indegree = 0, outdegree = 0;
  neighbor_degrees(comm, &indegree, &outdegree);
  const int* recvcounts_ = n.array(recvcounts, indegree, "recvcounts");
  const int* displs_ = n.array(displs, indegree, "displs");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Neighbor_allgatherv(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_,
                                  recvtype, comm);
}

int MPI_Neighbor_allgatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                   void* recvbuf, const MPI_Count recvcounts[],
                                   const MPI_Aint displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                   MPI_Info info, MPI_Request* request) {
  CountNarrowing n("MPI_Neighbor_allgatherv_init_c");
  const int sendcount_ = n(sendcount, "sendcount");
  int indegree = 0, outdegree = 0;
  neighbor_degrees(comm, &indegree, &outdegree);
  const int* recvcounts_ = n.array(recvcounts, indegree, "recvcounts");
  const int* displs_ = n.array(displs, indegree, "displs");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Neighbor_allgatherv_init(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_,
                                       recvtype, comm, info, request);
}

int MPI_Neighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                            void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm) {
  CountNarrowing n("MPI_Neighbor_alltoall_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Neighbor_alltoall(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm);
}

int MPI_Neighbor_alltoall_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  CountNarrowing n("MPI_Neighbor_alltoall_init_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Neighbor_alltoall_init(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype,
                                     comm, info, request);
}

int MPI_Neighbor_alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[],
                             const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf,
                             const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                             MPI_Datatype recvtype, MPI_Comm comm) {
  CountNarrowing n("MPI_Neighbor_alltoallv_c");
  int indegree = 0, outdegree = 0;
  neighbor_degrees(comm, &indegree, &outdegree);
  const int* sendcounts_ = n.array(sendcounts, outdegree, "sendcounts");
  const int* sdispls_ = n.array(sdispls, outdegree, "sdispls");
  const int* recvcounts_ = n.array(recvcounts, indegree, "recvcounts");
  const int* rdispls_ = n.array(rdispls, indegree, "rdispls");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Neighbor_alltoallv(sendbuf, sendcounts_, sdispls_, sendtype, recvbuf, recvcounts_,
                                 rdispls_, recvtype, comm);
}

int MPI_Neighbor_alltoallv_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                                  const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf,
                                  const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) {
  CountNarrowing n("MPI_Neighbor_alltoallv_init_c");
  int indegree = 0, outdegree = 0;
  neighbor_degrees(comm, &indegree, &outdegree);
  const int* sendcounts_ = n.array(sendcounts, outdegree, "sendcounts");
  const int* sdispls_ = n.array(sdispls, outdegree, "sdispls");
  const int* recvcounts_ = n.array(recvcounts, indegree, "recvcounts");
  const int* rdispls_ = n.array(rdispls, indegree, "rdispls");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Neighbor_alltoallv_init(sendbuf, sendcounts_, sdispls_, sendtype, recvbuf,
                                      recvcounts_, rdispls_, recvtype, comm, info, request);
}

int MPI_Neighbor_alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[],
                             const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                             void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm) {
  CountNarrowing n("MPI_Neighbor_alltoallw_c");
  int indegree = 0, outdegree = 0;
  neighbor_degrees(comm, &indegree, &outdegree);
  const int* sendcounts_ = n.array(sendcounts, outdegree, "sendcounts");
  const int* recvcounts_ = n.array(recvcounts, indegree, "recvcounts");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Neighbor_alltoallw(sendbuf, sendcounts_, sdispls, sendtypes, recvbuf, recvcounts_,
                                 rdispls, recvtypes, comm);
}

int MPI_Neighbor_alltoallw_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                                  const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                  void* recvbuf, const MPI_Count recvcounts[],
                                  const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                  MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  CountNarrowing n("MPI_Neighbor_alltoallw_init_c");
  int indegree = 0, outdegree = 0;
  neighbor_degrees(comm, &indegree, &outdegree);
  const int* sendcounts_ = n.array(sendcounts, outdegree, "sendcounts");
  const int* recvcounts_ = n.array(recvcounts, indegree, "recvcounts");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Neighbor_alltoallw_init(sendbuf, sendcounts_, sdispls, sendtypes, recvbuf,
                                      recvcounts_, rdispls, recvtypes, comm, info, request);
}

}  // extern "C"
