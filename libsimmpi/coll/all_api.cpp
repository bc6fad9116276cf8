// SPDX-License-Identifier: Apache-2.0
// The unrooted collectives and their nonblocking and persistent forms: MPI_(I)barrier(_init),
// MPI_(I)allreduce(_init), MPI_(I)allgather(v)(_init), MPI_(I)alltoall(v)(_init). Each family
// shares one function that checks the arguments, resolves MPI_IN_PLACE and the datatypes into
// byte buffers, and launches the operation (nonblocking.hpp) as the dispatcher's call
// (dispatch.hpp). Buffers of non-contiguous types go through PackedViews (packed_view.hpp),
// loaded when the operation starts (at the call, or at each MPI_Start) and stored at the end.
#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/intercomm_algorithms.hpp"
#include "libsimmpi/coll/nonblocking.hpp"
#include "libsimmpi/coll/packed_view.hpp"
#include "libsimmpi/core/call_record.hpp"

using namespace simmpi::mpi;

namespace {

std::size_t bytes_of(int count, const Datatype* t) {
  return static_cast<std::size_t>(count) * t->size;
}

int barrier(const char* name, MPI_Comm comm, CollRequest request) {
  ApiCall call(name);
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.agree(name, -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Barrier);
  rec.value(comm);
  record_request(rec, request);
  return launch_collective(call, k.comm(), k.seq(), request,
                           [] { return CollBody([](CollContext& c) { run_barrier(c); }); });
}

int allreduce(const char* name, const void* sendbuf, void* recvbuf, int count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, CollRequest request) {
  ApiCall call(name);
  const Datatype* t = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.count(count)
      .type(datatype, &t)
      .op(op, t)
      .no_in_place_on_inter(sendbuf == MPI_IN_PLACE, "sendbuf");
  if (k.ok()) k.agree(name, -1, op, static_cast<std::int64_t>(bytes_of(count, t)));
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Allreduce);
  rec.value(sendbuf == MPI_IN_PLACE).value(count).type(datatype).op(op).value(comm);
  record_request(rec, request);
  auto v = std::make_shared<PackedView>(recvbuf, t, 0, count);
  Reduction red(op, datatype, *v->type(), t);
  TypeRef keep(t);
  return launch_collective(call, k.comm(), k.seq(), request, [=] {
    v->load_from(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, 0, count);
    return CollBody([=](CollContext& c) {
      run_allreduce(c, v->data(), count, red);
      v->store(0, count);
      (void)keep;
    });
  });
}

// Runs an allgather(v) whose blocks land at `where` in recvbuf: directly when they are packed
// in rank order there, else through a packed copy. `finish` runs at the end (it stores a
// PackedView back into the user's buffer).
CollBody allgather_body(Coll which, char* recvbuf, Sizes counts, Sizes where,
                        std::function<void()> finish) {
  bool packed = true;
  for (std::size_t i = 1; i < counts.size(); ++i)
    packed &= where[i] == where[i - 1] + counts[i - 1];
  if (packed) {
    return [=](CollContext& c) {
      Sizes offsets = where;
      for (std::size_t& o : offsets) o -= where[0];
      run_allgatherv(c, which, recvbuf + where[0], counts, offsets);
      finish();
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
    finish();
  };
}

// An allgather(v) on an intercommunicator: this member's block goes out from sendbuf, and the
// other group's blocks (rc[i] elements at dp[i]) come into recvbuf.
int launch_inter_allgather(ApiCall& call, CollChecks& k, Coll which, const void* sendbuf,
                           int sendcount, const Datatype* st, void* recvbuf, std::vector<int> rc,
                           std::vector<int> dp, const Datatype* rt, CollRequest request) {
  int n = static_cast<int>(rc.size());
  ElementSpan span = span_of(rc.data(), dp.data(), n);
  auto rv = std::make_shared<PackedView>(recvbuf, rt, span.first, span.last);
  Sizes counts = to_bytes(rc.data(), n, *rv->type(), false);
  Sizes where = to_bytes(dp.data(), n, *rv->type(), true);
  std::size_t sbytes = bytes_of(sendcount, st);
  auto sv = std::make_shared<PackedView>(sendbuf, st, 0, sendcount);
  TypeRef keep(rt), keep_send(st);
  return launch_collective(call, k.comm(), k.seq(), request, [=] {
    sv->load(0, sendcount);
    return CollBody([=](CollContext& c) {
      inter_allgatherv(c, which, sv->data(), sbytes, rv->data(), counts, where);
      rv->store_blocks(rc.data(), dp.data(), n);
      (void)keep, (void)keep_send;
    });
  });
}

int allgather(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
              void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
              CollRequest request) {
  ApiCall call(name);
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.no_in_place_on_inter(sendbuf == MPI_IN_PLACE, "sendbuf");
  if (sendbuf != MPI_IN_PLACE) k.count(sendcount, "sendcount").type(sendtype, &st);
  k.count(recvcount, "recvcount").type(recvtype, &rt);
  if (k.ok()) k.agree(name, -1, MPI_OP_NULL, static_cast<std::int64_t>(bytes_of(recvcount, rt)));
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Allgather);
  rec.value(sendbuf == MPI_IN_PLACE).value(sendcount).type(sendtype).value(recvcount);
  rec.type(recvtype).value(comm);
  record_request(rec, request);
  int n = k.peers();
  if (k.is_inter()) {
    std::vector<int> rc(static_cast<std::size_t>(n), recvcount), dp(rc.size());
    for (std::size_t i = 0; i < dp.size(); ++i) dp[i] = static_cast<int>(i) * recvcount;
    return launch_inter_allgather(call, k, Coll::Allgather, sendbuf, sendcount, st, recvbuf, rc, dp,
                                  rt, request);
  }
  std::size_t block = bytes_of(recvcount, rt);
  std::int64_t all = static_cast<std::int64_t>(n) * recvcount;
  std::int64_t mine = static_cast<std::int64_t>(k.rank()) * recvcount;
  auto rv = std::make_shared<PackedView>(recvbuf, rt, 0, all);
  Sizes where = strided(
      n, static_cast<std::size_t>(rv->type()->extent) * static_cast<std::size_t>(recvcount));
  TypeRef keep(rt), keep_send(st);
  CollBody body = allgather_body(Coll::Allgather, rv->data(), uniform(n, block), where,
                                 [rv, all, keep] { rv->store(0, all); });
  std::size_t at = block * static_cast<std::size_t>(k.rank());
  return launch_collective(call, k.comm(), k.seq(), request, [=] {
    if (sendbuf == MPI_IN_PLACE) {
      rv->load(mine, recvcount);
    } else {
      PackedView sv(sendbuf, st, 0, sendcount);
      sv.load(0, sendcount);
      if (block) std::memmove(rv->data() + at, sv.data(), block);
    }
    (void)keep_send;
    return body;
  });
}

int allgatherv(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
               void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
               MPI_Comm comm, CollRequest request) {
  ApiCall call(name);
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.no_in_place_on_inter(sendbuf == MPI_IN_PLACE, "sendbuf");
  if (sendbuf != MPI_IN_PLACE) k.count(sendcount, "sendcount").type(sendtype, &st);
  k.type(recvtype, &rt);
  if (k.ok()) k.counts(recvcounts, k.peers(), "recvcounts");
  if (k.ok() && !displs) return call.fail(comm, MPI_ERR_ARG, "displs is NULL");
  k.agree(name, -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Allgatherv);
  rec.value(sendbuf == MPI_IN_PLACE).value(sendcount).type(sendtype);
  rec.array(recvcounts, k.peers()).array(displs, k.peers()).type(recvtype);
  rec.value(comm);
  record_request(rec, request);
  int n = k.peers();
  if (k.is_inter())
    return launch_inter_allgather(call, k, Coll::Allgatherv, sendbuf, sendcount, st, recvbuf,
                                  std::vector<int>(recvcounts, recvcounts + n),
                                  std::vector<int>(displs, displs + n), rt, request);
  auto me = static_cast<std::size_t>(k.rank());
  ElementSpan span = span_of(recvcounts, displs, n);
  auto rv = std::make_shared<PackedView>(recvbuf, rt, span.first, span.last);
  Sizes counts = to_bytes(recvcounts, n, *rv->type(), false);
  Sizes where = to_bytes(displs, n, *rv->type(), true);
  std::vector<int> rc(recvcounts, recvcounts + n), dp(displs, displs + n);
  TypeRef keep(rt), keep_send(st);
  CollBody body =
      allgather_body(Coll::Allgatherv, rv->data(), counts, where,
                     [rv, rc, dp, n, keep] { rv->store_blocks(rc.data(), dp.data(), n); });
  return launch_collective(call, k.comm(), k.seq(), request, [=] {
    if (sendbuf == MPI_IN_PLACE) {
      rv->load(dp[me], rc[me]);
    } else {
      PackedView sv(sendbuf, st, 0, sendcount);
      sv.load(0, sendcount);
      if (counts[me]) std::memmove(rv->data() + where[me], sv.data(), counts[me]);
    }
    (void)keep_send;
    return body;
  });
}

// Runs an all-to-all(v); with MPI_IN_PLACE the send data is a copy of the receive buffer, taken
// now. `finish` runs at the end (it stores a PackedView back into the user's buffer).
CollBody alltoall_body(Coll which, bool in_place, const void* sendbuf, Sizes sc, Sizes sd,
                       void* recvbuf, Sizes rc, Sizes rd, std::function<void()> finish) {
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
    finish();
    (void)copy;  // keeps the in-place copy alive until the operation ends
  };
}

int alltoall(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
             CollRequest request) {
  ApiCall call(name);
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  bool in_place = sendbuf == MPI_IN_PLACE;
  k.no_in_place_on_inter(in_place, "sendbuf");
  if (!in_place) k.count(sendcount, "sendcount").type(sendtype, &st);
  k.count(recvcount, "recvcount").type(recvtype, &rt);
  if (k.ok()) k.agree(name, -1, MPI_OP_NULL, static_cast<std::int64_t>(bytes_of(recvcount, rt)));
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Alltoall);
  rec.value(sendbuf == MPI_IN_PLACE).value(sendcount).type(sendtype).value(recvcount);
  rec.type(recvtype).value(comm);
  record_request(rec, request);
  int n = k.peers();
  std::size_t block = bytes_of(recvcount, rt);
  std::size_t sblock = in_place ? block : bytes_of(sendcount, st);
  std::int64_t all = static_cast<std::int64_t>(n) * recvcount;
  auto rv = std::make_shared<PackedView>(recvbuf, rt, 0, all);
  std::int64_t sall = static_cast<std::int64_t>(n) * sendcount;
  auto sv = std::make_shared<PackedView>(sendbuf, in_place ? nullptr : st, 0, sall);
  std::size_t sstride =
      in_place ? 0
               : static_cast<std::size_t>(sv->type()->extent) * static_cast<std::size_t>(sendcount);
  std::size_t rstride =
      static_cast<std::size_t>(rv->type()->extent) * static_cast<std::size_t>(recvcount);
  TypeRef keep(rt), keep_send(st);
  return launch_collective(call, k.comm(), k.seq(), request, [=] {
    if (in_place) rv->load(0, all);
    sv->load(0, sall);
    return alltoall_body(Coll::Alltoall, in_place, in_place ? rv->data() : sv->data(),
                         uniform(n, sblock), strided(n, sstride), rv->data(), uniform(n, block),
                         strided(n, rstride),
                         [rv, sv, all, keep, keep_send] { rv->store(0, all); });
  });
}

int alltoallv(const char* name, const void* sendbuf, const int sendcounts[], const int sdispls[],
              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, CollRequest request) {
  ApiCall call(name);
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  bool in_place = sendbuf == MPI_IN_PLACE;
  k.no_in_place_on_inter(in_place, "sendbuf");
  k.type(recvtype, &rt);
  if (k.ok()) k.counts(recvcounts, k.peers(), "recvcounts");
  if (!in_place) {
    k.type(sendtype, &st);
    if (k.ok()) k.counts(sendcounts, k.peers(), "sendcounts");
  }
  if (k.ok() && (!rdispls || (!in_place && !sdispls)))
    return call.fail(comm, MPI_ERR_ARG, "a displacement array is NULL");
  k.agree(name, -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Alltoallv);
  int n = k.peers();
  rec.value(in_place).array(sendcounts, in_place ? 0 : n).array(sdispls, in_place ? 0 : n);
  rec.type(sendtype).array(recvcounts, n).array(rdispls, n).type(recvtype).value(comm);
  record_request(rec, request);
  ElementSpan rspan = span_of(recvcounts, rdispls, n);
  auto rv = std::make_shared<PackedView>(recvbuf, rt, rspan.first, rspan.last);
  std::shared_ptr<PackedView> sv;
  Sizes sc, sd;
  std::vector<int> scounts, sdispl;
  if (!in_place) {
    ElementSpan sspan = span_of(sendcounts, sdispls, n);
    sv = std::make_shared<PackedView>(sendbuf, st, sspan.first, sspan.last);
    sc = to_bytes(sendcounts, n, *sv->type(), false);
    sd = to_bytes(sdispls, n, *sv->type(), true);
    scounts.assign(sendcounts, sendcounts + n);
    sdispl.assign(sdispls, sdispls + n);
  }
  std::vector<int> rc(recvcounts, recvcounts + n), rd(rdispls, rdispls + n);
  Sizes rcb = to_bytes(recvcounts, n, *rv->type(), false);
  Sizes rdb = to_bytes(rdispls, n, *rv->type(), true);
  TypeRef keep(rt), keep_send(st);
  return launch_collective(call, k.comm(), k.seq(), request, [=] {
    if (in_place) rv->load_blocks(rc.data(), rd.data(), n);
    if (sv) sv->load_blocks(scounts.data(), sdispl.data(), n);
    return alltoall_body(
        Coll::Alltoallv, in_place, in_place ? rv->data() : sv->data(), sc, sd, rv->data(), rcb, rdb,
        [rv, sv, rc, rd, n, keep, keep_send] { rv->store_blocks(rc.data(), rd.data(), n); });
  });
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

// Persistent forms (MPI-4.1 6.13). The info hints are ignored, as MPI allows.

int MPI_Barrier_init(MPI_Comm comm, MPI_Info, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Barrier_init");
  return barrier("MPI_Barrier_init", comm, CollRequest::persistent_init(request));
}

int MPI_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Allreduce_init");
  return allreduce("MPI_Allreduce_init", sendbuf, recvbuf, count, datatype, op, comm,
                   CollRequest::persistent_init(request));
}

int MPI_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                       MPI_Request* request) {
  if (!request) return null_request_error("MPI_Allgather_init");
  return allgather("MPI_Allgather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   comm, CollRequest::persistent_init(request));
}

int MPI_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Allgatherv_init");
  return allgatherv("MPI_Allgatherv_init", sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                    displs, recvtype, comm, CollRequest::persistent_init(request));
}

int MPI_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                      MPI_Request* request) {
  if (!request) return null_request_error("MPI_Alltoall_init");
  return alltoall("MPI_Alltoall_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                  comm, CollRequest::persistent_init(request));
}

int MPI_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info,
                       MPI_Request* request) {
  if (!request) return null_request_error("MPI_Alltoallv_init");
  return alltoallv("MPI_Alltoallv_init", sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                   recvcounts, rdispls, recvtype, comm, CollRequest::persistent_init(request));
}

}  // extern "C"
