// SPDX-License-Identifier: Apache-2.0
// Client/server connections (MPI-3.1 10.4): ports, MPI_Comm_accept / MPI_Comm_connect between
// two groups of the job (the spawned ones included), the job-wide name table, and
// MPI_Comm_disconnect. The two groups connect as MPI_Intercomm_create's do (join_groups): the
// roots meet at the port (the first waits for the other) and talk over a bridge of their own.
// MPI_Comm_join needs a socket between two processes, which simulated ranks of one process do
// not have: it returns MPI_ERR_UNSUPPORTED_OPERATION.
#include <cstdio>
#include <cstring>
#include <string>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/coll_context.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/comm/comm_create.hpp"
#include "libsimmpi/comm/intercomm.hpp"
#include "libsimmpi/comm/ports.hpp"
#include "libsimmpi/core/api_call.hpp"

namespace simmpi::mpi {
namespace {

// The bridge's tag, on its collective channel (the bridge carries nothing else).
constexpr int kTagConnect = 2;

// MPI_Comm_accept (`accepting`) or MPI_Comm_connect: collective over `comm`; the root's port.
int accept_or_connect(ApiCall& call, const char* port_name, int root, MPI_Comm comm, bool accepting,
                      MPI_Comm* newcomm) {
  // The collectives' own checks; the agreement is checked below without noting the root as
  // the call's peer.
  CollChecks k(call, comm, CollChecks::Intercomms::Accepted);
  k.intra_only().root(root);
  if (!k.ok()) return k.error();
  if (!newcomm) return call.fail(comm, MPI_ERR_ARG, "newcomm is NULL");
  Communicator* c = &k.comm();
  const int me = k.rank();
  std::string why;
  int err = c->check_collective(me, CollectiveSignature{call.name, root, MPI_OP_NULL, -1}, &why);
  if (err != MPI_SUCCESS) return call.fail(comm, err, "%s", why.c_str());
  // The root's port decides; the others learn the outcome before they agree on a context.
  int outcome = MPI_SUCCESS;
  Communicator* bridge = nullptr;
  if (me == root) {
    if (!port_name || !Ports::get().is_open(port_name))
      outcome = MPI_ERR_PORT;
    else
      bridge = &Ports::get().meet(call.world, port_name, accepting, call.rank);
  }
  CollContext lc(call.world, *c);
  run_bcast(lc, &outcome, static_cast<int>(sizeof outcome), 1, root);
  if (outcome != MPI_SUCCESS) {
    *newcomm = MPI_COMM_NULL;
    if (me != root) return call.fail(comm, outcome, "the root (rank %d) named no open port", root);
    return call.fail(comm, outcome, "port_name \"%s\" is not an open port (MPI_Open_port)",
                     port_name ? port_name : "(null)");
  }
  err = join_groups(call, *c, root, bridge, accepting ? 1 : 0, kTagConnect, newcomm);
  return err == MPI_SUCCESS ? MPI_SUCCESS : fail_no_context(call, comm);
}

}  // namespace
}  // namespace simmpi::mpi

using namespace simmpi::mpi;

extern "C" {

int MPI_Open_port(MPI_Info, char* port_name) {
  ApiCall call("MPI_Open_port");
  if (!port_name) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "port_name is NULL");
  std::snprintf(port_name, MPI_MAX_PORT_NAME, "%s", Ports::get().open().c_str());
  return MPI_SUCCESS;
}

int MPI_Close_port(const char* port_name) {
  ApiCall call("MPI_Close_port");
  if (!port_name || !Ports::get().close(port_name))
    return call.fail(MPI_COMM_WORLD, MPI_ERR_PORT, "port_name \"%s\" is not an open port",
                     port_name ? port_name : "(null)");
  return MPI_SUCCESS;
}

int MPI_Comm_accept(const char* port_name, MPI_Info, int root, MPI_Comm comm, MPI_Comm* newcomm) {
  ApiCall call("MPI_Comm_accept");
  return accept_or_connect(call, port_name, root, comm, true, newcomm);
}

int MPI_Comm_connect(const char* port_name, MPI_Info, int root, MPI_Comm comm, MPI_Comm* newcomm) {
  ApiCall call("MPI_Comm_connect");
  return accept_or_connect(call, port_name, root, comm, false, newcomm);
}

int MPI_Publish_name(const char* service_name, MPI_Info, const char* port_name) {
  ApiCall call("MPI_Publish_name");
  if (!service_name || !port_name)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "service_name or port_name is NULL");
  if (!Ports::get().publish(service_name, port_name))
    return call.fail(MPI_COMM_WORLD, MPI_ERR_SERVICE, "service \"%s\" is already published",
                     service_name);
  return MPI_SUCCESS;
}

int MPI_Lookup_name(const char* service_name, MPI_Info, char* port_name) {
  ApiCall call("MPI_Lookup_name");
  if (!service_name || !port_name)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "service_name or port_name is NULL");
  const std::string* port = Ports::get().lookup(service_name);
  if (!port)
    return call.fail(MPI_COMM_WORLD, MPI_ERR_NAME, "service \"%s\" is not published", service_name);
  std::snprintf(port_name, MPI_MAX_PORT_NAME, "%s", port->c_str());
  return MPI_SUCCESS;
}

int MPI_Unpublish_name(const char* service_name, MPI_Info, const char*) {
  ApiCall call("MPI_Unpublish_name");
  if (!service_name || !Ports::get().unpublish(service_name))
    return call.fail(MPI_COMM_WORLD, MPI_ERR_SERVICE, "service \"%s\" is not published",
                     service_name ? service_name : "(null)");
  return MPI_SUCCESS;
}

// MPI-3.1 10.5.3: collective over both groups; once every member has arrived (a barrier), the
// communication it carried is posted, and freeing it is MPI_Comm_free's (the object lives on
// until its pending requests complete).
int MPI_Comm_disconnect(MPI_Comm* comm) {
  ApiCall call("MPI_Comm_disconnect");
  if (!comm) return call.fail(MPI_COMM_WORLD, MPI_ERR_ARG, "comm is NULL");
  Communicator* c = call.comm(*comm);
  if (!c) return MPI_ERR_COMM;
  if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
    return call.fail(*comm, MPI_ERR_COMM, "%s cannot be disconnected", c->name().c_str());
  int err = MPI_Barrier(*comm);
  if (err != MPI_SUCCESS) return err;
  return MPI_Comm_free(comm);
}

// Two processes joined by a socket: simulated ranks are fibers of one process and have none
// between them (docs/status.md).
int MPI_Comm_join(int fd, MPI_Comm* intercomm) {
  ApiCall call("MPI_Comm_join");
  if (intercomm) *intercomm = MPI_COMM_NULL;
  return call.fail(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION,
                   "fd=%d: simmpi's ranks are fibers of one process with no socket between "
                   "them, so MPI_Comm_join cannot connect two of them; use "
                   "MPI_Open_port/MPI_Comm_accept/MPI_Comm_connect",
                   fd);
}

}  // extern "C"
