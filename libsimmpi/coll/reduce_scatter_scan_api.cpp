// SPDX-License-Identifier: Apache-2.0
// MPI_(I)reduce_scatter(_init), MPI_(I)reduce_scatter_block(_init), MPI_(I)scan(_init) and
// MPI_(I)exscan(_init): argument checks, MPI_IN_PLACE, and the launch of the dispatcher's call
// (see all_api.cpp).
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/nonblocking.hpp"
#include "libsimmpi/coll/packed_view.hpp"
#include "libsimmpi/core/call_record.hpp"

using namespace simmpi::mpi;

namespace {

std::size_t bytes_of(int count, const Datatype* t) {
  return static_cast<std::size_t>(count) * t->size;
}

// The reduce-scatter works on a packed copy of the input (the algorithms overwrite it), taken
// when it starts; the result goes through a view of this rank's slice of recvbuf.
CollStart reduce_scatter_start(Coll which, const void* input, void* recvbuf,
                               std::vector<int> counts, MPI_Op op, MPI_Datatype handle,
                               const Datatype* t, int rank) {
  int total = std::accumulate(counts.begin(), counts.end(), 0);
  auto in = std::make_shared<PackedView>(input, t, 0, total, PackedView::Copy::Always);
  int mine = counts[static_cast<std::size_t>(rank)];
  auto out = std::make_shared<PackedView>(recvbuf, t, 0, mine);
  Reduction red(op, handle, *in->type(), t);
  TypeRef keep(t);
  return [=] {
    in->load(0, total);
    return CollBody([=](CollContext& c) {
      run_reduce_scatter(c, which, in->data(), out->data(), counts, red);
      out->store(0, mine);
      (void)keep;
    });
  };
}

int reduce_scatter(const char* name, const void* sendbuf, void* recvbuf, const int recvcounts[],
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, CollRequest request) {
  ApiCall call(name);
  const Datatype* t = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.type(datatype, &t).op(op, t).no_in_place_on_inter(sendbuf == MPI_IN_PLACE, "sendbuf");
  if (k.ok()) k.counts(recvcounts, k.comm().size(), "recvcounts");
  k.agree(name, -1, op, -1);
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::ReduceScatter);
  rec.value(sendbuf == MPI_IN_PLACE).array(recvcounts, k.comm().size()).type(datatype).op(op);
  rec.value(comm);
  record_request(rec, request);
  std::vector<int> counts(recvcounts, recvcounts + k.comm().size());
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  return launch_collective(
      call, k.comm(), k.seq(), request,
      reduce_scatter_start(Coll::ReduceScatter, input, recvbuf, counts, op, datatype, t, k.rank()));
}

int reduce_scatter_block(const char* name, const void* sendbuf, void* recvbuf, int recvcount,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, CollRequest request) {
  ApiCall call(name);
  const Datatype* t = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.count(recvcount, "recvcount").type(datatype, &t).op(op, t);
  k.no_in_place_on_inter(sendbuf == MPI_IN_PLACE, "sendbuf");
  if (k.ok()) k.agree(name, -1, op, static_cast<std::int64_t>(bytes_of(recvcount, t)));
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::ReduceScatterBlock);
  rec.value(sendbuf == MPI_IN_PLACE).value(recvcount).type(datatype).op(op).value(comm);
  record_request(rec, request);
  std::vector<int> counts(static_cast<std::size_t>(k.comm().size()), recvcount);
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  return launch_collective(call, k.comm(), k.seq(), request,
                           reduce_scatter_start(Coll::ReduceScatterBlock, input, recvbuf, counts,
                                                op, datatype, t, k.rank()));
}

// The scan runs on a copy of this rank's value; the result then goes to recvbuf (rank 0's
// recvbuf is left untouched by MPI_Exscan).
int scan(const char* name, Coll which, const void* sendbuf, void* recvbuf, int count,
         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, CollRequest request) {
  ApiCall call(name);
  const Datatype* t = nullptr;
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.intra_only().count(count).type(datatype, &t).op(op, t);
  if (k.ok()) k.agree(name, -1, op, static_cast<std::int64_t>(bytes_of(count, t)));
  if (!k.ok()) return k.error();
  CallRecord rec(call, which == Coll::Exscan ? simmpi::runtime::call_trace::Kind::Exscan
                                             : simmpi::runtime::call_trace::Kind::Scan);
  rec.value(sendbuf == MPI_IN_PLACE).value(count).type(datatype).op(op).value(comm);
  record_request(rec, request);
  auto v = std::make_shared<PackedView>(recvbuf, t, 0, count, PackedView::Copy::Always);
  Reduction red(op, datatype, *v->type(), t);
  bool exclusive = which == Coll::Exscan;
  TypeRef keep(t);
  return launch_collective(call, k.comm(), k.seq(), request, [=] {
    v->load_from(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, 0, count);
    return CollBody([=](CollContext& c) {
      run_scan(c, which, v->data(), count, red);
      if (!(exclusive && c.rank() == 0)) v->store(0, count);
      (void)keep;
    });
  });
}

}  // namespace

extern "C" {

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter("MPI_Reduce_scatter", sendbuf, recvbuf, recvcounts, datatype, op, comm,
                        nullptr);
}

int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Ireduce_scatter");
  return reduce_scatter("MPI_Ireduce_scatter", sendbuf, recvbuf, recvcounts, datatype, op, comm,
                        request);
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return reduce_scatter_block("MPI_Reduce_scatter_block", sendbuf, recvbuf, recvcount, datatype, op,
                              comm, nullptr);
}

int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request) {
  if (!request) return null_request_error("MPI_Ireduce_scatter_block");
  return reduce_scatter_block("MPI_Ireduce_scatter_block", sendbuf, recvbuf, recvcount, datatype,
                              op, comm, request);
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm) {
  return scan("MPI_Scan", Coll::Scan, sendbuf, recvbuf, count, datatype, op, comm, nullptr);
}

int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Iscan");
  return scan("MPI_Iscan", Coll::Scan, sendbuf, recvbuf, count, datatype, op, comm, request);
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm) {
  return scan("MPI_Exscan", Coll::Exscan, sendbuf, recvbuf, count, datatype, op, comm, nullptr);
}

int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Iexscan");
  return scan("MPI_Iexscan", Coll::Exscan, sendbuf, recvbuf, count, datatype, op, comm, request);
}

// Persistent forms (MPI-4.1 6.13). The info hints are ignored, as MPI allows.

int MPI_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info,
                            MPI_Request* request) {
  if (!request) return null_request_error("MPI_Reduce_scatter_init");
  return reduce_scatter("MPI_Reduce_scatter_init", sendbuf, recvbuf, recvcounts, datatype, op, comm,
                        CollRequest::persistent_init(request));
}

int MPI_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info,
                                  MPI_Request* request) {
  if (!request) return null_request_error("MPI_Reduce_scatter_block_init");
  return reduce_scatter_block("MPI_Reduce_scatter_block_init", sendbuf, recvbuf, recvcount,
                              datatype, op, comm, CollRequest::persistent_init(request));
}

int MPI_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, MPI_Info, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Scan_init");
  return scan("MPI_Scan_init", Coll::Scan, sendbuf, recvbuf, count, datatype, op, comm,
              CollRequest::persistent_init(request));
}

int MPI_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Info, MPI_Request* request) {
  if (!request) return null_request_error("MPI_Exscan_init");
  return scan("MPI_Exscan_init", Coll::Exscan, sendbuf, recvbuf, count, datatype, op, comm,
              CollRequest::persistent_init(request));
}

}  // extern "C"
