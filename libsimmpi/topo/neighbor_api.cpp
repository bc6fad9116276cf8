// SPDX-License-Identifier: Apache-2.0
// Neighborhood collectives (MPI-3.1 7.6, 7.7): MPI_(I)neighbor_allgather(v)(_init) and
// MPI_(I)neighbor_alltoall(v,w)(_init). As MPICH does by default, every rank posts one receive per
// in-neighbor and one send per out-neighbor, then waits for all, so they cost what those
// messages cost; a nonblocking one, or a started persistent one (MPI-4.1 8.8), does the same on
// an auxiliary process (nonblocking.hpp). On a
// Cartesian topology the block a rank sends to its -1 neighbor along a dimension arrives as the
// block from the +1 neighbor (and the reverse), even when both are the same rank (periodic
// dimensions of size 1 or 2); the blocks carry their direction in the tag, with the collective's
// number, so several neighborhood collectives in flight on one communicator never mix. On
// graphs, several edges between two ranks pair up in order.
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/nonblocking.hpp"
#include "libsimmpi/comm/comm_tags.hpp"
#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/p2p/transport.hpp"
#include "libsimmpi/topo/topo_checks.hpp"

using namespace simmpi::mpi;

namespace {

namespace ct = simmpi::runtime::call_trace;

struct Block {
  const void* buf;
  int count;
  TypeRef type;  // kept alive while a nonblocking call is pending (MPI-3.1 4.1.9)
};

// The ranks to exchange with and the arguments, checked.
struct Neighborhood {
  Communicator* comm = nullptr;
  const Topology* topo = nullptr;
  std::vector<int> in, out;
  int error = MPI_SUCCESS;
  std::uint32_t seq = 0;  // the collective's number on the communicator
};

Neighborhood neighborhood(ApiCall& call, MPI_Comm comm) {
  Neighborhood n;
  n.topo = find_topology(call, comm, 0, &n.comm, &n.error);
  if (n.topo) n.topo->neighbors(n.comm->comm_rank(call.rank), &n.in, &n.out);
  return n;
}

// The tag of block `index` (Cartesian direction, else 0) of collective `seq`: 14 bits of the
// number and 6 of the direction fit under kTagNeighbor's prefix.
int neighbor_tag(std::uint32_t seq, std::size_t index) {
  return kTagNeighbor + static_cast<int>((seq & 0x3FFFu) << 6 | (index & 63u));
}

void exchange(World& w, const Neighborhood& n, const std::vector<Block>& recvs,
              const std::vector<Block>& sends) {
  bool cart = n.topo->kind() == MPI_CART;
  std::vector<Request*> reqs;
  for (std::size_t i = 0; i < n.in.size(); ++i) {
    if (n.in[i] == MPI_PROC_NULL) continue;
    int tag = neighbor_tag(n.seq, cart ? i ^ 1 : 0);
    reqs.push_back(start_recv(w, *n.comm, Channel::Collective, n.in[i], tag,
                              const_cast<void*>(recvs[i].buf), recvs[i].count, *recvs[i].type));
  }
  for (std::size_t j = 0; j < n.out.size(); ++j) {
    if (n.out[j] == MPI_PROC_NULL) continue;
    int tag = neighbor_tag(n.seq, cart ? j : 0);
    reqs.push_back(start_send(w, *n.comm, Channel::Collective, n.out[j], tag, sends[j].buf,
                              sends[j].count, *sends[j].type, SendMode::Standard));
  }
  for (Request* r : reqs) {
    r->internal = true;
    wait_request(w, *r);
    retire_request(w, r, MPI_STATUS_IGNORE);
  }
}

const void* at(const void* base, MPI_Aint bytes) {
  return static_cast<const char*>(base) + bytes;
}

// `count` blocks of (buf + i * stride elements of type).
std::vector<Block> strided_blocks(const void* buf, std::size_t count, int n, const Datatype* t,
                                  bool same_block) {
  std::vector<Block> v;
  for (std::size_t i = 0; i < count; ++i)
    v.push_back(Block{at(buf, same_block ? 0 : static_cast<MPI_Aint>(i) * n * t->extent), n, t});
  return v;
}

std::vector<Block> displaced_blocks(const void* buf, std::size_t count, const int* counts,
                                    const int* displs, const Datatype* t) {
  std::vector<Block> v;
  for (std::size_t i = 0; i < count; ++i)
    v.push_back(Block{at(buf, static_cast<MPI_Aint>(displs[i]) * t->extent), counts[i], t});
  return v;
}

// Checks comm, its topology, and enters the collective. `counts` are checked by the caller.
bool enter(ApiCall& call, MPI_Comm comm, const char* name, Neighborhood* n, int* err) {
  CollChecks k(call, comm);
  if (!k.ok()) {
    *err = k.error();
    return false;
  }
  *n = neighborhood(call, comm);
  if (n->error) {
    *err = n->error;
    return false;
  }
  k.agree(name, -1, MPI_OP_NULL, -1);
  n->seq = k.seq();
  *err = k.error();
  return k.ok();
}

// Runs the exchange now, or for a nonblocking or persistent call (`request` set) on an
// auxiliary process. The messages read the send buffers when they leave.
int run(ApiCall& call, const Neighborhood& n, std::vector<Block> recvs, std::vector<Block> sends,
        CollRequest request) {
  CollBody body = [n, recvs = std::move(recvs), sends = std::move(sends)](CollContext& c) {
    exchange(c.world(), n, recvs, sends);
  };
  return launch_collective(call, *n.comm, n.seq, request, [body] { return body; });
}

int check_counts(ApiCall& call, MPI_Comm comm, const char* what, const int* counts,
                 const void* displs, std::size_t n) {
  if (n > 0 && (!counts || !displs))
    return call.fail(comm, MPI_ERR_ARG, "%s or its displacements are NULL", what);
  for (std::size_t i = 0; i < n; ++i)
    if (counts[i] < 0)
      return call.fail(comm, MPI_ERR_COUNT, "%s[%zu]=%d is negative", what, i, counts[i]);
  return MPI_SUCCESS;
}

int check_count(ApiCall& call, MPI_Comm comm, const char* what, int count) {
  return count < 0 ? call.fail(comm, MPI_ERR_COUNT, "%s=%d is negative", what, count) : MPI_SUCCESS;
}

// Neighbor_allgather and Neighbor_alltoall: one block of recvcount from each in-neighbor; to
// each out-neighbor the same block (allgather, `one_send_block`) or its own (alltoall).
int uniform_exchange(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                     void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     CollRequest request, bool one_send_block) {
  ApiCall call(name);
  Neighborhood n;
  int err = check_count(call, comm, "sendcount", sendcount);
  if (!err) err = check_count(call, comm, "recvcount", recvcount);
  const Datatype* st = err ? nullptr : call.datatype(sendtype, comm);
  const Datatype* rt = st ? call.datatype(recvtype, comm) : nullptr;
  if (err || !rt) return err ? err : MPI_ERR_TYPE;
  if (!enter(call, comm, name, &n, &err)) return err;
  CallRecord rec(call, one_send_block ? ct::Kind::NeighborAllgather : ct::Kind::NeighborAlltoall);
  rec.value(sendcount).type(sendtype).value(recvcount).type(recvtype).value(comm);
  rec.value(static_cast<std::int64_t>(n.in.size())).value(static_cast<std::int64_t>(n.out.size()));
  record_request(rec, request);
  return run(call, n, strided_blocks(recvbuf, n.in.size(), recvcount, rt, false),
             strided_blocks(sendbuf, n.out.size(), sendcount, st, one_send_block), request);
}

int allgather(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
              void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
              CollRequest request) {
  return uniform_exchange(name, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          request, true);
}

int allgatherv(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
               void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
               MPI_Comm comm, CollRequest request) {
  ApiCall call(name);
  Neighborhood n;
  int err = check_count(call, comm, "sendcount", sendcount);
  const Datatype* st = err ? nullptr : call.datatype(sendtype, comm);
  const Datatype* rt = st ? call.datatype(recvtype, comm) : nullptr;
  if (err || !rt) return err ? err : MPI_ERR_TYPE;
  if (!enter(call, comm, name, &n, &err)) return err;
  err = check_counts(call, comm, "recvcounts", recvcounts, displs, n.in.size());
  if (err) return err;
  CallRecord rec(call, ct::Kind::NeighborAllgatherv);
  const int in = static_cast<int>(n.in.size());
  rec.value(sendcount).type(sendtype).array(recvcounts, in).array(displs, in).type(recvtype);
  rec.value(comm);
  record_request(rec, request);
  return run(call, n, displaced_blocks(recvbuf, n.in.size(), recvcounts, displs, rt),
             strided_blocks(sendbuf, n.out.size(), sendcount, st, true), request);
}

int alltoall(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
             CollRequest request) {
  return uniform_exchange(name, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          request, false);
}

int alltoallv(const char* name, const void* sendbuf, const int sendcounts[], const int sdispls[],
              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, CollRequest request) {
  ApiCall call(name);
  Neighborhood n;
  const Datatype* st = call.datatype(sendtype, comm);
  const Datatype* rt = st ? call.datatype(recvtype, comm) : nullptr;
  if (!rt) return MPI_ERR_TYPE;
  int err = MPI_SUCCESS;
  if (!enter(call, comm, name, &n, &err)) return err;
  err = check_counts(call, comm, "sendcounts", sendcounts, sdispls, n.out.size());
  if (!err) err = check_counts(call, comm, "recvcounts", recvcounts, rdispls, n.in.size());
  if (err) return err;
  CallRecord rec(call, ct::Kind::NeighborAlltoallv);
  const int in = static_cast<int>(n.in.size()), out = static_cast<int>(n.out.size());
  rec.array(sendcounts, out).array(sdispls, out).type(sendtype);
  rec.array(recvcounts, in).array(rdispls, in).type(recvtype).value(comm);
  record_request(rec, request);
  return run(call, n, displaced_blocks(recvbuf, n.in.size(), recvcounts, rdispls, rt),
             displaced_blocks(sendbuf, n.out.size(), sendcounts, sdispls, st), request);
}

// `count` blocks of one type each at byte displacements; false after raising MPI_ERR_TYPE.
bool typed_blocks(ApiCall& call, MPI_Comm comm, const void* buf, std::size_t count,
                  const int* counts, const MPI_Aint* displs, const MPI_Datatype* types,
                  std::vector<Block>* out) {
  for (std::size_t i = 0; i < count; ++i) {
    const Datatype* t = call.datatype(types[i], comm);
    if (!t) return false;
    out->push_back(Block{at(buf, displs[i]), counts[i], t});
  }
  return true;
}

int alltoallw(const char* name, const void* sendbuf, const int sendcounts[],
              const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void* recvbuf,
              const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm, CollRequest request) {
  ApiCall call(name);
  Neighborhood n;
  int err = MPI_SUCCESS;
  if (!enter(call, comm, name, &n, &err)) return err;
  err = check_counts(call, comm, "sendcounts", sendcounts, sdispls, n.out.size());
  if (!err) err = check_counts(call, comm, "recvcounts", recvcounts, rdispls, n.in.size());
  if (err) return err;
  std::vector<Block> recvs, sends;
  if (!typed_blocks(call, comm, recvbuf, n.in.size(), recvcounts, rdispls, recvtypes, &recvs) ||
      !typed_blocks(call, comm, sendbuf, n.out.size(), sendcounts, sdispls, sendtypes, &sends))
    return MPI_ERR_TYPE;
  CallRecord rec(call, ct::Kind::NeighborAlltoallw);
  const int in = static_cast<int>(n.in.size()), out = static_cast<int>(n.out.size());
  rec.array(sendcounts, out).types(sendtypes, out).array(recvcounts, in).types(recvtypes, in);
  rec.value(comm);
  record_request(rec, request);
  return run(call, n, std::move(recvs), std::move(sends), request);
}

}  // namespace

extern "C" {

int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return allgather("MPI_Neighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, nullptr);
}

int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* request) {
  if (!request) return null_request_error("MPI_Ineighbor_allgather");
  return allgather("MPI_Ineighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, request);
}

int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm) {
  return allgatherv("MPI_Neighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                    displs, recvtype, comm, nullptr);
}

int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Ineighbor_allgatherv");
  return allgatherv("MPI_Ineighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                    displs, recvtype, comm, request);
}

int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoall("MPI_Neighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, comm, nullptr);
}

int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                           MPI_Request* request) {
  if (!request) return null_request_error("MPI_Ineighbor_alltoall");
  return alltoall("MPI_Ineighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, comm, request);
}

int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoallv("MPI_Neighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                   recvcounts, rdispls, recvtype, comm, nullptr);
}

int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* request) {
  if (!request) return null_request_error("MPI_Ineighbor_alltoallv");
  return alltoallv("MPI_Ineighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                   recvcounts, rdispls, recvtype, comm, request);
}

int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                           MPI_Comm comm) {
  return alltoallw("MPI_Neighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                   recvcounts, rdispls, recvtypes, comm, nullptr);
}

int MPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                            MPI_Request* request) {
  if (!request) return null_request_error("MPI_Ineighbor_alltoallw");
  return alltoallw("MPI_Ineighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                   recvcounts, rdispls, recvtypes, comm, request);
}

// Persistent forms (MPI-4.1 8.8). The info hints are ignored, as MPI allows.

int MPI_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                MPI_Info, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Neighbor_allgather_init");
  return allgather("MPI_Neighbor_allgather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                   recvtype, comm, CollRequest::persistent_init(request));
}

int MPI_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void* recvbuf, const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                                 MPI_Request* request) {
  if (!request) return null_request_error("MPI_Neighbor_allgatherv_init");
  return allgatherv("MPI_Neighbor_allgatherv_init", sendbuf, sendcount, sendtype, recvbuf,
                    recvcounts, displs, recvtype, comm, CollRequest::persistent_init(request));
}

int MPI_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                               void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                               MPI_Info, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Neighbor_alltoall_init");
  return alltoall("MPI_Neighbor_alltoall_init", sendbuf, sendcount, sendtype, recvbuf, recvcount,
                  recvtype, comm, CollRequest::persistent_init(request));
}

int MPI_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                                MPI_Request* request) {
  if (!request) return null_request_error("MPI_Neighbor_alltoallv_init");
  return alltoallv("MPI_Neighbor_alltoallv_init", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                   recvcounts, rdispls, recvtype, comm, CollRequest::persistent_init(request));
}

int MPI_Neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[],
                                const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info,
                                MPI_Request* request) {
  if (!request) return null_request_error("MPI_Neighbor_alltoallw_init");
  return alltoallw("MPI_Neighbor_alltoallw_init", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                   recvcounts, rdispls, recvtypes, comm, CollRequest::persistent_init(request));
}

}  // extern "C"
