// SPDX-License-Identifier: Apache-2.0
// The large-count (_c) forms of the collectives (MPI-4.1 6), blocking, nonblocking and
// persistent, and of MPI_Reduce_local: each hands its counts to the int form when they fit and
// fails with MPI_ERR_COUNT otherwise (core/count_narrowing.hpp). Count arrays are read where
// the standard makes them significant (a v-collective's at its root only).
#include "libsimmpi/core/communicator.hpp"
#include "libsimmpi/core/count_narrowing.hpp"
#include "libsimmpi/core/world.hpp"

using namespace simmpi::mpi;

namespace {

// The caller's view of `comm`, or nullptr when it holds no such communicator (the int call then
// raises MPI_ERR_COMM, or that MPI is not initialized).
const Communicator* caller_comm(MPI_Comm comm) {
  if (!World::exists()) return nullptr;
  World& w = World::get();
  return w.find_comm(comm, w.current_rank());
}

// Entries of a collective's count and displacement arrays: one per member of the other group of
// an intercommunicator, else one per member.
int collective_peers(MPI_Comm comm) {
  const Communicator* c = caller_comm(comm);
  return c ? c->remote().size() : 0;
}

// Entries of MPI_Reduce_scatter's recvcounts: one per member of the caller's own group.
int local_group_size(MPI_Comm comm) {
  const Communicator* c = caller_comm(comm);
  return c ? c->size() : 0;
}

// Whether the caller is the root of a rooted collective, where its v-arrays are significant.
bool is_collective_root(MPI_Comm comm, int root) {
  if (root == MPI_ROOT) return true;
  const Communicator* c = caller_comm(comm);
  return c && !c->is_inter() && c->comm_rank(World::get().current_rank()) == root;
}

}  // namespace

extern "C" {

int MPI_Allgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  CountNarrowing n("MPI_Allgather_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Allgather(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm);
}

int MPI_Allgather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request* request) {
  CountNarrowing n("MPI_Allgather_init_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Allgather_init(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm,
                             info, request);
}

int MPI_Allgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                     MPI_Comm comm) {
  CountNarrowing n("MPI_Allgatherv_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int peers = collective_peers(comm);
  const int* recvcounts_ = n.array(recvcounts, peers, "recvcounts");
  const int* displs_ = n.array(displs, peers, "displs");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Allgatherv(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype,
                         comm);
}

int MPI_Allgatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request* request) {
  CountNarrowing n("MPI_Allgatherv_init_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int peers = collective_peers(comm);
  const int* recvcounts_ = n.array(recvcounts, peers, "recvcounts");
  const int* displs_ = n.array(displs, peers, "displs");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Allgatherv_init(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_,
                              recvtype, comm, info, request);
}

int MPI_Allreduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm) {
  CountNarrowing n("MPI_Allreduce_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Allreduce(sendbuf, recvbuf, count_, datatype, op, comm);
}

int MPI_Allreduce_init_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  CountNarrowing n("MPI_Allreduce_init_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Allreduce_init(sendbuf, recvbuf, count_, datatype, op, comm, info, request);
}

int MPI_Alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  CountNarrowing n("MPI_Alltoall_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Alltoall(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm);
}

int MPI_Alltoall_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Info info, MPI_Request* request) {
  CountNarrowing n("MPI_Alltoall_init_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Alltoall_init(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm,
                            info, request);
}

int MPI_Alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  CountNarrowing n("MPI_Alltoallv_c");
  const int peers = collective_peers(comm);
  const int* sendcounts_ = n.array(sendcounts, peers, "sendcounts");
  const int* sdispls_ = n.array(sdispls, peers, "sdispls");
  const int* recvcounts_ = n.array(recvcounts, peers, "recvcounts");
  const int* rdispls_ = n.array(rdispls, peers, "rdispls");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Alltoallv(sendbuf, sendcounts_, sdispls_, sendtype, recvbuf, recvcounts_, rdispls_,
                        recvtype, comm);
}

int MPI_Alltoallv_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint sdispls[], MPI_Datatype sendtype, void* recvbuf,
                         const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                         MPI_Request* request) {
  CountNarrowing n("MPI_Alltoallv_init_c");
  const int peers = collective_peers(comm);
  const int* sendcounts_ = n.array(sendcounts, peers, "sendcounts");
  const int* sdispls_ = n.array(sdispls, peers, "sdispls");
  const int* recvcounts_ = n.array(recvcounts, peers, "recvcounts");
  const int* rdispls_ = n.array(rdispls, peers, "rdispls");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Alltoallv_init(sendbuf, sendcounts_, sdispls_, sendtype, recvbuf, recvcounts_,
                             rdispls_, recvtype, comm, info, request);
}

int MPI_Alltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  CountNarrowing n("MPI_Alltoallw_c");
  const int peers = collective_peers(comm);
  const int* sendcounts_ = n.array(sendcounts, peers, "sendcounts");
  const int* sdispls_ = n.array(sdispls, peers, "sdispls");
  const int* recvcounts_ = n.array(recvcounts, peers, "recvcounts");
  const int* rdispls_ = n.array(rdispls, peers, "rdispls");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Alltoallw(sendbuf, sendcounts_, sdispls_, sendtypes, recvbuf, recvcounts_, rdispls_,
                        recvtypes, comm);
}

int MPI_Alltoallw_init_c(const void* sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf,
                         const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                         const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                         MPI_Request* request) {
  CountNarrowing n("MPI_Alltoallw_init_c");
  const int peers = collective_peers(comm);
  const int* sendcounts_ = n.array(sendcounts, peers, "sendcounts");
  const int* sdispls_ = n.array(sdispls, peers, "sdispls");
  const int* recvcounts_ = n.array(recvcounts, peers, "recvcounts");
  const int* rdispls_ = n.array(rdispls, peers, "rdispls");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Alltoallw_init(sendbuf, sendcounts_, sdispls_, sendtypes, recvbuf, recvcounts_,
                             rdispls_, recvtypes, comm, info, request);
}

int MPI_Bcast_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  CountNarrowing n("MPI_Bcast_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Bcast(buffer, count_, datatype, root, comm);
}

int MPI_Bcast_init_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request* request) {
  CountNarrowing n("MPI_Bcast_init_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Bcast_init(buffer, count_, datatype, root, comm, info, request);
}

int MPI_Exscan_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm) {
  CountNarrowing n("MPI_Exscan_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Exscan(sendbuf, recvbuf, count_, datatype, op, comm);
}

int MPI_Exscan_init_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  CountNarrowing n("MPI_Exscan_init_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Exscan_init(sendbuf, recvbuf, count_, datatype, op, comm, info, request);
}

int MPI_Gather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                 MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CountNarrowing n("MPI_Gather_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Gather(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, root, comm);
}

int MPI_Gather_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  CountNarrowing n("MPI_Gather_init_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Gather_init(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, root, comm,
                          info, request);
}

int MPI_Gatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                  int root, MPI_Comm comm) {
  CountNarrowing n("MPI_Gatherv_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int root_peers = is_collective_root(comm, root) ? collective_peers(comm) : 0;
  const int* recvcounts_ = n.array(recvcounts, root_peers, "recvcounts");
  const int* displs_ = n.array(displs, root_peers, "displs");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Gatherv(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype, root,
                      comm);
}

int MPI_Gatherv_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request* request) {
  CountNarrowing n("MPI_Gatherv_init_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int root_peers = is_collective_root(comm, root) ? collective_peers(comm) : 0;
  const int* recvcounts_ = n.array(recvcounts, root_peers, "recvcounts");
  const int* displs_ = n.array(displs, root_peers, "displs");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Gatherv_init(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype,
                           root, comm, info, request);
}

int MPI_Iallgather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request* request) {
  CountNarrowing n("MPI_Iallgather_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Iallgather(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm,
                         request);
}

int MPI_Iallgatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  CountNarrowing n("MPI_Iallgatherv_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int peers = collective_peers(comm);
  const int* recvcounts_ = n.array(recvcounts, peers, "recvcounts");
  const int* displs_ = n.array(displs, peers, "displs");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Iallgatherv(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype,
                          comm, request);
}

int MPI_Iallreduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  CountNarrowing n("MPI_Iallreduce_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Iallreduce(sendbuf, recvbuf, count_, datatype, op, comm, request);
}

int MPI_Ialltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request* request) {
  CountNarrowing n("MPI_Ialltoall_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Ialltoall(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, comm,
                        request);
}

int MPI_Ialltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request* request) {
  CountNarrowing n("MPI_Ialltoallv_c");
  const int peers = collective_peers(comm);
  const int* sendcounts_ = n.array(sendcounts, peers, "sendcounts");
  const int* sdispls_ = n.array(sdispls, peers, "sdispls");
  const int* recvcounts_ = n.array(recvcounts, peers, "recvcounts");
  const int* rdispls_ = n.array(rdispls, peers, "rdispls");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Ialltoallv(sendbuf, sendcounts_, sdispls_, sendtype, recvbuf, recvcounts_, rdispls_,
                         recvtype, comm, request);
}

int MPI_Ialltoallw_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                     MPI_Request* request) {
  CountNarrowing n("MPI_Ialltoallw_c");
  const int peers = collective_peers(comm);
  const int* sendcounts_ = n.array(sendcounts, peers, "sendcounts");
  const int* sdispls_ = n.array(sdispls, peers, "sdispls");
  const int* recvcounts_ = n.array(recvcounts, peers, "recvcounts");
  const int* rdispls_ = n.array(rdispls, peers, "rdispls");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Ialltoallw(sendbuf, sendcounts_, sdispls_, sendtypes, recvbuf, recvcounts_, rdispls_,
                         recvtypes, comm, request);
}

int MPI_Ibcast_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 MPI_Request* request) {
  CountNarrowing n("MPI_Ibcast_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Ibcast(buffer, count_, datatype, root, comm, request);
}

int MPI_Iexscan_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  CountNarrowing n("MPI_Iexscan_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Iexscan(sendbuf, recvbuf, count_, datatype, op, comm, request);
}

int MPI_Igather_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request* request) {
  CountNarrowing n("MPI_Igather_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Igather(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, root, comm,
                      request);
}

int MPI_Igatherv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request* request) {
  CountNarrowing n("MPI_Igatherv_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int root_peers = is_collective_root(comm, root) ? collective_peers(comm) : 0;
  const int* recvcounts_ = n.array(recvcounts, root_peers, "recvcounts");
  const int* displs_ = n.array(displs, root_peers, "displs");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Igatherv(sendbuf, sendcount_, sendtype, recvbuf, recvcounts_, displs_, recvtype, root,
                       comm, request);
}

int MPI_Ireduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm, MPI_Request* request) {
  CountNarrowing n("MPI_Ireduce_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Ireduce(sendbuf, recvbuf, count_, datatype, op, root, comm, request);
}

int MPI_Ireduce_scatter_block_c(const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                MPI_Request* request) {
  CountNarrowing n("MPI_Ireduce_scatter_block_c");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount_, datatype, op, comm, request);
}

int MPI_Ireduce_scatter_c(const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  CountNarrowing n("MPI_Ireduce_scatter_c");
  const int local_size = local_group_size(comm);
  const int* recvcounts_ = n.array(recvcounts, local_size, "recvcounts");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts_, datatype, op, comm, request);
}

int MPI_Iscan_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  CountNarrowing n("MPI_Iscan_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Iscan(sendbuf, recvbuf, count_, datatype, op, comm, request);
}

int MPI_Iscatter_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request* request) {
  CountNarrowing n("MPI_Iscatter_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Iscatter(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, root, comm,
                       request);
}

int MPI_Iscatterv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
  CountNarrowing n("MPI_Iscatterv_c");
  const int recvcount_ = n(recvcount, "recvcount");
  const int root_peers = is_collective_root(comm, root) ? collective_peers(comm) : 0;
  const int* sendcounts_ = n.array(sendcounts, root_peers, "sendcounts");
  const int* displs_ = n.array(displs, root_peers, "displs");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Iscatterv(sendbuf, sendcounts_, displs_, sendtype, recvbuf, recvcount_, recvtype,
                        root, comm, request);
}

int MPI_Reduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, int root, MPI_Comm comm) {
  CountNarrowing n("MPI_Reduce_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Reduce(sendbuf, recvbuf, count_, datatype, op, root, comm);
}

int MPI_Reduce_init_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  CountNarrowing n("MPI_Reduce_init_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Reduce_init(sendbuf, recvbuf, count_, datatype, op, root, comm, info, request);
}

int MPI_Reduce_local_c(const void* inbuf, void* inoutbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op) {
  CountNarrowing n("MPI_Reduce_local_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(MPI_COMM_WORLD);
  return PMPI_Reduce_local(inbuf, inoutbuf, count_, datatype, op);
}

int MPI_Reduce_scatter_block_c(const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  CountNarrowing n("MPI_Reduce_scatter_block_c");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount_, datatype, op, comm);
}

int MPI_Reduce_scatter_block_init_c(const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                    MPI_Request* request) {
  CountNarrowing n("MPI_Reduce_scatter_block_init_c");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Reduce_scatter_block_init(sendbuf, recvbuf, recvcount_, datatype, op, comm, info,
                                        request);
}

int MPI_Reduce_scatter_c(const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  CountNarrowing n("MPI_Reduce_scatter_c");
  const int local_size = local_group_size(comm);
  const int* recvcounts_ = n.array(recvcounts, local_size, "recvcounts");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts_, datatype, op, comm);
}

int MPI_Reduce_scatter_init_c(const void* sendbuf, void* recvbuf, const MPI_Count recvcounts[],
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                              MPI_Request* request) {
  CountNarrowing n("MPI_Reduce_scatter_init_c");
  const int local_size = local_group_size(comm);
  const int* recvcounts_ = n.array(recvcounts, local_size, "recvcounts");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Reduce_scatter_init(sendbuf, recvbuf, recvcounts_, datatype, op, comm, info, request);
}

int MPI_Scan_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
               MPI_Op op, MPI_Comm comm) {
  CountNarrowing n("MPI_Scan_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Scan(sendbuf, recvbuf, count_, datatype, op, comm);
}

int MPI_Scan_init_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  CountNarrowing n("MPI_Scan_init_c");
  const int count_ = n(count, "count");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Scan_init(sendbuf, recvbuf, count_, datatype, op, comm, info, request);
}

int MPI_Scatter_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CountNarrowing n("MPI_Scatter_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Scatter(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, root, comm);
}

int MPI_Scatter_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  CountNarrowing n("MPI_Scatter_init_c");
  const int sendcount_ = n(sendcount, "sendcount");
  const int recvcount_ = n(recvcount, "recvcount");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Scatter_init(sendbuf, sendcount_, sendtype, recvbuf, recvcount_, recvtype, root, comm,
                           info, request);
}

int MPI_Scatterv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                   MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm) {
  CountNarrowing n("MPI_Scatterv_c");
  const int recvcount_ = n(recvcount, "recvcount");
  const int root_peers = is_collective_root(comm, root) ? collective_peers(comm) : 0;
  const int* sendcounts_ = n.array(sendcounts, root_peers, "sendcounts");
  const int* displs_ = n.array(displs, root_peers, "displs");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Scatterv(sendbuf, sendcounts_, displs_, sendtype, recvbuf, recvcount_, recvtype, root,
                       comm);
}

int MPI_Scatterv_init_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                        MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request* request) {
  CountNarrowing n("MPI_Scatterv_init_c");
  const int recvcount_ = n(recvcount, "recvcount");
  const int root_peers = is_collective_root(comm, root) ? collective_peers(comm) : 0;
  const int* sendcounts_ = n.array(sendcounts, root_peers, "sendcounts");
  const int* displs_ = n.array(displs, root_peers, "displs");
  if (!n.fits()) return n.fail(comm);
  return PMPI_Scatterv_init(sendbuf, sendcounts_, displs_, sendtype, recvbuf, recvcount_, recvtype,
                            root, comm, info, request);
}

}  // extern "C"
