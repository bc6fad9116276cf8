// SPDX-License-Identifier: Apache-2.0
// MPI_Alltoallw, MPI_Ialltoallw (MPI-3.1 5.8) and MPI_Alltoallw_init (MPI-4.1 6.13): a count, a
// datatype and a byte displacement per peer on each side. The blocks are packed when the
// operation starts (at the call, or at each MPI_Start) into one contiguous buffer per side and
// exchanged by the all-to-all(v) algorithm the selection picks for MPI_Alltoallv (Open MPI and
// MPICH run alltoallw with their alltoallv schedules), so the cost is that of an MPI_Alltoallv of
// the same byte counts; the received blocks are unpacked into place when it ends.
#include <memory>
#include <vector>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/nonblocking.hpp"
#include "libsimmpi/core/call_record.hpp"

using namespace simmpi::mpi;

namespace {

// One side of the exchange: each peer's block, resolved, and the packed buffer.
struct Side {
  std::vector<TypeRef> types;
  std::vector<int> counts;
  std::vector<char*> where;  // the block's first element in the user's buffer
  Sizes bytes, offsets;
  std::vector<char> packed;

  // Lays the blocks out one after the other in `packed`.
  void lay_out() {
    std::size_t total = 0;
    for (std::size_t i = 0; i < types.size(); ++i) {
      bytes.push_back(types[i]->size * static_cast<std::size_t>(counts[i]));
      offsets.push_back(total);
      total += bytes.back();
    }
    packed.resize(total);
  }
  void pack_all() {
    for (std::size_t i = 0; i < types.size(); ++i)
      if (bytes[i]) pack(where[i], counts[i], *types[i], packed.data() + offsets[i]);
  }
  void unpack_all() {
    for (std::size_t i = 0; i < types.size(); ++i)
      if (bytes[i]) unpack(packed.data() + offsets[i], counts[i], *types[i], where[i]);
  }
};

// Resolves n blocks (counts, byte displacements, types) of `buf`; false once a check failed.
bool resolve(ApiCall& call, CollChecks& k, const void* buf, const int* counts, const int* displs,
             const MPI_Datatype* types, int n, const char* what, Side* side) {
  k.counts(counts, n, what);
  if (!k.ok()) return false;
  if (!displs || !types) {
    call.fail(k.comm().handle(), MPI_ERR_ARG, "the displacements or types of %s are NULL", what);
    return false;
  }
  for (int i = 0; i < n; ++i) {
    const Datatype* t = nullptr;
    k.type(types[i], &t);
    if (!k.ok()) return false;
    side->types.emplace_back(t);
    side->counts.push_back(counts[i]);
    side->where.push_back(static_cast<char*>(const_cast<void*>(buf)) + displs[i]);
  }
  side->lay_out();
  return true;
}

int alltoallw(const char* name, const void* sendbuf, const int sendcounts[], const int sdispls[],
              const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
              const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
              CollRequest request) {
  ApiCall call(name);
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  if (!k.ok()) return k.error();
  int n = k.peers();
  bool in_place = sendbuf == MPI_IN_PLACE;
  k.no_in_place_on_inter(in_place, "sendbuf");
  if (!k.ok()) return k.error();
  auto recv = std::make_shared<Side>();
  auto send = std::make_shared<Side>();
  // With MPI_IN_PLACE each block goes out from, and comes back into, the receive buffer.
  bool ok = resolve(call, k, recvbuf, recvcounts, rdispls, recvtypes, n, "recvcounts", recv.get());
  if (ok)
    ok = in_place ? resolve(call, k, recvbuf, recvcounts, rdispls, recvtypes, n, "recvcounts",
                            send.get())
                  : resolve(call, k, sendbuf, sendcounts, sdispls, sendtypes, n, "sendcounts",
                            send.get());
  if (!ok) return k.ok() ? MPI_ERR_ARG : k.error();
  k.agree(name, -1, MPI_OP_NULL, -1);
  if (!k.ok()) return k.error();
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Alltoallw);
  rec.value(in_place);
  rec.array(sendcounts, in_place ? 0 : n).types(sendtypes, in_place ? 0 : n);
  rec.array(recvcounts, n).types(recvtypes, n);
  rec.value(comm);
  record_request(rec, request);
  return launch_collective(call, k.comm(), k.seq(), request, [send, recv] {
    send->pack_all();
    return CollBody([send, recv](CollContext& c) {
      run_alltoallv(c, Coll::Alltoallv, false, send->packed.data(), send->bytes, send->offsets,
                    recv->packed.data(), recv->bytes, recv->offsets);
      recv->unpack_all();
    });
  });
}

}  // namespace

extern "C" {

int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  return alltoallw("MPI_Alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                   rdispls, recvtypes, comm, nullptr);
}

int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request* request) {
  if (!request) return null_request_error("MPI_Ialltoallw");
  return alltoallw("MPI_Ialltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                   rdispls, recvtypes, comm, request);
}

// The info hints are ignored, as MPI allows.
int MPI_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                       const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info,
                       MPI_Request* request) {
  if (!request) return null_request_error("MPI_Alltoallw_init");
  return alltoallw("MPI_Alltoallw_init", sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                   recvcounts, rdispls, recvtypes, comm, CollRequest::persistent_init(request));
}

}  // extern "C"
