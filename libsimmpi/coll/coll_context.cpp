// SPDX-License-Identifier: Apache-2.0
// Byte-wise messages on a communicator's collective channel.
#include "libsimmpi/coll/coll_context.hpp"

#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {

CollContext::CollContext(World& w, Communicator& comm, std::uint32_t seq)
    : w_(w), comm_(comm), seq_(seq), rank_(comm.comm_rank(w.current_rank())) {}

// The collective's number in the high bits, its phase in the low ones. Tags wrap after 2^26
// collectives on one communicator; two collectives that far apart are never in flight together.
// Collective phases (CollTag) carry the collective's number: bit 30 set, 24 bits of sequence,
// 5 bits of phase. Larger tags (the communicator calls' own, comm/comm_tags.hpp, all below
// 2^30) pass unchanged, so the two spaces never meet.
int CollContext::wire_tag(int tag) const {
  static_assert(kTagCount <= 32);
  if (tag >= kTagCount) return tag;
  return static_cast<int>(1u << 30 | (seq_ & 0xFFFFFFu) << 5) | tag;
}

Request* CollContext::isend(int dest, int tag, const void* buf, std::size_t bytes) {
  const Datatype& byte = *find_predefined_datatype(MPI_BYTE);
  Request* r = start_send(w_, comm_, Channel::Collective, dest, wire_tag(tag), buf,
                          static_cast<int>(bytes), byte, SendMode::Standard);
  r->internal = true;
  return r;
}

Request* CollContext::irecv(int source, int tag, void* buf, std::size_t bytes) {
  const Datatype& byte = *find_predefined_datatype(MPI_BYTE);
  Request* r = start_recv(w_, comm_, Channel::Collective, source, wire_tag(tag), buf,
                          static_cast<int>(bytes), byte);
  r->internal = true;
  return r;
}

std::size_t CollContext::wait(Request* r) {
  wait_request(w_, *r);
  auto bytes = r->kind == RequestKind::Recv ? static_cast<std::size_t>(r->status.simmpi_bytes) : 0;
  retire_request(w_, r, MPI_STATUS_IGNORE);
  return bytes;
}

void CollContext::wait_all(std::vector<Request*>& reqs) {
  wait_all_requests(w_, reqs.data(), static_cast<int>(reqs.size()));
  for (Request* r : reqs) wait(r);
  reqs.clear();
}

// The blocking forms take the point-to-point layer's blocking paths (send_blocking,
// recv_blocking): an eager send posted at once makes no request, and a receive's lives on the
// stack. The same simulation as a nonblocking call and its wait.
void CollContext::send(int dest, int tag, const void* buf, std::size_t bytes) {
  send_ahead(dest, tag, buf, bytes, SendAhead::Wait);
}

void CollContext::send_ahead(int dest, int tag, const void* buf, std::size_t bytes,
                             SendAhead ahead) {
  send_blocking(w_, comm_, Channel::Collective, dest, wire_tag(tag), buf, static_cast<int>(bytes),
                *find_predefined_datatype(MPI_BYTE), SendMode::Standard, ahead);
}

std::size_t CollContext::recv(int source, int tag, void* buf, std::size_t bytes) {
  Request r;
  r.internal = true;
  recv_blocking(w_, r, comm_, Channel::Collective, source, wire_tag(tag), buf,
                static_cast<int>(bytes), *find_predefined_datatype(MPI_BYTE));
  const auto got = static_cast<std::size_t>(r.status.simmpi_bytes);
  retire_request(w_, &r, MPI_STATUS_IGNORE);
  return got;
}

std::size_t CollContext::sendrecv(int dest, const void* sbuf, std::size_t sbytes, int source,
                                  void* rbuf, std::size_t rbytes, int tag) {
  Request* r = irecv(source, tag, rbuf, rbytes);
  send_ahead(dest, tag, sbuf, sbytes, SendAhead::CallerWaits);
  return wait(r);
}

}  // namespace simmpi::mpi
