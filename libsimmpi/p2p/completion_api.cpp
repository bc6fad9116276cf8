// SPDX-License-Identifier: Apache-2.0
// Completion of requests: the Wait and Test families, MPI_Request_free, MPI_Cancel and
// MPI_Test_cancelled (MPI_Get_count and MPI_Get_elements are in datatype/query_api.cpp).
// An inactive persistent request counts as MPI_REQUEST_NULL here (MPI-3.1 3.7.3 and 3.9): waiting
// for it returns at once with an empty status, and completing an active one makes it inactive
// rather than freeing it. Generalized requests get their status from the application's query
// callback and are freed through its free callback (grequest_api.cpp).
#include <vector>

#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/p2p/generalized.hpp"
#include "libsimmpi/p2p/p2p_checks.hpp"
#include "libsimmpi/p2p/status_error.hpp"
#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {
namespace {

void empty_status(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  status->simmpi_cancelled = 0;
  status->simmpi_bytes = 0;
}

// The active requests behind `handles`; nullptr for MPI_REQUEST_NULL and inactive persistent
// requests. False after raising MPI_ERR_REQUEST for a handle that is none of these.
bool lookup(ApiCall& call, int n, const MPI_Request* handles, Request** out, int* err) {
  for (int i = 0; i < n; ++i) {
    out[i] = nullptr;
    if (handles[i] == MPI_REQUEST_NULL) continue;
    Request* r = call.world.requests().find(handles[i]);
    if (!r || r->owner != call.rank) {
      *err = call.fail(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                       "request[%d]=0x%08x is not a request of "
                       "this rank",
                       i, static_cast<unsigned>(handles[i]));
      return false;
    }
    if (!r->is_inactive()) out[i] = r;
  }
  return true;
}

// The request `h` names, inactive or not; nullptr after raising MPI_ERR_REQUEST for
// MPI_REQUEST_NULL or a handle that is not one of the caller's requests.
Request* find_own(ApiCall& call, MPI_Request h, int* err) {
  Request* r = h == MPI_REQUEST_NULL ? nullptr : call.world.requests().find(h);
  if (h == MPI_REQUEST_NULL)
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_REQUEST, "request is MPI_REQUEST_NULL");
  else if (!r || r->owner != call.rank)
    *err = call.fail(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                     "request=0x%08x is not a request of this rank", static_cast<unsigned>(h));
  return r && r->owner == call.rank ? r : nullptr;
}

bool lookup(ApiCall& call, int n, const MPI_Request* handles, std::vector<Request*>& out,
            int* err) {
  out.resize(static_cast<std::size_t>(n < 0 ? 0 : n));
  return lookup(call, n, handles, out.data(), err);
}

// Retires a complete request: its status (if wanted), then its handle set to MPI_REQUEST_NULL,
// or for a persistent request the request made inactive. Returns the error of the request
// (truncation, or a generalized request's callback) after passing it through the error handler.
int finish(ApiCall& call, Request* r, MPI_Request* handle, MPI_Status* status) {
  int err = r->kind == RequestKind::Generalized ? query_generalized(call, *r)
                                                : check_truncation(call, *r);
  if (r->persistent) {
    note_received(call.world, *r);
    if (status != MPI_STATUS_IGNORE) *status = r->status;
    r->active = false;
    return err;
  }
  int free_err = r->kind == RequestKind::Generalized ? free_generalized(call, *r) : MPI_SUCCESS;
  retire_request(call.world, r, status);
  *handle = MPI_REQUEST_NULL;
  return err ? err : free_err;
}

MPI_Status* status_at(MPI_Status* statuses, int i) {
  return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

// Completes every complete request among `reqs` into the Waitsome/Testsome outputs.
int collect_some(ApiCall& call, int n, MPI_Request* handles, std::vector<Request*>& reqs,
                 int* outcount, int* indices, MPI_Status* statuses) {
  int k = 0, err = MPI_SUCCESS;
  for (int i = 0; i < n; ++i) {
    Request* r = reqs[static_cast<std::size_t>(i)];
    if (!r || !r->is_complete(call.world.now())) continue;
    MPI_Status* st = status_at(statuses, k);
    int e = finish(call, r, &handles[i], st);
    if (e) err = MPI_ERR_IN_STATUS;
    indices[k++] = i;
  }
  *outcount = k;
  return err;
}

// Whether `r` will complete by itself: it is null, or its completion time is known.
bool will_complete(const Request* r) {
  return !r || r->complete_at != SimTime::max();
}

bool all_will_complete(const std::vector<Request*>& reqs) {
  for (Request* r : reqs)
    if (!will_complete(r)) return false;
  return true;
}

bool any_will_complete(const std::vector<Request*>& reqs) {
  for (Request* r : reqs)
    if (will_complete(r)) return true;
  return reqs.empty();
}

bool all_null(const std::vector<Request*>& reqs) {
  for (Request* r : reqs)
    if (r) return false;
  return true;
}

}  // namespace
}  // namespace simmpi::mpi

using namespace simmpi::mpi;
namespace ct = simmpi::runtime::call_trace;

extern "C" {

// MPI_Wait and MPI_Waitall leave the caller's owed time to wait_all_requests, which lets it
// pass without a switch to the caller when the caller would then block at once.
int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  simmpi::mpi::KeepStatusError keep_error(status);
  ApiCall call("MPI_Wait", ApiCall::Needs::Init, ApiCall::Settle::Ahead);
  CallRecord rec(call, ct::Kind::Wait);
  rec.value(*request);
  Request* r[1];
  int err = MPI_SUCCESS;
  if (!lookup(call, 1, request, r, &err)) {
    rec.cancel();
    return err;
  }
  if (!r[0]) {
    call.world.scheduler().settle();
    empty_status(status);
    return MPI_SUCCESS;
  }
  wait_request(call.world, *r[0]);
  return finish(call, r[0], request, status);
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  ApiCall call("MPI_Waitall", ApiCall::Needs::Init, ApiCall::Settle::Ahead);
  CallRecord rec(call, ct::Kind::Waitall);
  rec.array(requests, count);
  std::vector<Request*> r;
  int err = MPI_SUCCESS;
  if (!lookup(call, count, requests, r, &err)) {
    rec.cancel();
    return err;
  }
  wait_all_requests(call.world, r.data(), count);
  for (int i = 0; i < count; ++i) {
    MPI_Status* st = status_at(statuses, i);
    if (!r[static_cast<std::size_t>(i)]) {
      empty_status(st);
      continue;
    }
    if (finish(call, r[static_cast<std::size_t>(i)], &requests[i], st)) err = MPI_ERR_IN_STATUS;
  }
  return err;
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  simmpi::mpi::KeepStatusError keep_error(status);
  ApiCall call("MPI_Waitany");
  CallRecord rec(call, ct::Kind::Waitany);
  rec.array(requests, count).out(index);
  std::vector<Request*> r;
  int err = MPI_SUCCESS;
  if (!lookup(call, count, requests, r, &err)) {
    rec.cancel();
    return err;
  }
  *index = MPI_UNDEFINED;
  if (all_null(r)) {
    empty_status(status);
    return MPI_SUCCESS;
  }
  wait_any_request(call.world, r.data(), count);
  for (int i = 0; i < count; ++i) {
    Request* x = r[static_cast<std::size_t>(i)];
    if (x && x->is_complete(call.world.now())) {
      *index = i;
      return finish(call, x, &requests[i], status);
    }
  }
  return MPI_SUCCESS;
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  ApiCall call("MPI_Waitsome");
  CallRecord rec(call, ct::Kind::Waitsome);
  rec.array(requests, incount).out_array(indices, outcount);
  std::vector<Request*> r;
  int err = MPI_SUCCESS;
  if (!lookup(call, incount, requests, r, &err)) {
    rec.cancel();
    return err;
  }
  if (all_null(r)) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  wait_any_request(call.world, r.data(), incount);
  return collect_some(call, incount, requests, r, outcount, indices, statuses);
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  simmpi::mpi::KeepStatusError keep_error(status);
  ApiCall call("MPI_Test");
  CallRecord rec(call, ct::Kind::Test);
  rec.value(*request).out(flag);
  Request* r[1];
  int err = MPI_SUCCESS;
  if (!lookup(call, 1, request, r, &err)) {
    rec.cancel();
    return err;
  }
  call.world.charge_poll(will_complete(r[0]));
  *flag = !r[0] || r[0]->is_complete(call.world.now());
  if (!r[0]) {
    empty_status(status);
    return MPI_SUCCESS;
  }
  return *flag ? finish(call, r[0], request, status) : MPI_SUCCESS;
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  ApiCall call("MPI_Testall");
  CallRecord rec(call, ct::Kind::Testall);
  rec.array(requests, count).out(flag);
  std::vector<Request*> r;
  int err = MPI_SUCCESS;
  if (!lookup(call, count, requests, r, &err)) {
    rec.cancel();
    return err;
  }
  call.world.charge_poll(all_will_complete(r));
  *flag = 1;
  for (Request* x : r)
    if (x && !x->is_complete(call.world.now())) *flag = 0;
  if (!*flag) return MPI_SUCCESS;  // MPI-3.1 3.7.5: nothing is completed unless all are
  for (int i = 0; i < count; ++i) {
    MPI_Status* st = status_at(statuses, i);
    Request* x = r[static_cast<std::size_t>(i)];
    if (!x)
      empty_status(st);
    else if (finish(call, x, &requests[i], st))
      err = MPI_ERR_IN_STATUS;
  }
  return err;
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  simmpi::mpi::KeepStatusError keep_error(status);
  ApiCall call("MPI_Testany");
  CallRecord rec(call, ct::Kind::Testany);
  rec.array(requests, count).out(index).out(flag);
  std::vector<Request*> r;
  int err = MPI_SUCCESS;
  if (!lookup(call, count, requests, r, &err)) {
    rec.cancel();
    return err;
  }
  call.world.charge_poll(any_will_complete(r));
  *index = MPI_UNDEFINED;
  *flag = 0;
  if (all_null(r)) {
    *flag = 1;
    empty_status(status);
    return MPI_SUCCESS;
  }
  for (int i = 0; i < count; ++i) {
    Request* x = r[static_cast<std::size_t>(i)];
    if (x && x->is_complete(call.world.now())) {
      *index = i;
      *flag = 1;
      return finish(call, x, &requests[i], status);
    }
  }
  return MPI_SUCCESS;
}

int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                 MPI_Status statuses[]) {
  ApiCall call("MPI_Testsome");
  CallRecord rec(call, ct::Kind::Testsome);
  rec.array(requests, incount).out_array(indices, outcount);
  std::vector<Request*> r;
  int err = MPI_SUCCESS;
  if (!lookup(call, incount, requests, r, &err)) {
    rec.cancel();
    return err;
  }
  call.world.charge_poll(any_will_complete(r));
  if (all_null(r)) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  return collect_some(call, incount, requests, r, outcount, indices, statuses);
}

int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  simmpi::mpi::KeepStatusError keep_error(status);
  ApiCall call("MPI_Request_get_status");
  Request* r[1];
  int err = MPI_SUCCESS;
  if (!lookup(call, 1, &request, r, &err)) return err;
  call.world.charge_poll(will_complete(r[0]));
  if (!r[0]) {
    *flag = 1;
    empty_status(status);
    return MPI_SUCCESS;
  }
  *flag = r[0]->is_complete(call.world.now());
  if (*flag && status != MPI_STATUS_IGNORE) *status = r[0]->status;
  return MPI_SUCCESS;
}

// MPI-4.1 3.7.3: the multiple-request forms of MPI_Request_get_status, which like it complete
// nothing: the requests stay as they are, and a later Wait or Test still completes them.
int MPI_Request_get_status_any(int count, const MPI_Request array_of_requests[], int* index,
                               int* flag, MPI_Status* status) {
  simmpi::mpi::KeepStatusError keep_error(status);
  ApiCall call("MPI_Request_get_status_any");
  std::vector<Request*> r;
  int err = MPI_SUCCESS;
  if (!lookup(call, count, array_of_requests, r, &err)) return err;
  call.world.charge_poll(any_will_complete(r));
  *index = MPI_UNDEFINED;
  *flag = all_null(r);
  if (*flag) {
    empty_status(status);
    return MPI_SUCCESS;
  }
  for (int i = 0; i < count; ++i) {
    Request* x = r[static_cast<std::size_t>(i)];
    if (!x || !x->is_complete(call.world.now())) continue;
    *index = i;
    *flag = 1;
    if (status != MPI_STATUS_IGNORE) *status = x->status;
    break;
  }
  return MPI_SUCCESS;
}

int MPI_Request_get_status_all(int count, const MPI_Request array_of_requests[], int* flag,
                               MPI_Status* array_of_statuses) {
  ApiCall call("MPI_Request_get_status_all");
  std::vector<Request*> r;
  int err = MPI_SUCCESS;
  if (!lookup(call, count, array_of_requests, r, &err)) return err;
  call.world.charge_poll(all_will_complete(r));
  *flag = 1;
  for (Request* x : r)
    if (x && !x->is_complete(call.world.now())) *flag = 0;
  if (!*flag) return MPI_SUCCESS;
  for (int i = 0; i < count; ++i) {
    MPI_Status* st = status_at(array_of_statuses, i);
    Request* x = r[static_cast<std::size_t>(i)];
    if (!x)
      empty_status(st);
    else if (st != MPI_STATUS_IGNORE)
      *st = x->status;
  }
  return MPI_SUCCESS;
}

int MPI_Request_get_status_some(int incount, const MPI_Request array_of_requests[], int* outcount,
                                int array_of_indices[], MPI_Status* array_of_statuses) {
  ApiCall call("MPI_Request_get_status_some");
  std::vector<Request*> r;
  int err = MPI_SUCCESS;
  if (!lookup(call, incount, array_of_requests, r, &err)) return err;
  call.world.charge_poll(any_will_complete(r));
  if (all_null(r)) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  int k = 0;
  for (int i = 0; i < incount; ++i) {
    Request* x = r[static_cast<std::size_t>(i)];
    if (!x || !x->is_complete(call.world.now())) continue;
    MPI_Status* st = status_at(array_of_statuses, k);
    if (st != MPI_STATUS_IGNORE) *st = x->status;
    array_of_indices[k++] = i;
  }
  *outcount = k;
  return MPI_SUCCESS;
}

int MPI_Request_free(MPI_Request* request) {
  ApiCall call("MPI_Request_free");
  CallRecord rec(call, ct::Kind::RequestFree);
  rec.value(*request);
  int err = MPI_SUCCESS;
  Request* r = find_own(call, *request, &err);
  if (!r) {
    rec.cancel();
    return err;
  }
  if (r->kind == RequestKind::Collective && r->persistent && r->active)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                     "request of %s is active (started, not completed by MPI_Wait or MPI_Test); "
                     "a persistent collective request can only be freed when inactive "
                     "(MPI-4.1 section 6.13)",
                     r->call);
  if (r->kind == RequestKind::Collective && !r->persistent && !r->is_complete(call.world.now()))
    return call.fail(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                     "request of an active %s cannot be freed (MPI-3.1 section 5.12)", r->call);
  *request = MPI_REQUEST_NULL;
  if (r->is_inactive() || r->is_complete(call.world.now())) {
    if (r->kind == RequestKind::Generalized) err = free_generalized(call, *r);
    call.world.requests().release(r);
    return err;
  }
  r->freed = true;  // released when it completes (a generalized one by MPI_Grequest_complete)
  return MPI_SUCCESS;
}

int MPI_Cancel(MPI_Request* request) {
  ApiCall call("MPI_Cancel");
  int err = MPI_SUCCESS;
  Request* r = find_own(call, *request, &err);
  if (!r) return err;
  if (r->is_inactive())
    return call.fail(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                     "request 0x%08x is an inactive persistent request: nothing to cancel",
                     static_cast<unsigned>(*request));
  if (r->kind == RequestKind::Collective)
    return call.fail(r->comm ? r->comm->handle() : MPI_COMM_WORLD, MPI_ERR_REQUEST,
                     "request 0x%08x belongs to %s: a collective operation cannot be cancelled "
                     "(MPI-4.1 sections 6.12 and 6.13); complete it with MPI_Wait or MPI_Test",
                     static_cast<unsigned>(*request), r->call ? r->call : "a collective");
  // A receive that has not matched is withdrawn. Cancelling a send is allowed to fail
  // (MPI-3.1 3.8.4); ours always does: the message is delivered and Test_cancelled says false.
  CallRecord(call, ct::Kind::Cancel).value(*request);
  if (r->kind == RequestKind::Generalized) return cancel_generalized(call, *r);
  cancel_recv(call.world, *r);
  return MPI_SUCCESS;
}

int MPI_Test_cancelled(const MPI_Status* status, int* flag) {
  *flag = status->simmpi_cancelled;
  return MPI_SUCCESS;
}

}  // extern "C"
