// SPDX-License-Identifier: Apache-2.0
// Auxiliary processes that carry nonblocking collectives.
#include "libsimmpi/coll/nonblocking.hpp"

#include <memory>
#include <string>
#include <utility>

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

Request* collective_request(World& w, Communicator& comm, int rank, const char* call) {
  Request* r = w.requests().create();
  r->kind = RequestKind::Collective;
  r->owner = rank;
  r->waiter = w.scheduler().current()->id();
  r->call = call;
  r->comm = &comm;
  comm.add_request();  // the communicator outlives its pending collective (MPI_Comm_free)
  r->context = comm.context_id() + 1;
  r->status.MPI_SOURCE = MPI_ANY_SOURCE;
  r->status.MPI_TAG = MPI_ANY_TAG;
  r->status.MPI_ERROR = MPI_SUCCESS;
  return r;
}

}  // namespace

void launch_nonblocking(ApiCall& call, Communicator& comm, MPI_Request* request,
                        NonblockingBody body) {
  World& w = call.world;
  Request* r = collective_request(w, comm, call.rank, call.name);
  *request = r->handle;
  auto* task = new Task{&w, r, call.name, std::move(body)};
  w.scheduler().spawn_auxiliary(call.rank, std::string("nonblocking ") + call.name, &run_task,
                                task);
}

int launch_collective(ApiCall& call, Communicator& comm, std::uint32_t seq, MPI_Request* request,
                      CollBody body) {
  World& w = call.world;
  if (!request) {
    CollContext c(w, comm, seq);
    body(c);
    return MPI_SUCCESS;
  }
  launch_nonblocking(call, comm, request, [&w, &comm, seq, body = std::move(body)](Request&) {
    CollContext c(w, comm, seq);
    body(c);
  });
  return MPI_SUCCESS;
}

int null_request_error(const char* name) {
  ApiCall call(name);
  return call.fail(MPI_COMM_WORLD, MPI_ERR_REQUEST, "request is NULL");
}

}  // namespace simmpi::mpi
