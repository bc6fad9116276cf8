// SPDX-License-Identifier: Apache-2.0
// Byte-wise messages on a communicator's collective channel.
#include "libsimmpi/coll/coll_context.hpp"

#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {

CollContext::CollContext(World& w, Communicator& comm)
    : w_(w), comm_(comm), rank_(comm.comm_rank(w.current_rank())) {}

Request* CollContext::isend(int dest, int tag, const void* buf, std::size_t bytes) {
  const Datatype& byte = *find_datatype(MPI_BYTE);
  Request* r = start_send(w_, comm_, Channel::Collective, dest, tag, buf, static_cast<int>(bytes),
                          byte, SendMode::Standard);
  r->internal = true;
  return r;
}

Request* CollContext::irecv(int source, int tag, void* buf, std::size_t bytes) {
  const Datatype& byte = *find_datatype(MPI_BYTE);
  Request* r = start_recv(w_, comm_, Channel::Collective, source, tag, buf, static_cast<int>(bytes),
                          byte);
  r->internal = true;
  return r;
}

void CollContext::wait(Request* r) {
  wait_request(w_, *r);
  retire_request(w_, r, MPI_STATUS_IGNORE);
}

void CollContext::wait_all(std::vector<Request*>& reqs) {
  for (Request* r : reqs) wait(r);
  reqs.clear();
}

void CollContext::send(int dest, int tag, const void* buf, std::size_t bytes) {
  wait(isend(dest, tag, buf, bytes));
}

void CollContext::recv(int source, int tag, void* buf, std::size_t bytes) {
  wait(irecv(source, tag, buf, bytes));
}

void CollContext::sendrecv(int dest, const void* sbuf, std::size_t sbytes, int source, void* rbuf,
                           std::size_t rbytes, int tag) {
  Request* r = irecv(source, tag, rbuf, rbytes);
  Request* s = isend(dest, tag, sbuf, sbytes);
  wait(s);
  wait(r);
}

}  // namespace simmpi::mpi
