// SPDX-License-Identifier: Apache-2.0
// The unrooted collectives: MPI_Barrier, MPI_Allreduce, MPI_Allgather(v), MPI_Alltoall(v),
// MPI_Reduce_scatter(_block), MPI_Scan, MPI_Exscan. Buffers of non-contiguous datatypes go
// through PackedViews (see packed_view.hpp).
#include <cstring>
#include <numeric>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/coll/packed_view.hpp"

using namespace simmpi::mpi;

namespace {

std::size_t bytes_of(int count, const Datatype* t) {
  return static_cast<std::size_t>(count) * t->size;
}

// Reduction of everyone's `total` elements, then each rank keeps its slice (counts[i] elements
// at the running offset). `input` holds all `total` elements of this rank.
void reduce_then_scatter(CollContext& c, const void* input, void* recvbuf, const int* counts,
                         const Datatype& t, MPI_Op op) {
  int n = c.size();
  int total = std::accumulate(counts, counts + n, 0);
  std::vector<char> all(bytes_of(total, &t));
  reduce_binomial(c, input, all.data(), total, t, op, 0);
  scatterv_linear(c, all.data(), to_bytes(counts, n, t, false),
                  [&] {
                    std::vector<std::size_t> d(static_cast<std::size_t>(n));
                    std::size_t off = 0;
                    for (int i = 0; i < n; ++i) d[static_cast<std::size_t>(i)] = off, off += bytes_of(counts[i], &t);
                    return d;
                  }(),
                  recvbuf, bytes_of(counts[c.rank()], &t), 0);
}

}  // namespace

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  ApiCall call("MPI_Barrier");
  CollChecks k(call, comm);
  k.agree("MPI_Barrier", -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  CollContext c(call.world, k.comm());
  barrier_dissemination(c);
  return MPI_SUCCESS;
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm) {
  ApiCall call("MPI_Allreduce");
  const Datatype* t = nullptr;
  CollChecks k(call, comm);
  k.count(count).type(datatype, &t).op(op, t);
  if (k.ok()) k.agree("MPI_Allreduce", -1, op, static_cast<std::int64_t>(bytes_of(count, t)));
  if (!k.ok()) return k.error();
  PackedView v(recvbuf, t, 0, count);
  v.load_from(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, 0, count);
  CollContext c(call.world, k.comm());
  allreduce_recursive_doubling(c, v.data(), count, *v.type(), op);
  v.store(0, count);
  return MPI_SUCCESS;
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  ApiCall call("MPI_Allgather");
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm);
  bool in_place = sendbuf == MPI_IN_PLACE;
  if (!in_place) k.count(sendcount, "sendcount").type(sendtype, &st);
  k.count(recvcount, "recvcount").type(recvtype, &rt);
  if (k.ok()) k.agree("MPI_Allgather", -1, MPI_OP_NULL, static_cast<std::int64_t>(bytes_of(recvcount, rt)));
  if (!k.ok()) return k.error();
  std::size_t block = bytes_of(recvcount, rt);
  std::int64_t all = static_cast<std::int64_t>(k.comm().size()) * recvcount;
  PackedView rv(recvbuf, rt, 0, all);
  if (in_place) {
    rv.load(static_cast<std::int64_t>(k.rank()) * recvcount, recvcount);
  } else {
    PackedView sv(sendbuf, st, 0, sendcount);
    sv.load(0, sendcount);
    char* own = rv.data() + block * static_cast<std::size_t>(k.rank());
    if (block) std::memmove(own, sv.data(), block);
  }
  CollContext c(call.world, k.comm());
  allgather_bruck(c, rv.data(), block);
  rv.store(0, all);
  return MPI_SUCCESS;
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm) {
  ApiCall call("MPI_Allgatherv");
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm);
  bool in_place = sendbuf == MPI_IN_PLACE;
  if (!in_place) k.count(sendcount, "sendcount").type(sendtype, &st);
  k.type(recvtype, &rt);
  if (k.ok()) k.counts(recvcounts, k.comm().size(), "recvcounts");
  if (k.ok() && !displs) return call.fail(comm, MPI_ERR_ARG, "displs is NULL");
  k.agree("MPI_Allgatherv", -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  // Gather everything packed at rank 0, broadcast the packed blocks, unpack at the displacements
  // (a rank's bytes outside its blocks are never written).
  int n = k.comm().size(), r = k.rank();
  ElementSpan span = span_of(recvcounts, displs, n);
  PackedView rv(recvbuf, rt, span.first, span.last);
  if (in_place) rv.load(displs[r], recvcounts[r]);
  PackedView sv(sendbuf, in_place ? nullptr : st, 0, sendcount);
  sv.load(0, sendcount);
  std::vector<std::size_t> counts = to_bytes(recvcounts, n, *rv.type(), false);
  std::vector<std::size_t> offsets(static_cast<std::size_t>(n));
  std::size_t total = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) offsets[i] = total, total += counts[i];
  char* out = rv.data();
  std::vector<std::size_t> where = to_bytes(displs, n, *rv.type(), true);
  const void* mine = in_place ? out + where[static_cast<std::size_t>(r)] : sv.data();
  std::vector<char> packed(total);
  CollContext c(call.world, k.comm());
  gatherv_linear(c, mine, counts[static_cast<std::size_t>(r)], packed.data(), counts, offsets, 0);
  bcast_binomial(c, packed.data(), total, 0);
  for (int i = 0; i < n; ++i) {
    auto u = static_cast<std::size_t>(i);
    if (counts[u] && !(in_place && i == r)) std::memcpy(out + where[u], packed.data() + offsets[u], counts[u]);
  }
  rv.store_blocks(recvcounts, displs, n, in_place ? r : -1);
  return MPI_SUCCESS;
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  ApiCall call("MPI_Alltoall");
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm);
  bool in_place = sendbuf == MPI_IN_PLACE;
  if (!in_place) k.count(sendcount, "sendcount").type(sendtype, &st);
  k.count(recvcount, "recvcount").type(recvtype, &rt);
  if (k.ok()) k.agree("MPI_Alltoall", -1, MPI_OP_NULL, static_cast<std::int64_t>(bytes_of(recvcount, rt)));
  if (!k.ok()) return k.error();
  int n = k.comm().size();
  std::size_t block = bytes_of(recvcount, rt);
  std::int64_t all = static_cast<std::int64_t>(n) * recvcount;
  PackedView rv(recvbuf, rt, 0, all);
  PackedView sv(sendbuf, in_place ? nullptr : st, 0, static_cast<std::int64_t>(n) * sendcount);
  sv.load(0, static_cast<std::int64_t>(n) * sendcount);
  std::vector<char> copy;
  if (in_place) {  // the send data is the receive buffer: work from a copy
    rv.load(0, all);
    copy.assign(rv.data(), rv.data() + block * static_cast<std::size_t>(n));
    sendbuf = copy.data();
  } else {
    sendbuf = sv.data();
  }
  std::size_t sblock = in_place ? block : bytes_of(sendcount, st);
  CollContext c(call.world, k.comm());
  alltoallv_pairwise(c, sendbuf, uniform(n, sblock), strided(n, sblock), rv.data(),
                     uniform(n, block), strided(n, block));
  rv.store(0, all);
  return MPI_SUCCESS;
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  ApiCall call("MPI_Alltoallv");
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm);
  bool in_place = sendbuf == MPI_IN_PLACE;
  k.type(recvtype, &rt);
  if (k.ok()) k.counts(recvcounts, k.comm().size(), "recvcounts");
  if (!in_place) {
    k.type(sendtype, &st);
    if (k.ok()) k.counts(sendcounts, k.comm().size(), "sendcounts");
  }
  if (k.ok() && (!rdispls || (!in_place && !sdispls)))
    return call.fail(comm, MPI_ERR_ARG, "a displacement array is NULL");
  k.agree("MPI_Alltoallv", -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  int n = k.comm().size();
  ElementSpan rspan = span_of(recvcounts, rdispls, n);
  PackedView rv(recvbuf, rt, rspan.first, rspan.last);
  std::vector<std::size_t> rc = to_bytes(recvcounts, n, *rv.type(), false),
                           rd = to_bytes(rdispls, n, *rv.type(), true);
  std::vector<char> copy;
  std::vector<std::size_t> sc = rc, sd = rd;
  ElementSpan sspan = in_place ? ElementSpan{} : span_of(sendcounts, sdispls, n);
  PackedView sv(sendbuf, in_place ? nullptr : st, sspan.first, sspan.last);
  if (in_place) {
    rv.load_blocks(recvcounts, rdispls, n);
    std::size_t end = 0;
    for (int i = 0; i < n; ++i) end = std::max(end, rd[static_cast<std::size_t>(i)] + rc[static_cast<std::size_t>(i)]);
    copy.assign(rv.data(), rv.data() + end);
    sendbuf = copy.data();
  } else {
    sv.load_blocks(sendcounts, sdispls, n);
    sc = to_bytes(sendcounts, n, *sv.type(), false);
    sd = to_bytes(sdispls, n, *sv.type(), true);
    sendbuf = sv.data();
  }
  CollContext c(call.world, k.comm());
  alltoallv_pairwise(c, sendbuf, sc, sd, rv.data(), rc, rd);
  rv.store_blocks(recvcounts, rdispls, n);
  return MPI_SUCCESS;
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  ApiCall call("MPI_Reduce_scatter");
  const Datatype* t = nullptr;
  CollChecks k(call, comm);
  k.type(datatype, &t).op(op, t);
  if (k.ok()) k.counts(recvcounts, k.comm().size(), "recvcounts");
  k.agree("MPI_Reduce_scatter", -1, op, -1);
  if (!k.ok()) return k.error();
  CollContext c(call.world, k.comm());
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  int total = std::accumulate(recvcounts, recvcounts + k.comm().size(), 0);
  PackedView in(input, t, 0, total, PackedView::Copy::Always);  // recvbuf may be the input
  in.load(0, total);
  PackedView out(recvbuf, t, 0, recvcounts[k.rank()]);
  reduce_then_scatter(c, in.data(), out.data(), recvcounts, *in.type(), op);
  out.store(0, recvcounts[k.rank()]);
  return MPI_SUCCESS;
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  ApiCall call("MPI_Reduce_scatter_block");
  const Datatype* t = nullptr;
  CollChecks k(call, comm);
  k.count(recvcount, "recvcount").type(datatype, &t).op(op, t);
  if (k.ok()) k.agree("MPI_Reduce_scatter_block", -1, op, static_cast<std::int64_t>(bytes_of(recvcount, t)));
  if (!k.ok()) return k.error();
  int n = k.comm().size();
  std::vector<int> counts(static_cast<std::size_t>(n), recvcount);
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  PackedView in(input, t, 0, static_cast<std::int64_t>(recvcount) * n, PackedView::Copy::Always);
  in.load(0, static_cast<std::int64_t>(recvcount) * n);
  PackedView out(recvbuf, t, 0, recvcount);
  CollContext c(call.world, k.comm());
  reduce_then_scatter(c, in.data(), out.data(), counts.data(), *in.type(), op);
  out.store(0, recvcount);
  return MPI_SUCCESS;
}

static int scan(const char* name, bool exclusive, const void* sendbuf, void* recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  ApiCall call(name);
  const Datatype* t = nullptr;
  CollChecks k(call, comm);
  k.count(count).type(datatype, &t).op(op, t);
  if (k.ok()) k.agree(name, -1, op, static_cast<std::int64_t>(bytes_of(count, t)));
  if (!k.ok()) return k.error();
  // The scan runs on a private copy of this rank's input; the exclusive result of rank 0 is
  // undefined, and its recvbuf is left untouched.
  PackedView v(recvbuf, t, 0, count, PackedView::Copy::Always);
  v.load_from(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, 0, count);
  CollContext c(call.world, k.comm());
  scan_recursive_doubling(c, v.data(), count, *v.type(), op, exclusive);
  if (!exclusive || k.rank() != 0) v.store(0, count);
  return MPI_SUCCESS;
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm) {
  return scan("MPI_Scan", false, sendbuf, recvbuf, count, datatype, op, comm);
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm) {
  return scan("MPI_Exscan", true, sendbuf, recvbuf, count, datatype, op, comm);
}

}  // extern "C"
