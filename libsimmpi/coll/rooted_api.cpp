// SPDX-License-Identifier: Apache-2.0
// The rooted collectives: MPI_Bcast, MPI_Reduce, MPI_Gather(v), MPI_Scatter(v). Buffers of
// non-contiguous datatypes go through PackedViews (see packed_view.hpp).
#include <cstring>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/coll/packed_view.hpp"

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
  PackedView v(buffer, t, 0, count);
  if (k.rank() == root) v.load(0, count);
  bcast_binomial(c, v.data(), static_cast<std::size_t>(bytes_of(count, t)), root);
  if (k.rank() != root) v.store(0, count);
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
  bool at_root = k.rank() == root;
  PackedView in(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, t, 0, count);
  in.load(0, count);
  PackedView out(recvbuf, t, 0, at_root ? count : 0);
  reduce_binomial(c, in.data(), out.data(), count, *in.type(), op, root);
  if (at_root) out.store(0, count);
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
  PackedView sv(sendbuf, in_place ? nullptr : st, 0, sendcount);
  sv.load(0, sendcount);
  if (!at_root) {
    gatherv_linear(c, sv.data(), sbytes, nullptr, {}, {}, root);
    return MPI_SUCCESS;
  }
  ElementSpan span = span_of(recvcounts, displs, n);
  PackedView rv(recvbuf, rt, span.first, span.last);
  int own = in_place ? root : -1;  // the root's block is in place: neither sent nor stored
  if (in_place) rv.load(displs[root], recvcounts[root]);
  gatherv_linear(c, in_place ? nullptr : sv.data(), sbytes, rv.data(),
                 to_bytes(recvcounts, n, *rv.type(), false),
                 to_bytes(displs, n, *rv.type(), true), root);
  rv.store_blocks(recvcounts, displs, n, own);
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
  PackedView sv(sendbuf, in_place ? nullptr : st, 0, sendcount);
  sv.load(0, sendcount);
  if (!at_root) {
    gatherv_linear(c, sv.data(), static_cast<std::size_t>(bytes), nullptr, {}, {}, root);
    return MPI_SUCCESS;
  }
  auto block = static_cast<std::size_t>(bytes);
  PackedView rv(recvbuf, rt, 0, static_cast<std::int64_t>(n) * recvcount);
  if (in_place) rv.load(static_cast<std::int64_t>(root) * recvcount, recvcount);
  auto stride = static_cast<std::size_t>(rv.type()->extent) * static_cast<std::size_t>(recvcount);
  gatherv_linear(c, in_place ? nullptr : sv.data(), block, rv.data(), uniform(n, block),
                 strided(n, stride), root);
  rv.store(0, static_cast<std::int64_t>(n) * recvcount);
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
  PackedView rv(recvbuf, in_place ? nullptr : rt, 0, recvcount);
  if (!at_root) {
    scatterv_linear(c, nullptr, {}, {}, rv.data(), rbytes, root);
    rv.store(0, recvcount);
    return MPI_SUCCESS;
  }
  ElementSpan span = span_of(sendcounts, displs, n);
  PackedView sv(sendbuf, st, span.first, span.last);
  sv.load_blocks(sendcounts, displs, n, in_place ? root : -1);
  scatterv_linear(c, sv.data(), to_bytes(sendcounts, n, *sv.type(), false),
                  to_bytes(displs, n, *sv.type(), true), in_place ? nullptr : rv.data(), rbytes,
                  root);
  rv.store(0, recvcount);
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
  PackedView rv(recvbuf, in_place ? nullptr : rt, 0, recvcount);
  if (!at_root) {
    scatterv_linear(c, nullptr, {}, {}, rv.data(), block, root);
    rv.store(0, recvcount);
    return MPI_SUCCESS;
  }
  auto all = static_cast<std::int64_t>(n) * sendcount;
  PackedView sv(sendbuf, st, 0, all);
  sv.load(0, all);
  auto stride = static_cast<std::size_t>(sv.type()->extent) * static_cast<std::size_t>(sendcount);
  scatterv_linear(c, sv.data(), uniform(n, block), strided(n, stride),
                  in_place ? nullptr : rv.data(), block, root);
  rv.store(0, recvcount);
  return MPI_SUCCESS;
}

}  // extern "C"
