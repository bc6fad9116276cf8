// SPDX-License-Identifier: Apache-2.0
// The unrooted collectives: MPI_Barrier, MPI_Allreduce, MPI_Allgather(v), MPI_Alltoall(v),
// MPI_Reduce_scatter(_block), MPI_Scan, MPI_Exscan.
#include <cstring>
#include <numeric>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/coll_context.hpp"

using namespace simmpi::mpi;

namespace {

std::size_t bytes_of(int count, const Datatype* t) {
  return static_cast<std::size_t>(count) * t->size;
}

// Copies the input into the output buffer unless the call was MPI_IN_PLACE.
void take_input(const void* sendbuf, void* recvbuf, std::size_t bytes) {
  if (sendbuf != MPI_IN_PLACE && bytes) std::memmove(recvbuf, sendbuf, bytes);
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
  take_input(sendbuf, recvbuf, bytes_of(count, t));
  CollContext c(call.world, k.comm());
  allreduce_recursive_doubling(c, recvbuf, count, *t, op);
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
  auto* own = static_cast<char*>(recvbuf) + block * static_cast<std::size_t>(k.rank());
  take_input(sendbuf, own, block);
  CollContext c(call.world, k.comm());
  allgather_bruck(c, recvbuf, block);
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
  std::vector<std::size_t> counts = to_bytes(recvcounts, n, *rt, false);
  std::vector<std::size_t> offsets(static_cast<std::size_t>(n));
  std::size_t total = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) offsets[i] = total, total += counts[i];
  auto* out = static_cast<char*>(recvbuf);
  std::vector<std::size_t> where = to_bytes(displs, n, *rt, true);
  const void* mine = in_place ? out + where[static_cast<std::size_t>(r)] : sendbuf;
  std::vector<char> packed(total);
  CollContext c(call.world, k.comm());
  gatherv_linear(c, mine, counts[static_cast<std::size_t>(r)], packed.data(), counts, offsets, 0);
  bcast_binomial(c, packed.data(), total, 0);
  for (int i = 0; i < n; ++i) {
    auto u = static_cast<std::size_t>(i);
    if (counts[u] && !(in_place && i == r)) std::memcpy(out + where[u], packed.data() + offsets[u], counts[u]);
  }
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
  std::vector<char> copy;
  if (in_place) {  // the send data is the receive buffer: work from a copy
    copy.assign(static_cast<char*>(recvbuf), static_cast<char*>(recvbuf) + block * static_cast<std::size_t>(n));
    sendbuf = copy.data();
  }
  std::size_t sblock = in_place ? block : bytes_of(sendcount, st);
  CollContext c(call.world, k.comm());
  alltoallv_pairwise(c, sendbuf, uniform(n, sblock), strided(n, sblock), recvbuf, uniform(n, block),
                     strided(n, block));
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
  std::vector<std::size_t> rc = to_bytes(recvcounts, n, *rt, false), rd = to_bytes(rdispls, n, *rt, true);
  std::vector<char> copy;
  std::vector<std::size_t> sc = rc, sd = rd;
  if (in_place) {
    std::size_t end = 0;
    for (int i = 0; i < n; ++i) end = std::max(end, rd[static_cast<std::size_t>(i)] + rc[static_cast<std::size_t>(i)]);
    copy.assign(static_cast<char*>(recvbuf), static_cast<char*>(recvbuf) + end);
    sendbuf = copy.data();
  } else {
    sc = to_bytes(sendcounts, n, *st, false);
    sd = to_bytes(sdispls, n, *st, true);
  }
  CollContext c(call.world, k.comm());
  alltoallv_pairwise(c, sendbuf, sc, sd, recvbuf, rc, rd);
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
  std::vector<char> in(static_cast<const char*>(input), static_cast<const char*>(input) + bytes_of(total, t));
  reduce_then_scatter(c, in.data(), recvbuf, recvcounts, *t, op);
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
  std::vector<char> in(static_cast<const char*>(input),
                       static_cast<const char*>(input) + bytes_of(recvcount * n, t));
  CollContext c(call.world, k.comm());
  reduce_then_scatter(c, in.data(), recvbuf, counts.data(), *t, op);
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
  std::size_t bytes = bytes_of(count, t);
  std::vector<char> mine(bytes);
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  if (bytes) std::memcpy(mine.data(), input, bytes);
  CollContext c(call.world, k.comm());
  if (!exclusive) {
    scan_recursive_doubling(c, mine.data(), count, *t, op, false);
    if (bytes) std::memcpy(recvbuf, mine.data(), bytes);
  } else {
    // The exclusive result goes straight into recvbuf; rank 0's stays untouched (undefined).
    std::vector<char> out(static_cast<char*>(recvbuf), static_cast<char*>(recvbuf) + bytes);
    if (bytes) std::memcpy(out.data(), mine.data(), bytes);
    scan_recursive_doubling(c, out.data(), count, *t, op, true);
    if (bytes && k.rank() != 0) std::memcpy(recvbuf, out.data(), bytes);
  }
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
