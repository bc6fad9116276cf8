// SPDX-License-Identifier: Apache-2.0
// The unrooted collectives and their nonblocking forms: MPI_(I)barrier, MPI_(I)allreduce,
// MPI_(I)allgather(v), MPI_(I)alltoall(v). Each pair shares one function that checks the
// arguments, resolves MPI_IN_PLACE and the datatypes into byte buffers, and launches the
// operation (nonblocking.hpp) as the dispatcher's call (dispatch.hpp).
#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/nonblocking.hpp"

using namespace simmpi::mpi;

namespace {

std::size_t bytes_of(int count, const Datatype* t) {
  return static_cast<std::size_t>(count) * t->size;
}

// Copies the input into the output buffer unless the call was MPI_IN_PLACE.
void take_input(const void* sendbuf, void* recvbuf, std::size_t bytes) {
  if (sendbuf != MPI_IN_PLACE && bytes) std::memmove(recvbuf, sendbuf, bytes);
}

int barrier(const char* name, MPI_Comm comm, MPI_Request* request) {
  ApiCall call(name);
  CollChecks k(call, comm);
  k.agree(name, -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  return launch_collective(call, k.comm(), k.seq(), request,
                           [](CollContext& c) { run_barrier(c); });
}

int allreduce(const char* name, const void* sendbuf, void* recvbuf, int count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  ApiCall call(name);
  const Datatype* t = nullptr;
  CollChecks k(call, comm);
  k.count(count).type(datatype, &t).op(op, t);
  if (k.ok()) k.agree(name, -1, op, static_cast<std::int64_t>(bytes_of(count, t)));
  if (!k.ok()) return k.error();
  take_input(sendbuf, recvbuf, bytes_of(count, t));
  Reduction red(op, datatype, *t);
  return launch_collective(call, k.comm(), k.seq(), request,
                           [=](CollContext& c) { run_allreduce(c, recvbuf, count, red); });
}

// Runs an allgather(v) whose blocks land at `where` in recvbuf: directly when they are packed
// in rank order there, else through a packed copy.
CollBody allgather_body(Coll which, char* recvbuf, Sizes counts, Sizes where) {
  bool packed = true;
  for (std::size_t i = 1; i < counts.size(); ++i)
    packed &= where[i] == where[i - 1] + counts[i - 1];
  if (packed) {
    return [=](CollContext& c) {
      Sizes offsets = where;
      for (std::size_t& o : offsets) o -= where[0];
      run_allgatherv(c, which, recvbuf + where[0], counts, offsets);
    };
  }
  return [=](CollContext& c) {
    Sizes offsets(counts.size());
    std::size_t total = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) offsets[i] = total, total += counts[i];
    std::vector<char> tmp(total);
    auto me = static_cast<std::size_t>(c.rank());
    if (counts[me]) std::memcpy(tmp.data() + offsets[me], recvbuf + where[me], counts[me]);
    run_allgatherv(c, which, tmp.data(), counts, offsets);
    for (std::size_t i = 0; i < counts.size(); ++i)
      if (counts[i] && i != me) std::memcpy(recvbuf + where[i], tmp.data() + offsets[i], counts[i]);
  };
}

int allgather(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
              void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
              MPI_Request* request) {
  ApiCall call(name);
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm);
  if (sendbuf != MPI_IN_PLACE) k.count(sendcount, "sendcount").type(sendtype, &st);
  k.count(recvcount, "recvcount").type(recvtype, &rt);
  if (k.ok()) k.agree(name, -1, MPI_OP_NULL, static_cast<std::int64_t>(bytes_of(recvcount, rt)));
  if (!k.ok()) return k.error();
  int n = k.comm().size();
  std::size_t block = bytes_of(recvcount, rt);
  Sizes where =
      strided(n, static_cast<std::size_t>(rt->extent) * static_cast<std::size_t>(recvcount));
  auto* out = static_cast<char*>(recvbuf);
  take_input(sendbuf, out + where[static_cast<std::size_t>(k.rank())], block);
  return launch_collective(call, k.comm(), k.seq(), request,
                           allgather_body(Coll::Allgather, out, uniform(n, block), where));
}

int allgatherv(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
               void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
               MPI_Comm comm, MPI_Request* request) {
  ApiCall call(name);
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm);
  if (sendbuf != MPI_IN_PLACE) k.count(sendcount, "sendcount").type(sendtype, &st);
  k.type(recvtype, &rt);
  if (k.ok()) k.counts(recvcounts, k.comm().size(), "recvcounts");
  if (k.ok() && !displs) return call.fail(comm, MPI_ERR_ARG, "displs is NULL");
  k.agree(name, -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  int n = k.comm().size();
  auto me = static_cast<std::size_t>(k.rank());
  Sizes counts = to_bytes(recvcounts, n, *rt, false), where = to_bytes(displs, n, *rt, true);
  auto* out = static_cast<char*>(recvbuf);
  take_input(sendbuf, out + where[me], counts[me]);
  return launch_collective(call, k.comm(), k.seq(), request,
                           allgather_body(Coll::Allgatherv, out, counts, where));
}

// Runs an all-to-all(v); with MPI_IN_PLACE the send data is a copy of the receive buffer.
CollBody alltoall_body(Coll which, bool in_place, const void* sendbuf, Sizes sc, Sizes sd,
                       void* recvbuf, Sizes rc, Sizes rd) {
  std::shared_ptr<std::vector<char>> copy;
  if (in_place) {
    std::size_t end = 0;
    for (std::size_t i = 0; i < rc.size(); ++i) end = std::max(end, rd[i] + rc[i]);
    copy = std::make_shared<std::vector<char>>(static_cast<char*>(recvbuf),
                                               static_cast<char*>(recvbuf) + end);
    sendbuf = copy->data();
    sc = rc, sd = rd;
  }
  return [=](CollContext& c) {
    run_alltoallv(c, which, in_place, sendbuf, sc, sd, recvbuf, rc, rd);
    (void)copy;  // keeps the in-place copy alive until the operation ends
  };
}

int alltoall(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
             MPI_Request* request) {
  ApiCall call(name);
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm);
  bool in_place = sendbuf == MPI_IN_PLACE;
  if (!in_place) k.count(sendcount, "sendcount").type(sendtype, &st);
  k.count(recvcount, "recvcount").type(recvtype, &rt);
  if (k.ok()) k.agree(name, -1, MPI_OP_NULL, static_cast<std::int64_t>(bytes_of(recvcount, rt)));
  if (!k.ok()) return k.error();
  int n = k.comm().size();
  std::size_t block = bytes_of(recvcount, rt);
  std::size_t sblock = in_place ? block : bytes_of(sendcount, st);
  std::size_t sstride =
      in_place ? 0 : static_cast<std::size_t>(st->extent) * static_cast<std::size_t>(sendcount);
  std::size_t rstride = static_cast<std::size_t>(rt->extent) * static_cast<std::size_t>(recvcount);
  return launch_collective(
      call, k.comm(), k.seq(), request,
      alltoall_body(Coll::Alltoall, in_place, sendbuf, uniform(n, sblock), strided(n, sstride),
                    recvbuf, uniform(n, block), strided(n, rstride)));
}

int alltoallv(const char* name, const void* sendbuf, const int sendcounts[], const int sdispls[],
              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  ApiCall call(name);
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
  k.agree(name, -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  int n = k.comm().size();
  Sizes sc, sd;
  if (!in_place) sc = to_bytes(sendcounts, n, *st, false), sd = to_bytes(sdispls, n, *st, true);
  return launch_collective(
      call, k.comm(), k.seq(), request,
      alltoall_body(Coll::Alltoallv, in_place, sendbuf, sc, sd, recvbuf,
                    to_bytes(recvcounts, n, *rt, false), to_bytes(rdispls, n, *rt, true)));
}

}  // namespace

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  return barrier("MPI_Barrier", comm, nullptr);
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Ibarrier");
  return barrier("MPI_Ibarrier", comm, request);
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm) {
  return allreduce("MPI_Allreduce", sendbuf, recvbuf, count, datatype, op, comm, nullptr);
}

int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Iallreduce");
  return allreduce("MPI_Iallreduce", sendbuf, recvbuf, count, datatype, op, comm, request);
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return allgather("MPI_Allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, nullptr);
}

int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Iallgather");
  return allgather("MPI_Iallgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, request);
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm) {
  return allgatherv("MPI_Allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                    recvtype, comm, nullptr);
}

int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Iallgatherv");
  return allgatherv("MPI_Iallgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                    recvtype, comm, request);
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoall("MPI_Alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                  nullptr);
}

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Ialltoall");
  return alltoall("MPI_Ialltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                  request);
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  return alltoallv("MPI_Alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                   rdispls, recvtype, comm, nullptr);
}

int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                   MPI_Request* request) {
  if (!request) return null_request_error("MPI_Ialltoallv");
  return alltoallv("MPI_Ialltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                   rdispls, recvtype, comm, request);
}

}  // extern "C"
