// SPDX-License-Identifier: Apache-2.0
// The rooted collectives and their nonblocking and persistent forms: MPI_(I)bcast(_init),
// MPI_(I)reduce(_init), MPI_(I)gather(v)(_init), MPI_(I)scatter(v)(_init). Each family shares one
// function that checks the arguments, resolves MPI_IN_PLACE and the datatypes into byte buffers,
// and launches the operation (nonblocking.hpp) as the dispatcher's call (dispatch.hpp). Buffers
// of non-contiguous types go through PackedViews (packed_view.hpp), loaded when the operation
// starts (at the call, or at each MPI_Start) and stored when it ends.
#include <cstring>
#include <memory>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/nonblocking.hpp"
#include "libsimmpi/coll/packed_view.hpp"
#include "libsimmpi/core/call_record.hpp"

using namespace simmpi::mpi;

namespace {

std::int64_t bytes_of(int count, const Datatype* t) {
  return static_cast<std::int64_t>(count) * static_cast<std::int64_t>(t->size);
}

int bcast(const char* name, void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
          CollRequest request) {
  ApiCall call(name);
  const Datatype* t = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.root(root).count(count).type(datatype, &t);
  if (k.ok()) k.agree(name, root, MPI_OP_NULL, bytes_of(count, t));
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Bcast);
  rec.value(count).type(datatype).value(root).value(comm);
  record_request(rec, request);
  std::size_t elem = t->size;
  bool at_root = k.is_root(root);
  bool receives = !at_root && root != MPI_PROC_NULL;  // MPI_PROC_NULL: the root's group
  auto v = std::make_shared<PackedView>(buffer, t, 0, count);
  TypeRef keep(t);  // the user may free the type before a nonblocking call ends
  return launch_collective(call, k.comm(), k.seq(), request, [=] {
    if (at_root) v->load(0, count);
    return CollBody([=](CollContext& c) {
      run_bcast(c, v->data(), count, elem, root);
      if (receives) v->store(0, count);
      (void)keep;
    });
  });
}

int reduce(const char* name, const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
           MPI_Op op, int root, MPI_Comm comm, CollRequest request) {
  ApiCall call(name);
  const Datatype* t = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.root(root).count(count).type(datatype, &t).op(op, t);
  k.no_in_place_on_inter(sendbuf == MPI_IN_PLACE, "sendbuf");
  if (k.ok() && sendbuf == MPI_IN_PLACE && k.rank() != root)
    return call.fail(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
  if (k.ok()) k.agree(name, root, op, bytes_of(count, t));
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Reduce);
  rec.value(sendbuf == MPI_IN_PLACE).value(count).type(datatype).op(op).value(root);
  rec.value(comm);
  record_request(rec, request);
  bool at_root = k.is_root(root);
  bool sends = k.sends_to_root(root);
  auto in = std::make_shared<PackedView>(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, t, 0,
                                         sends ? count : 0);
  auto out = std::make_shared<PackedView>(recvbuf, t, 0, at_root ? count : 0);
  Reduction red(op, datatype, *(sends ? in : out)->type(), t);
  TypeRef keep(t);
  return launch_collective(call, k.comm(), k.seq(), request, [=] {
    if (sends) in->load(0, count);
    return CollBody([=](CollContext& c) {
      if (count) run_reduce(c, in->data(), out->data(), count, red, root);
      if (at_root) out->store(0, count);
      (void)keep;
    });
  });
}

int gatherv(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
            void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype,
            int root, MPI_Comm comm, CollRequest request) {
  ApiCall call(name);
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.root(root);
  bool at_root = k.ok() && k.is_root(root);
  bool in_place = at_root && sendbuf == MPI_IN_PLACE;
  k.no_in_place_on_inter(in_place, "sendbuf");
  bool sends = k.ok() && k.sends_to_root(root) && !in_place;
  if (sends) k.count(sendcount, "sendcount").type(sendtype, &st);
  if (at_root) {
    k.type(recvtype, &rt).counts(recvcounts, k.peers(), "recvcounts");
    if (k.ok() && !displs) return call.fail(comm, MPI_ERR_ARG, "displs is NULL");
  }
  k.agree(name, root, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Gatherv);
  const int rn = at_root ? k.peers() : 0;
  rec.value(sendbuf == MPI_IN_PLACE).value(sendcount).type(sendtype);
  rec.array(recvcounts, rn).array(displs, rn).type(recvtype).value(root).value(comm);
  record_request(rec, request);
  int n = k.peers();
  std::size_t sbytes = sends ? static_cast<std::size_t>(bytes_of(sendcount, st)) : 0;
  auto sv = std::make_shared<PackedView>(sendbuf, sends ? st : nullptr, 0, sendcount);
  const void* in = sends ? sv->data() : nullptr;
  TypeRef keep_send(st);
  if (!at_root)
    return launch_collective(call, k.comm(), k.seq(), request, [=] {
      sv->load(0, sendcount);
      return CollBody([=](CollContext& c) {
        run_gather(c, Coll::Gatherv, in, sbytes, nullptr, {}, {}, root);
        (void)sv, (void)keep_send;
      });
    });
  ElementSpan span = span_of(recvcounts, displs, n);
  auto rv = std::make_shared<PackedView>(recvbuf, rt, span.first, span.last);
  Sizes counts = to_bytes(recvcounts, n, *rv->type(), false);
  Sizes where = to_bytes(displs, n, *rv->type(), true);
  std::vector<int> rc(recvcounts, recvcounts + n), dp(displs, displs + n);
  int own = in_place ? root : -1;  // the root's block is in place: neither sent nor stored
  TypeRef keep(rt);
  return launch_collective(call, k.comm(), k.seq(), request, [=] {
    sv->load(0, sendcount);
    if (in_place) rv->load(dp[root], rc[root]);
    return CollBody([=](CollContext& c) {
      run_gather(c, Coll::Gatherv, in, sbytes, rv->data(), counts, where, root);
      rv->store_blocks(rc.data(), dp.data(), n, own);
      (void)sv, (void)keep, (void)keep_send;  // `in` points into sv
    });
  });
}

int gather(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
           void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
           CollRequest request) {
  ApiCall call(name);
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.root(root);
  bool at_root = k.ok() && k.is_root(root);
  bool in_place = at_root && sendbuf == MPI_IN_PLACE;
  k.no_in_place_on_inter(in_place, "sendbuf");
  bool sends = k.ok() && k.sends_to_root(root) && !in_place;
  if (sends) k.count(sendcount, "sendcount").type(sendtype, &st);
  if (at_root) k.count(recvcount, "recvcount").type(recvtype, &rt);
  std::int64_t bytes = -1;
  if (k.ok() && (at_root || sends))
    bytes = at_root ? bytes_of(recvcount, rt) : bytes_of(sendcount, st);
  k.agree(name, root, MPI_OP_NULL, bytes);
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Gather);
  rec.value(sendbuf == MPI_IN_PLACE).value(sendcount).type(sendtype).value(recvcount);
  rec.type(recvtype).value(root).value(comm);
  record_request(rec, request);
  int n = k.peers();
  std::size_t sbytes = sends ? static_cast<std::size_t>(bytes_of(sendcount, st)) : 0;
  auto block = at_root ? static_cast<std::size_t>(bytes) : sbytes;
  auto sv = std::make_shared<PackedView>(sendbuf, sends ? st : nullptr, 0, sendcount);
  const void* in = sends ? sv->data() : nullptr;
  TypeRef keep_send(st);
  if (!at_root)
    return launch_collective(call, k.comm(), k.seq(), request, [=] {
      sv->load(0, sendcount);
      return CollBody([=](CollContext& c) {
        run_gather(c, Coll::Gather, in, sbytes, nullptr, {}, {}, root);
        (void)sv, (void)keep_send;
      });
    });
  std::int64_t all = static_cast<std::int64_t>(n) * recvcount;
  auto rv = std::make_shared<PackedView>(recvbuf, rt, 0, all);
  Sizes counts = uniform(n, block);
  Sizes where = strided(
      n, static_cast<std::size_t>(rv->type()->extent) * static_cast<std::size_t>(recvcount));
  TypeRef keep(rt);
  return launch_collective(call, k.comm(), k.seq(), request, [=] {
    sv->load(0, sendcount);
    if (in_place) rv->load(static_cast<std::int64_t>(root) * recvcount, recvcount);
    return CollBody([=](CollContext& c) {
      run_gather(c, Coll::Gather, in, sbytes, rv->data(), counts, where, root);
      rv->store(0, all);
      (void)sv, (void)keep, (void)keep_send;  // `in` points into sv
    });
  });
}

int scatterv(const char* name, const void* sendbuf, const int sendcounts[], const int displs[],
             MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root,
             MPI_Comm comm, CollRequest request) {
  ApiCall call(name);
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.root(root);
  bool at_root = k.ok() && k.is_root(root);
  bool in_place = at_root && recvbuf == MPI_IN_PLACE;
  k.no_in_place_on_inter(in_place, "recvbuf");
  bool receives = k.ok() && k.sends_to_root(root) && !in_place;  // from the root
  if (receives) k.count(recvcount, "recvcount").type(recvtype, &rt);
  if (at_root) {
    k.type(sendtype, &st).counts(sendcounts, k.peers(), "sendcounts");
    if (k.ok() && !displs) return call.fail(comm, MPI_ERR_ARG, "displs is NULL");
  }
  k.agree(name, root, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Scatterv);
  const int sn = at_root ? k.peers() : 0;
  rec.value(recvbuf == MPI_IN_PLACE).array(sendcounts, sn).array(displs, sn).type(sendtype);
  rec.value(recvcount).type(recvtype).value(root).value(comm);
  record_request(rec, request);
  int n = k.peers();
  std::size_t rbytes = receives ? static_cast<std::size_t>(bytes_of(recvcount, rt)) : 0;
  auto rv = std::make_shared<PackedView>(recvbuf, receives ? rt : nullptr, 0, recvcount);
  void* out = receives ? rv->data() : nullptr;
  std::shared_ptr<PackedView> sv;
  Sizes counts, where;
  std::vector<int> sc, dp;
  if (at_root) {
    ElementSpan span = span_of(sendcounts, displs, n);
    sv = std::make_shared<PackedView>(sendbuf, st, span.first, span.last);
    counts = to_bytes(sendcounts, n, *sv->type(), false);
    where = to_bytes(displs, n, *sv->type(), true);
    sc.assign(sendcounts, sendcounts + n);
    dp.assign(displs, displs + n);
  }
  TypeRef keep(rt), keep_send(st);
  return launch_collective(call, k.comm(), k.seq(), request, [=] {
    if (sv) sv->load_blocks(sc.data(), dp.data(), n, in_place ? root : -1);
    return CollBody([=](CollContext& c) {
      run_scatter(c, Coll::Scatterv, sv ? sv->data() : nullptr, counts, where, out, rbytes, root);
      if (out) rv->store(0, recvcount);
      (void)keep, (void)keep_send;
    });
  });
}

int scatter(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
            void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
            CollRequest request) {
  ApiCall call(name);
  const Datatype *st = nullptr, *rt = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.root(root);
  bool at_root = k.ok() && k.is_root(root);
  bool in_place = at_root && recvbuf == MPI_IN_PLACE;
  k.no_in_place_on_inter(in_place, "recvbuf");
  bool receives = k.ok() && k.sends_to_root(root) && !in_place;  // from the root
  if (receives) k.count(recvcount, "recvcount").type(recvtype, &rt);
  if (at_root) k.count(sendcount, "sendcount").type(sendtype, &st);
  std::int64_t bytes = -1;
  if (k.ok() && (at_root || receives))
    bytes = at_root ? bytes_of(sendcount, st) : bytes_of(recvcount, rt);
  k.agree(name, root, MPI_OP_NULL, bytes);
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Scatter);
  rec.value(recvbuf == MPI_IN_PLACE).value(sendcount).type(sendtype).value(recvcount);
  rec.type(recvtype).value(root).value(comm);
  record_request(rec, request);
  int n = k.peers();
  std::size_t rbytes = receives ? static_cast<std::size_t>(bytes_of(recvcount, rt)) : 0;
  auto block = at_root ? static_cast<std::size_t>(bytes) : rbytes;
  auto rv = std::make_shared<PackedView>(recvbuf, receives ? rt : nullptr, 0, recvcount);
  void* out = receives ? rv->data() : nullptr;
  std::shared_ptr<PackedView> sv;
  Sizes counts, where;
  std::int64_t all = static_cast<std::int64_t>(n) * sendcount;
  if (at_root) {
    sv = std::make_shared<PackedView>(sendbuf, st, 0, all);
    counts = uniform(n, block);
    where = strided(
        n, static_cast<std::size_t>(sv->type()->extent) * static_cast<std::size_t>(sendcount));
  }
  TypeRef keep(rt), keep_send(st);
  return launch_collective(call, k.comm(), k.seq(), request, [=] {
    if (sv) sv->load(0, all);
    return CollBody([=](CollContext& c) {
      run_scatter(c, Coll::Scatter, sv ? sv->data() : nullptr, counts, where, out, block, root);
      if (out) rv->store(0, recvcount);
      (void)keep, (void)keep_send;
    });
  });
}

}  // namespace

extern "C" {

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return bcast("MPI_Bcast", buffer, count, datatype, root, comm, nullptr);
}

int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request* request) {
  if (!request) return null_request_error("MPI_Ibcast");
  return bcast("MPI_Ibcast", buffer, count, datatype, root, comm, request);
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm) {
  return reduce("MPI_Reduce", sendbuf, recvbuf, count, datatype, op, root, comm, nullptr);
}

int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Ireduce");
  return reduce("MPI_Ireduce", sendbuf, recvbuf, count, datatype, op, root, comm, request);
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  return gatherv("MPI_Gatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                 root, comm, nullptr);
}

int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Igatherv");
  return gatherv("MPI_Igatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                 recvtype, root, comm, request);
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return gather("MPI_Gather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                comm, nullptr);
}

int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request* request) {
  if (!request) return null_request_error("MPI_Igather");
  return gather("MPI_Igather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                comm, request);
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm) {
  return scatterv("MPI_Scatterv", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                  recvtype, root, comm, nullptr);
}

int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Iscatterv");
  return scatterv("MPI_Iscatterv", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                  recvtype, root, comm, request);
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  return scatter("MPI_Scatter", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                 comm, nullptr);
}

int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request* request) {
  if (!request) return null_request_error("MPI_Iscatter");
  return scatter("MPI_Iscatter", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                 comm, request);
}

// Persistent forms (MPI-4.1 6.13). The info hints are ignored, as MPI allows.

int MPI_Bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Info, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Bcast_init");
  return bcast("MPI_Bcast_init", buffer, count, datatype, root, comm,
               CollRequest::persistent_init(request));
}

int MPI_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    int root, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Reduce_init");
  return reduce("MPI_Reduce_init", sendbuf, recvbuf, count, datatype, op, root, comm,
                CollRequest::persistent_init(request));
}

int MPI_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info,
                    MPI_Request* request) {
  if (!request) return null_request_error("MPI_Gather_init");
  return gather("MPI_Gather_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                comm, CollRequest::persistent_init(request));
}

int MPI_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_Info, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Gatherv_init");
  return gatherv("MPI_Gatherv_init", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                 recvtype, root, comm, CollRequest::persistent_init(request));
}

int MPI_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info,
                     MPI_Request* request) {
  if (!request) return null_request_error("MPI_Scatter_init");
  return scatter("MPI_Scatter_init", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                 root, comm, CollRequest::persistent_init(request));
}

int MPI_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Info, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Scatterv_init");
  return scatterv("MPI_Scatterv_init", sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                  recvtype, root, comm, CollRequest::persistent_init(request));
}

}  // extern "C"
