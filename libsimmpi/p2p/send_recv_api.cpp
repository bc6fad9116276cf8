// SPDX-License-Identifier: Apache-2.0
// MPI_Send and friends, MPI_Recv and MPI_Sendrecv(_replace) (the buffered-send buffers are
// buffer_api.cpp's).
#include <climits>
#include <cstring>
#include <memory>

#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/p2p/p2p_checks.hpp"
#include "libsimmpi/p2p/status_error.hpp"
#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {
namespace {

namespace ct = runtime::call_trace;

// Every send of the int and the large-count (_c) entry points: `name` is the caller's.
int send(const char* name, SendMode mode, const void* buf, MPI_Count count, MPI_Datatype datatype,
         int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  // The caller's owed time passes together with the send's overhead (post_send): one sleep.
  ApiCall call(name, ApiCall::Needs::Init, ApiCall::Settle::Ahead);
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
    if (!request) {
      send_blocking(call.world, *t.comm, Channel::User, dest, tag, buf, count, *t.type, mode);
      return MPI_SUCCESS;
    }
    s = start_send(call.world, *t.comm, Channel::User, dest, tag, buf, count, *t.type, mode);
  }
  if (request) {
    *request = s->handle;
    return MPI_SUCCESS;
  }
  wait_request(call.world, *s);
  retire_request(call.world, s, MPI_STATUS_IGNORE);
  return MPI_SUCCESS;
}

int recv(const char* name, void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
         MPI_Comm comm, MPI_Status* status, MPI_Request* request) {
  // The receive lets the caller's owed time pass itself (start_recv), so that it can be posted
  // without a switch to the rank.
  const bool blocking = request == nullptr;
  ApiCall call(name, ApiCall::Needs::Init, ApiCall::Settle::Ahead);
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
  // The end of a blocking receive: the status, and the fields the record reads at its end.
  auto finish_blocking = [&](Request* r) {
    int err = check_truncation(call, *r);
    matched_source = r->status.MPI_SOURCE;
    matched_tag = r->status.MPI_TAG;
    retire_request(call.world, r, status);
    return err;
  };
  if (source == MPI_PROC_NULL) {
    call.world.scheduler().settle();
    Request* r = null_peer_request(call.world, RequestKind::Recv);
    if (!request) return finish_blocking(r);
    *request = r->handle;
    return MPI_SUCCESS;
  }
  if (!request) {
    Request own;
    recv_blocking(call.world, own, *t.comm, Channel::User, source, tag, buf, count, *t.type);
    return finish_blocking(&own);
  }
  *request =
      start_recv(call.world, *t.comm, Channel::User, source, tag, buf, count, *t.type)->handle;
  return MPI_SUCCESS;
}

int sendrecv(const char* name, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
             int dest, int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
             int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  KeepStatusError keep_error(status);
  ApiCall call(name);
  CallRecord rec(call, ct::Kind::Sendrecv);
  rec.value(sendcount).type(sendtype).value(dest).value(sendtag);
  rec.value(recvcount).type(recvtype).value(source).value(recvtag).value(comm);
  MPI_Status st;
  rec.out(&st.MPI_SOURCE).out(&st.MPI_TAG);
  // The receive is posted first (a message to itself must find it), nonblocking; then a
  // blocking send, which needs no request when eager (send_blocking), and the wait for the
  // receive. The same as MPI_Irecv, MPI_Isend and two MPI_Waits, without their entry points, and
  // with the send's wait folded into the receive's when the send is posted ahead.
  World& w = call.world;
  P2PTarget rt =
      check_p2p(call, Direction::Recv, recvbuf, recvcount, recvtype, source, recvtag, comm);
  if (!rt.ok()) {
    rec.cancel();
    return rt.error;
  }
  Request* r;
  if (source == MPI_PROC_NULL) {
    w.scheduler().settle();
    r = null_peer_request(w, RequestKind::Recv);
  } else {
    r = start_recv(w, *rt.comm, Channel::User, source, recvtag, recvbuf, recvcount, *rt.type);
  }
  P2PTarget t = check_p2p(call, Direction::Send, sendbuf, sendcount, sendtype, dest, sendtag, comm);
  if (!t.ok()) {
    rec.cancel();
    return t.error;
  }
  if (dest == MPI_PROC_NULL)
    w.scheduler().settle();
  else
    send_blocking(w, *t.comm, Channel::User, dest, sendtag, sendbuf, sendcount, *t.type,
                  SendMode::Standard, SendAhead::CallerWaits);
  wait_request(w, *r);
  const int err = check_truncation(call, *r);
  retire_request(w, r, &st);
  if (status != MPI_STATUS_IGNORE) *status = st;
  return err;
}

int sendrecv_replace(const char* name, void* buf, MPI_Count count, MPI_Datatype datatype, int dest,
                     int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  KeepStatusError keep_error(status);
  ApiCall call(name);
  CallRecord rec(call, ct::Kind::SendrecvReplace);
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
  const int err = sendrecv("MPI_Sendrecv", copy.get(), static_cast<MPI_Count>(bytes), MPI_BYTE,
                           dest, sendtag, buf, count, datatype, source, recvtag, comm, &st);
  if (status != MPI_STATUS_IGNORE) *status = st;
  if (err) rec.cancel();
  return err;
}

}  // namespace
}  // namespace simmpi::mpi

using namespace simmpi::mpi;

// Each entry point has an int and a large-count (_c, MPI-4.1 3.2) form; both are the same call
// with a 64-bit count.
#define SIMMPI_SEND_ENTRY(NAME, MODE)                                                       \
  int NAME(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm) { \
    return send(#NAME, MODE, buf, count, dt, dest, tag, comm, nullptr);                     \
  }                                                                                         \
  int NAME##_c(const void* buf, MPI_Count count, MPI_Datatype dt, int dest, int tag,        \
               MPI_Comm comm) {                                                             \
    return send(#NAME "_c", MODE, buf, count, dt, dest, tag, comm, nullptr);                \
  }
#define SIMMPI_ISEND_ENTRY(NAME, MODE)                                                    \
  int NAME(const void* buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm, \
           MPI_Request* req) {                                                            \
    return send(#NAME, MODE, buf, count, dt, dest, tag, comm, req);                       \
  }                                                                                       \
  int NAME##_c(const void* buf, MPI_Count count, MPI_Datatype dt, int dest, int tag,      \
               MPI_Comm comm, MPI_Request* req) {                                         \
    return send(#NAME "_c", MODE, buf, count, dt, dest, tag, comm, req);                  \
  }

extern "C" {

SIMMPI_SEND_ENTRY(MPI_Send, SendMode::Standard)
SIMMPI_SEND_ENTRY(MPI_Ssend, SendMode::Synchronous)
SIMMPI_SEND_ENTRY(MPI_Rsend, SendMode::Ready)
SIMMPI_SEND_ENTRY(MPI_Bsend, SendMode::Buffered)
SIMMPI_ISEND_ENTRY(MPI_Isend, SendMode::Standard)
SIMMPI_ISEND_ENTRY(MPI_Issend, SendMode::Synchronous)
SIMMPI_ISEND_ENTRY(MPI_Irsend, SendMode::Ready)
SIMMPI_ISEND_ENTRY(MPI_Ibsend, SendMode::Buffered)

int MPI_Recv(void* buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
             MPI_Status* status) {
  KeepStatusError keep_error(status);
  return recv("MPI_Recv", buf, count, dt, source, tag, comm, status, nullptr);
}
int MPI_Recv_c(void* buf, MPI_Count count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
               MPI_Status* status) {
  KeepStatusError keep_error(status);
  return recv("MPI_Recv_c", buf, count, dt, source, tag, comm, status, nullptr);
}
int MPI_Irecv(void* buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
              MPI_Request* req) {
  return recv("MPI_Irecv", buf, count, dt, source, tag, comm, MPI_STATUS_IGNORE, req);
}
int MPI_Irecv_c(void* buf, MPI_Count count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                MPI_Request* req) {
  return recv("MPI_Irecv_c", buf, count, dt, source, tag, comm, MPI_STATUS_IGNORE, req);
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status) {
  return sendrecv("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                  recvtype, source, recvtag, comm, status);
}
int MPI_Sendrecv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return sendrecv("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                  recvtype, source, recvtag, comm, status);
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return sendrecv_replace("MPI_Sendrecv_replace", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status);
}
int MPI_Sendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return sendrecv_replace("MPI_Sendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status);
}

}  // extern "C"
