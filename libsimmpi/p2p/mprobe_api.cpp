// SPDX-License-Identifier: Apache-2.0
// Matched probes (MPI-3.1 3.8.2): MPI_Mprobe and MPI_Improbe take the first matching message
// whose envelope has arrived out of the matching queue and name it by an MPI_Message handle;
// MPI_Mrecv and MPI_Imrecv receive exactly that message, whatever receives were posted since.
// The message's payload moves as it would for any receive posted at the MPI_Mrecv: an eager
// payload may already be in, a rendezvous transfer starts then.
#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/p2p/matched_messages.hpp"
#include "libsimmpi/p2p/p2p_checks.hpp"
#include "libsimmpi/p2p/probe.hpp"
#include "libsimmpi/p2p/status_error.hpp"
#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {
namespace {

// Claims message `m` (found by a probe on `comm`) for the caller under a new handle.
MPI_Message claim(ApiCall& call, Communicator& comm, const Message* m, MPI_Status* status) {
  message_status(*m, status);
  comm.add_request();
  return MatchedMessages::get().add(call.rank, {claim_unexpected(call.world, m), &comm});
}

int mprobe(const char* name, int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
           MPI_Status* status) {
  ApiCall call(name, ApiCall::Needs::Init,
               flag ? ApiCall::Settle::Later : ApiCall::Settle::Now);  // polls settle themselves
  P2PTarget t = check_p2p(call, Direction::Recv, nullptr, 0, MPI_BYTE, source, tag, comm);
  if (!t.ok()) return t.error;
  if (!message) return call.fail(comm, MPI_ERR_ARG, "message is NULL");
  namespace ct = runtime::call_trace;
  CallRecord rec(call, flag ? ct::Kind::Improbe : ct::Kind::Mprobe);
  rec.value(source).value(tag).value(comm);
  if (flag) rec.out(flag);
  int matched_source = MPI_PROC_NULL, matched_tag = MPI_ANY_TAG;
  MPI_Message made = MPI_MESSAGE_NULL;
  rec.out(&matched_source).out(&matched_tag).out(&made);
  if (source == MPI_PROC_NULL) {
    if (flag) *flag = 1;
    *message = made = MPI_MESSAGE_NO_PROC;
    proc_null_status(status);
    return MPI_SUCCESS;
  }
  const Message* m = flag ? poll_for_message(call, *t.comm, source, tag)
                          : wait_for_message(call, *t.comm, source, tag);
  if (flag) *flag = m != nullptr;
  if (m) {
    note_probed(call, *m);
    MPI_Status st;
    *message = made = claim(call, *t.comm, m, &st);
    matched_source = st.MPI_SOURCE;
    matched_tag = st.MPI_TAG;
    if (status != MPI_STATUS_IGNORE) *status = st;
  }
  return MPI_SUCCESS;
}

// Starts the receive of matched message *message into a request, or nullptr after raising the
// error in *err. Sets *message to MPI_MESSAGE_NULL (MPI-3.1 3.8.3).
Request* mrecv(ApiCall& call, void* buf, MPI_Count count, MPI_Datatype datatype,
               MPI_Message* message, int* err) {
  if (!message) {
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "message is NULL");
    return nullptr;
  }
  if (*message == MPI_MESSAGE_NO_PROC) {
    *message = MPI_MESSAGE_NULL;
    return null_peer_request(call.world, RequestKind::Recv);
  }
  MatchedMessages::Entry* e = MatchedMessages::get().find(call.rank, *message);
  if (!e) {
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                     "message=0x%08x is not a message matched by this rank's MPI_Mprobe or "
                     "MPI_Improbe (each is received once)",
                     static_cast<unsigned>(*message));
    return nullptr;
  }
  MPI_Comm comm = e->comm->handle();
  if (count < 0) {
    *err = call.fail(comm, MPI_ERR_COUNT, "count=%d is negative", count);
    return nullptr;
  }
  const Datatype* type = call.datatype(datatype, comm);
  if (!type) {
    *err = MPI_ERR_TYPE;
    return nullptr;
  }
  MatchedMessages::Entry entry = *e;
  MatchedMessages::get().remove(call.rank, *message);
  *message = MPI_MESSAGE_NULL;
  Request* r = start_matched_recv(call.world, *entry.comm, entry.message, buf, count, *type);
  entry.comm->drop_request();  // the request holds the communicator now
  return r;
}

// MPI_Mrecv and MPI_Mrecv_c.
int blocking_mrecv(const char* name, void* buf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Message* message, MPI_Status* status) {
  KeepStatusError keep_error(status);
  ApiCall call(name);
  CallRecord rec(call, runtime::call_trace::Kind::Mrecv);
  rec.value(count).type(datatype).value(message ? *message : MPI_MESSAGE_NULL);
  int err = MPI_SUCCESS;
  Request* r = mrecv(call, buf, count, datatype, message, &err);
  if (!r) {
    rec.cancel();
    return err;
  }
  wait_request(call.world, *r);
  err = check_truncation(call, *r);
  retire_request(call.world, r, status);
  return err;
}

// MPI_Imrecv and MPI_Imrecv_c.
int nonblocking_mrecv(const char* name, void* buf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Message* message, MPI_Request* request) {
  ApiCall call(name);
  if (!request) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "request is NULL");
  CallRecord rec(call, runtime::call_trace::Kind::Imrecv);
  rec.value(count).type(datatype).value(message ? *message : MPI_MESSAGE_NULL).out(request);
  int err = MPI_SUCCESS;
  Request* r = mrecv(call, buf, count, datatype, message, &err);
  if (!r) {
    rec.cancel();
    return err;
  }
  *request = r->handle;
  return MPI_SUCCESS;
}

}  // namespace
}  // namespace simmpi::mpi

using namespace simmpi::mpi;

extern "C" {

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  simmpi::mpi::KeepStatusError keep_error(status);
  return mprobe("MPI_Mprobe", source, tag, comm, nullptr, message, status);
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                MPI_Status* status) {
  simmpi::mpi::KeepStatusError keep_error(status);
  if (!flag) {
    ApiCall call("MPI_Improbe");
    return call.fail(comm, MPI_ERR_ARG, "flag is NULL");
  }
  return mprobe("MPI_Improbe", source, tag, comm, flag, message, status);
}

int MPI_Mrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message,
              MPI_Status* status) {
  return blocking_mrecv("MPI_Mrecv", buf, count, datatype, message, status);
}
int MPI_Mrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message,
                MPI_Status* status) {
  return blocking_mrecv("MPI_Mrecv_c", buf, count, datatype, message, status);
}

int MPI_Imrecv(void* buf, int count, MPI_Datatype datatype, MPI_Message* message,
               MPI_Request* request) {
  return nonblocking_mrecv("MPI_Imrecv", buf, count, datatype, message, request);
}
int MPI_Imrecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, MPI_Message* message,
                 MPI_Request* request) {
  return nonblocking_mrecv("MPI_Imrecv_c", buf, count, datatype, message, request);
}

}  // extern "C"
