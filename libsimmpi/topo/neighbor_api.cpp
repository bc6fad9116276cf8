// SPDX-License-Identifier: Apache-2.0
// Neighborhood collectives (MPI-3.1 7.6), blocking: MPI_Neighbor_allgather(v) and
// MPI_Neighbor_alltoall(v,w). As MPICH does by default, every rank posts one receive per
// in-neighbor and one send per out-neighbor, then waits for all, so they cost what those
// messages cost. On a Cartesian topology the block a rank sends to its -1 neighbor along a
// dimension arrives as the block from the +1 neighbor (and the reverse), even when both are the
// same rank (periodic dimensions of size 1 or 2); the blocks carry their direction in the tag.
// On graphs, several edges between two ranks pair up in order.
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/comm/comm_tags.hpp"
#include "libsimmpi/p2p/transport.hpp"
#include "libsimmpi/topo/topo_checks.hpp"

using namespace simmpi::mpi;

namespace {

struct Block {
  const void* buf;
  int count;
  const Datatype* type;
};

// The ranks to exchange with and the arguments, checked.
struct Neighborhood {
  Communicator* comm = nullptr;
  const Topology* topo = nullptr;
  std::vector<int> in, out;
  int error = MPI_SUCCESS;
};

Neighborhood neighborhood(ApiCall& call, MPI_Comm comm) {
  Neighborhood n;
  n.topo = find_topology(call, comm, 0, &n.comm, &n.error);
  if (n.topo) n.topo->neighbors(n.comm->comm_rank(call.rank), &n.in, &n.out);
  return n;
}

void exchange(World& w, Neighborhood& n, const std::vector<Block>& recvs,
              const std::vector<Block>& sends) {
  bool cart = n.topo->kind() == MPI_CART;
  std::vector<Request*> reqs;
  for (std::size_t i = 0; i < n.in.size(); ++i) {
    if (n.in[i] == MPI_PROC_NULL) continue;
    int tag = kTagNeighbor + (cart ? static_cast<int>(i ^ 1) : 0);
    reqs.push_back(start_recv(w, *n.comm, Channel::Collective, n.in[i], tag,
                              const_cast<void*>(recvs[i].buf), recvs[i].count, *recvs[i].type));
  }
  for (std::size_t j = 0; j < n.out.size(); ++j) {
    if (n.out[j] == MPI_PROC_NULL) continue;
    int tag = kTagNeighbor + (cart ? static_cast<int>(j) : 0);
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
  *err = k.error();
  return k.ok();
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

}  // namespace

extern "C" {

int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  ApiCall call("MPI_Neighbor_allgather");
  Neighborhood n;
  int err = check_count(call, comm, "sendcount", sendcount);
  if (!err) err = check_count(call, comm, "recvcount", recvcount);
  const Datatype* st = err ? nullptr : call.datatype(sendtype, comm);
  const Datatype* rt = st ? call.datatype(recvtype, comm) : nullptr;
  if (err || !rt) return err ? err : MPI_ERR_TYPE;
  if (!enter(call, comm, "MPI_Neighbor_allgather", &n, &err)) return err;
  exchange(call.world, n, strided_blocks(recvbuf, n.in.size(), recvcount, rt, false),
           strided_blocks(sendbuf, n.out.size(), sendcount, st, true));
  return MPI_SUCCESS;
}

int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm) {
  ApiCall call("MPI_Neighbor_allgatherv");
  Neighborhood n;
  int err = check_count(call, comm, "sendcount", sendcount);
  const Datatype* st = err ? nullptr : call.datatype(sendtype, comm);
  const Datatype* rt = st ? call.datatype(recvtype, comm) : nullptr;
  if (err || !rt) return err ? err : MPI_ERR_TYPE;
  if (!enter(call, comm, "MPI_Neighbor_allgatherv", &n, &err)) return err;
  err = check_counts(call, comm, "recvcounts", recvcounts, displs, n.in.size());
  if (err) return err;
  exchange(call.world, n, displaced_blocks(recvbuf, n.in.size(), recvcounts, displs, rt),
           strided_blocks(sendbuf, n.out.size(), sendcount, st, true));
  return MPI_SUCCESS;
}

int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  ApiCall call("MPI_Neighbor_alltoall");
  Neighborhood n;
  int err = check_count(call, comm, "sendcount", sendcount);
  if (!err) err = check_count(call, comm, "recvcount", recvcount);
  const Datatype* st = err ? nullptr : call.datatype(sendtype, comm);
  const Datatype* rt = st ? call.datatype(recvtype, comm) : nullptr;
  if (err || !rt) return err ? err : MPI_ERR_TYPE;
  if (!enter(call, comm, "MPI_Neighbor_alltoall", &n, &err)) return err;
  exchange(call.world, n, strided_blocks(recvbuf, n.in.size(), recvcount, rt, false),
           strided_blocks(sendbuf, n.out.size(), sendcount, st, false));
  return MPI_SUCCESS;
}

int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  ApiCall call("MPI_Neighbor_alltoallv");
  Neighborhood n;
  const Datatype* st = call.datatype(sendtype, comm);
  const Datatype* rt = st ? call.datatype(recvtype, comm) : nullptr;
  if (!rt) return MPI_ERR_TYPE;
  int err = MPI_SUCCESS;
  if (!enter(call, comm, "MPI_Neighbor_alltoallv", &n, &err)) return err;
  err = check_counts(call, comm, "sendcounts", sendcounts, sdispls, n.out.size());
  if (!err) err = check_counts(call, comm, "recvcounts", recvcounts, rdispls, n.in.size());
  if (err) return err;
  exchange(call.world, n, displaced_blocks(recvbuf, n.in.size(), recvcounts, rdispls, rt),
           displaced_blocks(sendbuf, n.out.size(), sendcounts, sdispls, st));
  return MPI_SUCCESS;
}

int MPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                           MPI_Comm comm) {
  ApiCall call("MPI_Neighbor_alltoallw");
  Neighborhood n;
  int err = MPI_SUCCESS;
  if (!enter(call, comm, "MPI_Neighbor_alltoallw", &n, &err)) return err;
  err = check_counts(call, comm, "sendcounts", sendcounts, sdispls, n.out.size());
  if (!err) err = check_counts(call, comm, "recvcounts", recvcounts, rdispls, n.in.size());
  if (err) return err;
  std::vector<Block> recvs, sends;
  for (std::size_t i = 0; i < n.in.size(); ++i) {
    const Datatype* t = call.datatype(recvtypes[i], comm);
    if (!t) return MPI_ERR_TYPE;
    recvs.push_back(Block{at(recvbuf, rdispls[i]), recvcounts[i], t});
  }
  for (std::size_t j = 0; j < n.out.size(); ++j) {
    const Datatype* t = call.datatype(sendtypes[j], comm);
    if (!t) return MPI_ERR_TYPE;
    sends.push_back(Block{at(sendbuf, sdispls[j]), sendcounts[j], t});
  }
  exchange(call.world, n, recvs, sends);
  return MPI_SUCCESS;
}

}  // extern "C"
