// SPDX-License-Identifier: Apache-2.0
// Attaching, detaching and flushing the buffers of buffered sends (MPI-4.1 3.6): the process's
// (MPI_Buffer_*), a communicator's (MPI_Comm_*_buffer) and a session's (MPI_Session_*_buffer),
// each with its large-count form. One implementation for the three owners: they differ only in
// where the buffer is kept (core/bsend_buffer.hpp) and which object an error is raised on.
#include <climits>
#include <optional>

#include "libsimmpi/comm/comm_objects.hpp"
#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/p2p/buffered_send.hpp"

namespace simmpi::mpi {
namespace {

namespace ct = runtime::call_trace;

// Where the caller keeps a buffer, and the communicator its errors are raised on; slot is
// nullptr after an error was raised (an invalid communicator or session).
struct Owner {
  BsendBufferRef* slot = nullptr;
  MPI_Comm errors_on = MPI_COMM_WORLD;
  bool is_process = false;  // the process's buffer: its calls are recorded for replay
  int error = MPI_SUCCESS;
};

Owner process_owner(ApiCall& call) {
  return Owner{&call.world.rank(call.rank).bsend, MPI_COMM_WORLD, true};
}

Owner comm_owner(ApiCall& call, MPI_Comm comm) {
  if (!call.comm(comm)) return Owner{nullptr, comm, false, MPI_ERR_COMM};
  return Owner{&call.world.rank(call.rank).comm_bsend[comm], comm, false};
}

Owner session_owner(ApiCall& call, MPI_Session session) {
  if (!CommObjects::get().rank(call.rank).sessions.find(session))
    return Owner{nullptr, MPI_COMM_SELF, false,
                 call.fail(MPI_COMM_SELF, MPI_ERR_SESSION,
                           "session=0x%08x is not an open session of this rank",
                           static_cast<unsigned>(session))};
  return Owner{&call.world.rank(call.rank).session_bsend[session], MPI_COMM_SELF, false};
}

int attach(ApiCall& call, const Owner& o, void* buffer, MPI_Count size) {
  if (!o.slot) return o.error;
  if (*o.slot)
    return call.fail(o.errors_on, MPI_ERR_BUFFER, "a buffer is already attached; detach it first");
  const bool automatic = buffer == MPI_BUFFER_AUTOMATIC;  // its size is ignored (3.6.1)
  if (!automatic && (size < 0 || (!buffer && size > 0)))
    return call.fail(o.errors_on, MPI_ERR_BUFFER, "buffer=%p size=%lld is not a buffer", buffer,
                     size);
  if (o.is_process) CallRecord(call, ct::Kind::BufferAttach).value(size);
  auto b = std::make_shared<BsendBuffer>();
  b->data = static_cast<char*>(buffer);
  b->size = automatic ? 0 : static_cast<std::uint64_t>(size);
  *o.slot = std::move(b);
  return MPI_SUCCESS;
}

// `int_size`: the caller takes the size as an int, which a buffer attached by a _c form may
// exceed; then the buffer stays attached. With none attached, the address is NULL and the size
// 0. Blocks until every buffered message has left the buffer (3.6.1).
int detach(ApiCall& call, const Owner& o, void* buffer_addr, MPI_Count* size, bool int_size) {
  if (!o.slot) return o.error;
  const BsendBufferRef b = *o.slot;
  if (int_size && b && b->size > static_cast<std::uint64_t>(INT_MAX))
    return call.fail(o.errors_on, MPI_ERR_COUNT,
                     "the attached buffer's %llu bytes do not fit an int; detach it with the _c "
                     "form of %s",
                     static_cast<unsigned long long>(b->size), call.name);
  std::optional<CallRecord> rec;  // spans the wait, as the call does
  if (o.is_process) rec.emplace(call, ct::Kind::BufferDetach);
  if (b) wait_until_empty(call, *b);
  *static_cast<void**>(buffer_addr) = b ? b->data : nullptr;
  *size = b ? static_cast<MPI_Count>(b->size) : 0;
  o.slot->reset();
  return MPI_SUCCESS;
}

int detach_int(ApiCall& call, const Owner& o, void* buffer_addr, int* size) {
  MPI_Count wide = 0;
  int err = detach(call, o, buffer_addr, &wide, /*int_size=*/true);
  if (!err) *size = static_cast<int>(wide);
  return err;
}

// Waits until the buffer is empty; a flush with none attached does nothing.
int flush(ApiCall& call, const Owner& o) {
  if (!o.slot) return o.error;
  if (*o.slot) wait_until_empty(call, **o.slot);
  return MPI_SUCCESS;
}

int iflush(ApiCall& call, const Owner& o, MPI_Request* request) {
  if (!o.slot) return o.error;
  if (!request) return call.fail(o.errors_on, MPI_ERR_ARG, "request is NULL");
  BsendBuffer none;
  *request = start_flush(call, *o.slot ? **o.slot : none);
  return MPI_SUCCESS;
}

}  // namespace
}  // namespace simmpi::mpi

using namespace simmpi::mpi;

extern "C" {

int MPI_Buffer_attach(void* buffer, int size) {
  ApiCall call("MPI_Buffer_attach");
  return attach(call, process_owner(call), buffer, size);
}
int MPI_Buffer_attach_c(void* buffer, MPI_Count size) {
  ApiCall call("MPI_Buffer_attach_c");
  return attach(call, process_owner(call), buffer, size);
}
int MPI_Buffer_detach(void* buffer_addr, int* size) {
  ApiCall call("MPI_Buffer_detach");
  return detach_int(call, process_owner(call), buffer_addr, size);
}
int MPI_Buffer_detach_c(void* buffer_addr, MPI_Count* size) {
  ApiCall call("MPI_Buffer_detach_c");
  return detach(call, process_owner(call), buffer_addr, size, /*int_size=*/false);
}
int MPI_Buffer_flush(void) {
  ApiCall call("MPI_Buffer_flush");
  return flush(call, process_owner(call));
}
int MPI_Buffer_iflush(MPI_Request* request) {
  ApiCall call("MPI_Buffer_iflush");
  return iflush(call, process_owner(call), request);
}

int MPI_Comm_attach_buffer(MPI_Comm comm, void* buffer, int size) {
  ApiCall call("MPI_Comm_attach_buffer");
  return attach(call, comm_owner(call, comm), buffer, size);
}
int MPI_Comm_attach_buffer_c(MPI_Comm comm, void* buffer, MPI_Count size) {
  ApiCall call("MPI_Comm_attach_buffer_c");
  return attach(call, comm_owner(call, comm), buffer, size);
}
int MPI_Comm_detach_buffer(MPI_Comm comm, void* buffer_addr, int* size) {
  ApiCall call("MPI_Comm_detach_buffer");
  return detach_int(call, comm_owner(call, comm), buffer_addr, size);
}
int MPI_Comm_detach_buffer_c(MPI_Comm comm, void* buffer_addr, MPI_Count* size) {
  ApiCall call("MPI_Comm_detach_buffer_c");
  return detach(call, comm_owner(call, comm), buffer_addr, size, /*int_size=*/false);
}
int MPI_Comm_flush_buffer(MPI_Comm comm) {
  ApiCall call("MPI_Comm_flush_buffer");
  return flush(call, comm_owner(call, comm));
}
int MPI_Comm_iflush_buffer(MPI_Comm comm, MPI_Request* request) {
  ApiCall call("MPI_Comm_iflush_buffer");
  return iflush(call, comm_owner(call, comm), request);
}

int MPI_Session_attach_buffer(MPI_Session session, void* buffer, int size) {
  ApiCall call("MPI_Session_attach_buffer");
  return attach(call, session_owner(call, session), buffer, size);
}
int MPI_Session_attach_buffer_c(MPI_Session session, void* buffer, MPI_Count size) {
  ApiCall call("MPI_Session_attach_buffer_c");
  return attach(call, session_owner(call, session), buffer, size);
}
int MPI_Session_detach_buffer(MPI_Session session, void* buffer_addr, int* size) {
  ApiCall call("MPI_Session_detach_buffer");
  return detach_int(call, session_owner(call, session), buffer_addr, size);
}
int MPI_Session_detach_buffer_c(MPI_Session session, void* buffer_addr, MPI_Count* size) {
  ApiCall call("MPI_Session_detach_buffer_c");
  return detach(call, session_owner(call, session), buffer_addr, size, /*int_size=*/false);
}
int MPI_Session_flush_buffer(MPI_Session session) {
  ApiCall call("MPI_Session_flush_buffer");
  return flush(call, session_owner(call, session));
}
int MPI_Session_iflush_buffer(MPI_Session session, MPI_Request* request) {
  ApiCall call("MPI_Session_iflush_buffer");
  return iflush(call, session_owner(call, session), request);
}

}  // extern "C"
