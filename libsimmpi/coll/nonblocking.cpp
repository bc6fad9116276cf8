// SPDX-License-Identifier: Apache-2.0
// Auxiliary processes that carry nonblocking and persistent collectives.
#include "libsimmpi/coll/nonblocking.hpp"

#include <memory>
#include <string>
#include <utility>

#include "libsimmpi/core/call_record.hpp"
#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {
namespace {

struct Task {
  World* world;
  Request* request;
  const char* call;
  NonblockingBody body;
};

void run_task(void* arg) {
  std::unique_ptr<Task> t(static_cast<Task*>(arg));
  t->world->scheduler().current()->current_call = t->call;
  t->body(*t->request);
  complete_request(*t->world, t->request, t->world->now());
}

// Makes `r` pending, waited for by the calling process, with an empty status.
void make_pending(World& w, Request& r) {
  r.waiter = w.scheduler().current()->id();
  r.complete_at = SimTime::max();
  r.own_tail = SimTime();
  r.status = MPI_Status{};
  r.status.MPI_SOURCE = MPI_ANY_SOURCE;
  r.status.MPI_TAG = MPI_ANY_TAG;
  r.status.MPI_ERROR = MPI_SUCCESS;
}

Request* collective_request(World& w, Communicator& comm, int rank, const char* call) {
  Request* r = w.requests().create();
  r->kind = RequestKind::Collective;
  r->owner = rank;
  r->call = call;
  r->comm = &comm;
  comm.add_request();  // the communicator outlives its pending collective (MPI_Comm_free)
  r->context = comm.context_id() + 1;
  make_pending(w, *r);
  return r;
}

// Runs `body` on a new auxiliary process of r's owner ("<kind> <call>" in reports), which
// completes `r` when it returns.
void run_on_auxiliary(World& w, Request& r, const char* kind, NonblockingBody body) {
  auto* task = new Task{&w, &r, r.call, std::move(body)};
  w.scheduler().spawn_auxiliary(r.owner, std::string(kind) + " " + r.call, &run_task, task);
}

// What an auxiliary process runs for collective `seq` of `comm`.
NonblockingBody collective_run(World& w, Communicator& comm, std::uint32_t seq, CollBody body) {
  return [&w, &comm, seq, body = std::move(body)](Request&) {
    CollContext c(w, comm, seq);
    body(c);
  };
}

}  // namespace

void launch_nonblocking(ApiCall& call, Communicator& comm, MPI_Request* request,
                        NonblockingBody body) {
  World& w = call.world;
  Request* r = collective_request(w, comm, call.rank, call.name);
  *request = r->handle;
  run_on_auxiliary(w, *r, "nonblocking", std::move(body));
}

int launch_collective(ApiCall& call, Communicator& comm, std::uint32_t seq, CollRequest request,
                      CollStart start) {
  World& w = call.world;
  if (!request.handle) {
    CollContext c(w, comm, seq);
    start()(c);
    return MPI_SUCCESS;
  }
  if (!request.persistent) {
    launch_nonblocking(call, comm, request.handle, collective_run(w, comm, seq, start()));
    return MPI_SUCCESS;
  }
  Request* r = collective_request(w, comm, call.rank, call.name);
  r->persistent = true;
  r->active = false;
  r->prepare_run = [&w, &comm, seq, start = std::move(start)] {
    return collective_run(w, comm, seq, start());
  };
  *request.handle = r->handle;
  return MPI_SUCCESS;
}

void start_persistent_collective(World& w, Request& r) {
  make_pending(w, r);
  run_on_auxiliary(w, r, "persistent", r.prepare_run());
}

void record_request(CallRecord& rec, const CollRequest& request) {
  if (request.persistent) rec.persistent();
  rec.request(request.handle);
}

int null_request_error(const char* name) {
  ApiCall call(name);
  return call.fail(MPI_COMM_WORLD, MPI_ERR_REQUEST, "request is NULL");
}

}  // namespace simmpi::mpi
