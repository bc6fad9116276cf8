// SPDX-License-Identifier: Apache-2.0
// MPI_Isendrecv and MPI_Isendrecv_replace (MPI-4.1 3.10.2). The call posts its receive, then its
// send, exactly as MPI_Irecv and MPI_Isend would (so they match and cost what those do); the
// request it returns is completed by an auxiliary process of the rank that waits for both
// (coll/nonblocking.hpp), and carries the receive's status.
#include <cstring>
#include <memory>

#include "libsimmpi/coll/nonblocking.hpp"
#include "libsimmpi/p2p/p2p_checks.hpp"
#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {
namespace {

// One half of the exchange: a request posted to a peer, or one complete at once for
// MPI_PROC_NULL.
Request* post_half(ApiCall& call, const P2PTarget& t, Direction dir, const void* buf,
                   MPI_Count count, int peer, int tag) {
  World& w = call.world;
  if (peer == MPI_PROC_NULL)
    return null_peer_request(w, dir == Direction::Send ? RequestKind::Send : RequestKind::Recv);
  if (dir == Direction::Recv)
    return start_recv(w, *t.comm, Channel::User, peer, tag, const_cast<void*>(buf), count, *t.type);
  return start_send(w, *t.comm, Channel::User, peer, tag, buf, count, *t.type, SendMode::Standard);
}

// Waits for both halves on the auxiliary process and hands the receive's status, and what a
// truncation report needs, to the request the application holds.
void finish_exchange(World& w, Request* recv, Request* send, Request& outer) {
  const int me = w.scheduler().current()->id();
  recv->waiter = send->waiter = me;
  Request* both[2] = {recv, send};
  wait_all_requests(w, both, 2);
  outer.status = recv->status;
  outer.message_bytes = recv->message_bytes;
  outer.count = recv->count;
  outer.type = recv->type;
  retire_request(w, send, MPI_STATUS_IGNORE);
  retire_request(w, recv, MPI_STATUS_IGNORE);
}

int isendrecv(ApiCall& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
              int dest, int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
              int source, int recvtag, MPI_Comm comm, MPI_Request* request,
              std::shared_ptr<char[]> send_copy = nullptr) {
  if (!request) return call.fail(comm, MPI_ERR_REQUEST, "request is NULL");
  P2PTarget rt =
      check_p2p(call, Direction::Recv, recvbuf, recvcount, recvtype, source, recvtag, comm);
  if (!rt.ok()) return rt.error;
  P2PTarget st =
      check_p2p(call, Direction::Send, sendbuf, sendcount, sendtype, dest, sendtag, comm);
  if (!st.ok()) return st.error;
  Request* recv = post_half(call, rt, Direction::Recv, recvbuf, recvcount, source, recvtag);
  Request* send = post_half(call, st, Direction::Send, sendbuf, sendcount, dest, sendtag);
  World& w = call.world;
  // The halves may be posted ahead of the clock (Scheduler::post_ahead); the auxiliary process
  // must find them posted.
  w.scheduler().catch_up();
  launch_nonblocking(call, *rt.comm, request, [&w, recv, send, send_copy](Request& outer) {
    finish_exchange(w, recv, send, outer);
  });
  return MPI_SUCCESS;
}

int isendrecv_replace(const char* name, void* buf, MPI_Count count, MPI_Datatype datatype, int dest,
                      int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Request* request) {
  ApiCall call(name);
  P2PTarget t = check_p2p(call, Direction::Recv, buf, count, datatype, source, recvtag, comm);
  if (!t.ok()) return t.error;
  const std::size_t bytes = t.type->size * static_cast<std::size_t>(count);
  std::shared_ptr<char[]> copy(new char[bytes ? bytes : 1]);
  if (bytes) pack(buf, count, *t.type, copy.get());
  return isendrecv(call, copy.get(), static_cast<MPI_Count>(bytes), MPI_BYTE, dest, sendtag, buf,
                   count, datatype, source, recvtag, comm, request, copy);
}

}  // namespace
}  // namespace simmpi::mpi

using namespace simmpi::mpi;

extern "C" {

int MPI_Isendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Request* request) {
  ApiCall call("MPI_Isendrecv");
  return isendrecv(call, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                   source, recvtag, comm, request);
}
int MPI_Isendrecv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                    int source, int recvtag, MPI_Comm comm, MPI_Request* request) {
  ApiCall call("MPI_Isendrecv_c");
  return isendrecv(call, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                   source, recvtag, comm, request);
}

// The outgoing data is packed at the call, so the receive may overwrite the buffer at once.
int MPI_Isendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Request* request) {
  return isendrecv_replace("MPI_Isendrecv_replace", buf, count, datatype, dest, sendtag, source,
                           recvtag, comm, request);
}
int MPI_Isendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm,
                            MPI_Request* request) {
  return isendrecv_replace("MPI_Isendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                           recvtag, comm, request);
}

}  // extern "C"
