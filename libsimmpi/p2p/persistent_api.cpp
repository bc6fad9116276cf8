// SPDX-License-Identifier: Apache-2.0
// Persistent requests (MPI-3.1 3.9): MPI_Send_init and its modes, MPI_Recv_init, MPI_Start and
// MPI_Startall. An init call checks its arguments once and keeps them in an inactive request;
// each MPI_Start posts it through the transport exactly as MPI_Isend/MPI_Irecv would, so a
// started persistent operation costs and matches what the nonblocking one does. Completion
// (completion_api.cpp) makes the request inactive again instead of freeing it. MPI_Start also
// starts persistent collectives (MPI_Bcast_init..., coll/nonblocking.hpp) and partitioned
// requests (MPI_Psend_init, MPI_Precv_init: partitioned.hpp).
#include "libsimmpi/coll/nonblocking.hpp"
#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/p2p/p2p_checks.hpp"
#include "libsimmpi/p2p/partitioned.hpp"
#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {
namespace {

Request* persistent_request(World& w) {
  Request* r = w.requests().create();
  r->persistent = true;
  r->active = false;
  return r;
}

int send_init(const char* name, SendMode mode, const void* buf, MPI_Count count,
              MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  ApiCall call(name);
  if (!request) return call.fail(comm, MPI_ERR_ARG, "request is NULL");
  P2PTarget t = check_p2p(call, Direction::Send, buf, count, datatype, dest, tag, comm);
  if (!t.ok()) return t.error;
  CallRecord rec(call, runtime::call_trace::Kind::SendInit);
  rec.value(static_cast<int>(mode)).value(count).type(datatype).value(dest).value(tag).value(comm);
  rec.out(request);
  Request* r = persistent_request(call.world);
  prepare_send(call.world, r, *t.comm, Channel::User, dest, tag, buf, count, *t.type, mode);
  *request = r->handle;
  return MPI_SUCCESS;
}

int recv_init(const char* name, void* buf, MPI_Count count, MPI_Datatype dt, int source, int tag,
              MPI_Comm comm, MPI_Request* request) {
  ApiCall call(name);
  if (!request) return call.fail(comm, MPI_ERR_ARG, "request is NULL");
  P2PTarget t = check_p2p(call, Direction::Recv, buf, count, dt, source, tag, comm);
  if (!t.ok()) return t.error;
  CallRecord rec(call, runtime::call_trace::Kind::RecvInit);
  rec.value(count).type(dt).value(source).value(tag).value(comm).out(request);
  Request* r = persistent_request(call.world);
  prepare_recv(call.world, r, *t.comm, Channel::User, source, tag, buf, count, *t.type);
  *request = r->handle;
  return MPI_SUCCESS;
}

// A started operation with an MPI_PROC_NULL peer completes at once, as MPI_Isend's does.
void complete_null_peer(World& w, Request* r) {
  r->status = MPI_Status{MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0, 0};
  r->complete_at = w.now();
}

// Starts persistent request `r` of the caller; MPI_SUCCESS or the error raised.
int start(ApiCall& call, MPI_Request handle, int index) {
  Request* r = handle == MPI_REQUEST_NULL ? nullptr : call.world.requests().find(handle);
  if (!r || r->owner != call.rank || !r->persistent)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                     "request[%d]=0x%08x is not a persistent request of this rank (made by "
                     "MPI_Send_init, MPI_Recv_init, MPI_Bcast_init...)",
                     index, static_cast<unsigned>(handle));
  if (r->active)
    return call.fail(r->comm->handle(), MPI_ERR_REQUEST,
                     "request[%d]=0x%08x is already active; complete it (MPI_Wait...) before "
                     "starting it again",
                     index, static_cast<unsigned>(handle));
  if (r->kind == RequestKind::Send && r->mode == SendMode::Buffered && r->peer != MPI_PROC_NULL) {
    int err = reserve_bsend(call, r->comm->handle(), r->capacity_bytes());
    if (err) return err;
  }
  if (r->partitioned) {
    start_partitioned(call.world, *r);
    return MPI_SUCCESS;
  }
  r->active = true;
  if (r->kind == RequestKind::Collective)
    start_persistent_collective(call.world, *r);
  else if (r->peer == MPI_PROC_NULL)
    complete_null_peer(call.world, r);
  else if (r->kind == RequestKind::Send)
    post_send(call.world, r);
  else
    post_recv(call.world, r);
  return MPI_SUCCESS;
}

}  // namespace
}  // namespace simmpi::mpi

using namespace simmpi::mpi;

extern "C" {

// Each init call has an int and a large-count (_c) form, the same call with a 64-bit count.
#define SIMMPI_SEND_INIT_ENTRY(NAME, MODE)                                                \
  int NAME(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, \
           MPI_Request* request) {                                                        \
    return send_init(#NAME, MODE, buf, count, dt, dest, tag, comm, request);              \
  }                                                                                       \
  int NAME##_c(const void* buf, MPI_Count count, MPI_Datatype dt, int dest, int tag,      \
               MPI_Comm comm, MPI_Request* request) {                                     \
    return send_init(#NAME "_c", MODE, buf, count, dt, dest, tag, comm, request);         \
  }

SIMMPI_SEND_INIT_ENTRY(MPI_Send_init, SendMode::Standard)
SIMMPI_SEND_INIT_ENTRY(MPI_Ssend_init, SendMode::Synchronous)
SIMMPI_SEND_INIT_ENTRY(MPI_Rsend_init, SendMode::Ready)
SIMMPI_SEND_INIT_ENTRY(MPI_Bsend_init, SendMode::Buffered)

int MPI_Recv_init(void* buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                  MPI_Request* request) {
  return recv_init("MPI_Recv_init", buf, count, dt, source, tag, comm, request);
}
int MPI_Recv_init_c(void* buf, MPI_Count count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                    MPI_Request* request) {
  return recv_init("MPI_Recv_init_c", buf, count, dt, source, tag, comm, request);
}

int MPI_Start(MPI_Request* request) {
  ApiCall call("MPI_Start");
  if (!request) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "request is NULL");
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Start);
  rec.value(*request);
  const int err = start(call, *request, 0);
  if (err) rec.cancel();
  return err;
}

// Starts them in array order, so two started requests to one peer match in that order.
int MPI_Startall(int count, MPI_Request requests[]) {
  ApiCall call("MPI_Startall");
  if (count < 0) return call.fail(MPI_COMM_WORLD, MPI_ERR_COUNT, "count=%d is negative", count);
  if (count > 0 && !requests)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "array_of_requests is NULL");
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Startall);
  rec.array(requests, count);
  for (int i = 0; i < count; ++i) {
    int err = start(call, requests[i], i);
    if (err) {
      rec.cancel();
      return err;
    }
  }
  return MPI_SUCCESS;
}

}  // extern "C"
