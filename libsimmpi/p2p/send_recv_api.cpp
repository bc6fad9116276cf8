// SPDX-License-Identifier: Apache-2.0
// MPI_Send and friends, MPI_Recv, MPI_Sendrecv(_replace) and the buffered-send buffer.
#include <cstring>
#include <memory>

#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/p2p/p2p_checks.hpp"
#include "libsimmpi/p2p/status_error.hpp"
#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {
namespace {

namespace ct = runtime::call_trace;

const char* mode_call(SendMode mode, bool blocking) {
  switch (mode) {
    case SendMode::Standard:
      return blocking ? "MPI_Send" : "MPI_Isend";
    case SendMode::Synchronous:
      return blocking ? "MPI_Ssend" : "MPI_Issend";
    case SendMode::Ready:
      return blocking ? "MPI_Rsend" : "MPI_Irsend";
    case SendMode::Buffered:
      return blocking ? "MPI_Bsend" : "MPI_Ibsend";
  }
  return "";
}

int send(SendMode mode, const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
         MPI_Comm comm, MPI_Request* request) {
  // The caller's owed time passes together with the send's overhead (post_send): one sleep.
  ApiCall call(mode_call(mode, request == nullptr), ApiCall::Needs::Init, ApiCall::Settle::Ahead);
  P2PTarget t = check_p2p(call, Direction::Send, buf, count, datatype, dest, tag, comm);
  if (!t.ok()) return t.error;
  CallRecord rec(call, request ? ct::Kind::Isend : ct::Kind::Send);
  rec.value(static_cast<int>(mode)).value(count).type(datatype).value(dest).value(tag).value(comm);
  if (request) rec.out(request);
  Request* s;
  if (dest == MPI_PROC_NULL) {
    call.world.scheduler().settle();
    s = null_peer_request(call.world, RequestKind::Send);
  } else {
    if (mode == SendMode::Buffered) {
      call.world.scheduler().settle();  // buffer space is freed as earlier messages leave
      int err = reserve_bsend(call, comm, t.type->size * static_cast<std::uint64_t>(count));
      if (err) {
        rec.cancel();
        return err;
      }
    }
    s = start_send(call.world, *t.comm, Channel::User, dest, tag, buf, count, *t.type, mode,
                   /*then_wait=*/request == nullptr);
    if (!s) return MPI_SUCCESS;  // a blocking send posted ahead: complete for the caller
  }
  if (request) {
    *request = s->handle;
    return MPI_SUCCESS;
  }
  wait_request(call.world, *s);
  retire_request(call.world, s, MPI_STATUS_IGNORE);
  return MPI_SUCCESS;
}

int recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
         MPI_Status* status, MPI_Request* request) {
  // The receive lets the caller's owed time pass itself (start_recv), so that it can be posted
  // without a switch to the rank.
  const bool blocking = request == nullptr;
  ApiCall call(blocking ? "MPI_Recv" : "MPI_Irecv", ApiCall::Needs::Init, ApiCall::Settle::Ahead);
  P2PTarget t = check_p2p(call, Direction::Recv, buf, count, datatype, source, tag, comm);
  if (!t.ok()) {
    call.world.scheduler().settle();
    return t.error;
  }
  CallRecord rec(call, blocking ? ct::Kind::Recv : ct::Kind::Irecv);
  rec.value(count).type(datatype).value(source).value(tag).value(comm);
  int matched_source = MPI_PROC_NULL, matched_tag = MPI_ANY_TAG;
  if (blocking)
    rec.out(&matched_source).out(&matched_tag);
  else
    rec.out(request);
  Request* r;
  if (source == MPI_PROC_NULL) {
    call.world.scheduler().settle();
    r = null_peer_request(call.world, RequestKind::Recv);
  } else {
    r = start_recv(call.world, *t.comm, Channel::User, source, tag, buf, count, *t.type, blocking);
  }
  if (request) {
    *request = r->handle;
    return MPI_SUCCESS;
  }
  wait_request(call.world, *r);
  int err = check_truncation(call, *r);
  matched_source = r->status.MPI_SOURCE;
  matched_tag = r->status.MPI_TAG;
  retire_request(call.world, r, status);
  return err;
}

}  // namespace
}  // namespace simmpi::mpi

using simmpi::mpi::SendMode;

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm) {
  return simmpi::mpi::send(SendMode::Standard, buf, count, dt, dest, tag, comm, nullptr);
}
int MPI_Ssend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm) {
  return simmpi::mpi::send(SendMode::Synchronous, buf, count, dt, dest, tag, comm, nullptr);
}
int MPI_Rsend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm) {
  return simmpi::mpi::send(SendMode::Ready, buf, count, dt, dest, tag, comm, nullptr);
}
int MPI_Bsend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm) {
  return simmpi::mpi::send(SendMode::Buffered, buf, count, dt, dest, tag, comm, nullptr);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
              MPI_Request* req) {
  return simmpi::mpi::send(SendMode::Standard, buf, count, dt, dest, tag, comm, req);
}
int MPI_Issend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
               MPI_Request* req) {
  return simmpi::mpi::send(SendMode::Synchronous, buf, count, dt, dest, tag, comm, req);
}
int MPI_Irsend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
               MPI_Request* req) {
  return simmpi::mpi::send(SendMode::Ready, buf, count, dt, dest, tag, comm, req);
}
int MPI_Ibsend(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
               MPI_Request* req) {
  return simmpi::mpi::send(SendMode::Buffered, buf, count, dt, dest, tag, comm, req);
}
int MPI_Recv(void* buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  simmpi::mpi::KeepStatusError keep_error(status);
  return simmpi::mpi::recv(buf, count, dt, source, tag, comm, status, nullptr);
}
int MPI_Irecv(void* buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
              MPI_Request* req) {
  return simmpi::mpi::recv(buf, count, dt, source, tag, comm, MPI_STATUS_IGNORE, req);
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  simmpi::mpi::KeepStatusError keep_error(status);
  using namespace simmpi::mpi;
  ApiCall call("MPI_Sendrecv");
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::Sendrecv);
  rec.value(sendcount).type(sendtype).value(dest).value(sendtag);
  rec.value(recvcount).type(recvtype).value(source).value(recvtag).value(comm);
  MPI_Status st;
  rec.out(&st.MPI_SOURCE).out(&st.MPI_TAG);
  MPI_Request rr, sr;
  int err = recv(recvbuf, recvcount, recvtype, source, recvtag, comm, MPI_STATUS_IGNORE, &rr);
  if (!err) err = send(SendMode::Standard, sendbuf, sendcount, sendtype, dest, sendtag, comm, &sr);
  if (err) {
    rec.cancel();
    return err;
  }
  err = MPI_Wait(&sr, MPI_STATUS_IGNORE);
  int err2 = MPI_Wait(&rr, &st);
  if (status != MPI_STATUS_IGNORE) *status = st;
  return err ? err : err2;
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  simmpi::mpi::KeepStatusError keep_error(status);
  using namespace simmpi::mpi;
  ApiCall call("MPI_Sendrecv_replace");
  CallRecord rec(call, simmpi::runtime::call_trace::Kind::SendrecvReplace);
  rec.value(count).type(datatype).value(dest).value(sendtag).value(source).value(recvtag);
  rec.value(comm);
  MPI_Status st;
  st.MPI_SOURCE = MPI_PROC_NULL;
  st.MPI_TAG = MPI_ANY_TAG;
  rec.out(&st.MPI_SOURCE).out(&st.MPI_TAG);
  const Datatype* t = find_datatype(datatype);
  std::size_t bytes = t ? t->size * static_cast<std::size_t>(count < 0 ? 0 : count) : 0;
  std::unique_ptr<char[]> copy(new char[bytes ? bytes : 1]);
  if (t && buf) pack(buf, count, *t, copy.get());
  const int err = MPI_Sendrecv(copy.get(), static_cast<int>(bytes), MPI_BYTE, dest, sendtag, buf,
                               count, datatype, source, recvtag, comm, &st);
  if (status != MPI_STATUS_IGNORE) *status = st;
  if (err) rec.cancel();
  return err;
}

int MPI_Buffer_attach(void* buffer, int size) {
  simmpi::mpi::ApiCall call("MPI_Buffer_attach");
  simmpi::mpi::RankState& st = call.world.rank(call.rank);
  if (st.bsend_buffer)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_BUFFER,
                     "a buffer is already attached; detach it first");
  if (size < 0 || (!buffer && size > 0))
    return call.fail(MPI_COMM_WORLD, MPI_ERR_BUFFER, "buffer=%p size=%d is not a buffer", buffer,
                     size);
  st.bsend_buffer = static_cast<char*>(buffer);
  st.bsend_size = static_cast<std::uint64_t>(size);
  return MPI_SUCCESS;
}

int MPI_Buffer_detach(void* buffer_addr, int* size) {
  simmpi::mpi::ApiCall call("MPI_Buffer_detach");
  simmpi::mpi::RankState& st = call.world.rank(call.rank);
  // Blocks until every buffered message has left the buffer (MPI-3.1 3.6.1).
  while (st.bsend_used > 0)
    call.world.scheduler().block(simmpi::runtime::WaitReason{call.name, nullptr, nullptr});
  *static_cast<void**>(buffer_addr) = st.bsend_buffer;
  *size = static_cast<int>(st.bsend_size);
  st.bsend_buffer = nullptr;
  st.bsend_size = 0;
  return MPI_SUCCESS;
}

}  // extern "C"
