// SPDX-License-Identifier: Apache-2.0
// The rooted collectives: MPI_Bcast, MPI_Reduce, MPI_Gather(v), MPI_Scatter(v).
#include <cstring>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/coll_context.hpp"

using namespace simmpi::mpi;

namespace {
std::int64_t bytes_of(int count, const Datatype* t) {
  return static_cast<std::int64_t>(count) * static_cast<std::int64_t>(t->size);
}
}  // namespace

extern "C" {

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  ApiCall call("MPI_Bcast");
  const Datatype* t = nullptr;
  CollChecks k(call, comm);
  k.root(root).count(count).type(datatype, &t);
  if (k.ok()) k.agree("MPI_Bcast", root, MPI_OP_NULL, bytes_of(count, t));
  if (!k.ok()) return k.error();
  CollContext c(call.world, k.comm());
  bcast_binomial(c, buffer, static_cast<std::size_t>(bytes_of(count, t)), root);
  return MPI_SUCCESS;
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm) {
  ApiCall call("MPI_Reduce");
  const Datatype* t = nullptr;
  CollChecks k(call, comm);
  k.root(root).count(count).type(datatype, &t).op(op, t);
  if (k.ok() && sendbuf == MPI_IN_PLACE && k.rank() != root)
    return call.fail(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
  if (k.ok()) k.agree("MPI_Reduce", root, op, bytes_of(count, t));
  if (!k.ok()) return k.error();
  CollContext c(call.world, k.comm());
  const void* in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  reduce_binomial(c, in, recvbuf, count, *t, op, root);
  return MPI_SUCCESS;
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  ApiCall call("MPI_Gatherv");
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm);
  k.root(root);
  bool at_root = k.ok() && k.rank() == root;
  bool in_place = at_root && sendbuf == MPI_IN_PLACE;
  if (!in_place) k.count(sendcount, "sendcount").type(sendtype, &st);
  if (at_root) {
    k.type(recvtype, &rt).counts(recvcounts, k.comm().size(), "recvcounts");
    if (k.ok() && !displs) return call.fail(comm, MPI_ERR_ARG, "displs is NULL");
  }
  k.agree("MPI_Gatherv", root, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  CollContext c(call.world, k.comm());
  int n = k.comm().size();
  std::size_t sbytes = in_place ? 0 : static_cast<std::size_t>(bytes_of(sendcount, st));
  if (!at_root) {
    gatherv_linear(c, sendbuf, sbytes, nullptr, {}, {}, root);
    return MPI_SUCCESS;
  }
  gatherv_linear(c, in_place ? nullptr : sendbuf, sbytes, recvbuf,
                 to_bytes(recvcounts, n, *rt, false), to_bytes(displs, n, *rt, true), root);
  return MPI_SUCCESS;
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  ApiCall call("MPI_Gather");
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm);
  k.root(root);
  bool at_root = k.ok() && k.rank() == root;
  bool in_place = at_root && sendbuf == MPI_IN_PLACE;
  if (!in_place) k.count(sendcount, "sendcount").type(sendtype, &st);
  if (at_root) k.count(recvcount, "recvcount").type(recvtype, &rt);
  std::int64_t bytes = -1;
  if (k.ok()) bytes = at_root ? bytes_of(recvcount, rt) : bytes_of(sendcount, st);
  k.agree("MPI_Gather", root, MPI_OP_NULL, bytes);
  if (!k.ok()) return k.error();
  CollContext c(call.world, k.comm());
  int n = k.comm().size();
  if (!at_root) {
    gatherv_linear(c, sendbuf, static_cast<std::size_t>(bytes), nullptr, {}, {}, root);
    return MPI_SUCCESS;
  }
  auto block = static_cast<std::size_t>(bytes);
  gatherv_linear(c, in_place ? nullptr : sendbuf, block, recvbuf, uniform(n, block),
                 strided(n, static_cast<std::size_t>(rt->extent) * static_cast<std::size_t>(recvcount)),
                 root);
  return MPI_SUCCESS;
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm) {
  ApiCall call("MPI_Scatterv");
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm);
  k.root(root);
  bool at_root = k.ok() && k.rank() == root;
  bool in_place = at_root && recvbuf == MPI_IN_PLACE;
  if (!in_place) k.count(recvcount, "recvcount").type(recvtype, &rt);
  if (at_root) {
    k.type(sendtype, &st).counts(sendcounts, k.comm().size(), "sendcounts");
    if (k.ok() && !displs) return call.fail(comm, MPI_ERR_ARG, "displs is NULL");
  }
  k.agree("MPI_Scatterv", root, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  CollContext c(call.world, k.comm());
  int n = k.comm().size();
  std::size_t rbytes = in_place ? 0 : static_cast<std::size_t>(bytes_of(recvcount, rt));
  if (!at_root) {
    scatterv_linear(c, nullptr, {}, {}, recvbuf, rbytes, root);
    return MPI_SUCCESS;
  }
  scatterv_linear(c, sendbuf, to_bytes(sendcounts, n, *st, false), to_bytes(displs, n, *st, true),
                  in_place ? nullptr : recvbuf, rbytes, root);
  return MPI_SUCCESS;
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  ApiCall call("MPI_Scatter");
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm);
  k.root(root);
  bool at_root = k.ok() && k.rank() == root;
  bool in_place = at_root && recvbuf == MPI_IN_PLACE;
  if (!in_place) k.count(recvcount, "recvcount").type(recvtype, &rt);
  if (at_root) k.count(sendcount, "sendcount").type(sendtype, &st);
  std::int64_t bytes = -1;
  if (k.ok()) bytes = at_root ? bytes_of(sendcount, st) : bytes_of(recvcount, rt);
  k.agree("MPI_Scatter", root, MPI_OP_NULL, bytes);
  if (!k.ok()) return k.error();
  CollContext c(call.world, k.comm());
  int n = k.comm().size();
  auto block = static_cast<std::size_t>(bytes);
  if (!at_root) {
    scatterv_linear(c, nullptr, {}, {}, recvbuf, block, root);
    return MPI_SUCCESS;
  }
  scatterv_linear(c, sendbuf, uniform(n, block),
                  strided(n, static_cast<std::size_t>(st->extent) * static_cast<std::size_t>(sendcount)),
                  in_place ? nullptr : recvbuf, block, root);
  return MPI_SUCCESS;
}

}  // extern "C"
