// SPDX-License-Identifier: Apache-2.0
// Generalized requests and the status setters that go with them (MPI-3.1 12.2 and 12.3):
// MPI_Grequest_start, MPI_Grequest_complete, MPI_Status_set_elements(_x),
// MPI_Status_set_cancelled. A generalized request is pending until the application calls
// MPI_Grequest_complete; ranks are fibers, so a rank that waits for one it has not completed
// itself waits forever, and the deadlock report names the request.
#include <climits>

#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/p2p/generalized.hpp"
#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {

int query_generalized(ApiCall& call, Request& r) {
  GeneralizedHooks& h = *r.hooks;
  int err = h.query ? h.query(h.extra_state, &r.status) : MPI_SUCCESS;
  if (err == MPI_SUCCESS) return MPI_SUCCESS;
  return call.fail(MPI_COMM_WORLD, err, "the query_fn of generalized request 0x%08x returned %d",
                   static_cast<unsigned>(r.handle), err);
}

int free_generalized(ApiCall& call, Request& r) {
  GeneralizedHooks& h = *r.hooks;
  MPI_Grequest_free_function* fn = h.free;
  h.free = nullptr;  // once
  int err = fn ? fn(h.extra_state) : MPI_SUCCESS;
  if (err == MPI_SUCCESS) return MPI_SUCCESS;
  return call.fail(MPI_COMM_WORLD, err, "the free_fn of generalized request 0x%08x returned %d",
                   static_cast<unsigned>(r.handle), err);
}

int cancel_generalized(ApiCall& call, Request& r) {
  GeneralizedHooks& h = *r.hooks;
  int complete = r.is_complete(call.world.now());
  int err = h.cancel ? h.cancel(h.extra_state, complete) : MPI_SUCCESS;
  if (err == MPI_SUCCESS) return MPI_SUCCESS;
  return call.fail(MPI_COMM_WORLD, err, "the cancel_fn of generalized request 0x%08x returned %d",
                   static_cast<unsigned>(r.handle), err);
}

namespace {

// The packed bytes of `count` basic elements of `t`: whole elements, then the first basic
// elements of one more, found by scanning its bytes (an application-side call, rarely made).
std::uint64_t element_bytes(const Datatype& t, MPI_Count count) {
  std::int64_t per = t.map.elements();
  if (per <= 0) return 0;
  auto whole = static_cast<std::uint64_t>(count / per);
  std::int64_t rest = count % per;
  std::uint64_t b = 0;
  while (rest > 0 && b < t.size && t.map.count_elements(b) != rest) ++b;
  return whole * t.size + b;
}

// Elements of a basic type are its size in bytes; simmpi's status counts bytes. One
// implementation for the int, _x and _c forms.
int set_elements(const char* name, MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  ApiCall call(name, ApiCall::Needs::Nothing);
  const Datatype* t = call.datatype(datatype, MPI_COMM_WORLD);
  if (!t) return MPI_ERR_TYPE;
  if (count < 0)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_COUNT, "count=%lld is negative",
                     static_cast<long long>(count));
  if (!status || status == MPI_STATUS_IGNORE)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "status is NULL or MPI_STATUS_IGNORE");
  status->simmpi_bytes = static_cast<long long>(element_bytes(*t, count));
  return MPI_SUCCESS;
}

}  // namespace
}  // namespace simmpi::mpi

using namespace simmpi::mpi;

extern "C" {

int MPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                       MPI_Grequest_cancel_function* cancel_fn, void* extra_state,
                       MPI_Request* request) {
  ApiCall call("MPI_Grequest_start");
  if (!request) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "request is NULL");
  World& w = call.world;
  Request* r = w.requests().create();
  r->kind = RequestKind::Generalized;
  r->owner = call.rank;
  r->waiter = w.scheduler().current()->id();
  r->call = "MPI_Grequest_start";
  r->hooks = std::make_unique<GeneralizedHooks>(
      GeneralizedHooks{query_fn, free_fn, cancel_fn, extra_state});
  *request = r->handle;
  CallRecord(call, simmpi::runtime::call_trace::Kind::GrequestStart).value(*request);
  return MPI_SUCCESS;
}

int MPI_Grequest_complete(MPI_Request request) {
  ApiCall call("MPI_Grequest_complete");
  Request* r = call.world.requests().find(request);
  if (!r || r->owner != call.rank || r->kind != RequestKind::Generalized)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                     "request=0x%08x is not a generalized request of this rank (made by "
                     "MPI_Grequest_start)",
                     static_cast<unsigned>(request));
  if (r->complete_at != SimTime::max())
    return call.fail(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                     "generalized request 0x%08x is already complete",
                     static_cast<unsigned>(request));
  CallRecord(call, simmpi::runtime::call_trace::Kind::GrequestComplete).value(request);
  if (r->freed) {  // MPI_Request_free came first: nobody will ask for the status
    int err = free_generalized(call, *r);
    call.world.requests().release(r);
    return err;
  }
  complete_request(call.world, r, call.world.now());
  return MPI_SUCCESS;
}

int MPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  return set_elements("MPI_Status_set_elements_x", status, datatype, count);
}
int MPI_Status_set_elements(MPI_Status* status, MPI_Datatype datatype, int count) {
  return set_elements("MPI_Status_set_elements", status, datatype, count);
}
int MPI_Status_set_elements_c(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  return set_elements("MPI_Status_set_elements_c", status, datatype, count);
}

int MPI_Status_set_cancelled(MPI_Status* status, int flag) {
  if (!status || status == MPI_STATUS_IGNORE) {
    ApiCall call("MPI_Status_set_cancelled", ApiCall::Needs::Nothing);
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "status is NULL or MPI_STATUS_IGNORE");
  }
  status->simmpi_cancelled = flag != 0;
  return MPI_SUCCESS;
}

}  // extern "C"
