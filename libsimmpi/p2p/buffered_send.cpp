// SPDX-License-Identifier: Apache-2.0
// The choice of a buffered send's buffer, and its release (see buffered_send.hpp).
#include "libsimmpi/p2p/buffered_send.hpp"

#include <algorithm>

#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {

BsendBufferRef bsend_buffer_for(World& w, int world_rank, MPI_Comm comm) {
  RankState& st = w.rank(world_rank);
  if (auto c = st.comm_bsend.find(comm); c != st.comm_bsend.end() && c->second) return c->second;
  if (auto s = st.session_of_comm.find(comm); s != st.session_of_comm.end())
    if (auto b = st.session_bsend.find(s->second); b != st.session_bsend.end() && b->second)
      return b->second;
  return st.bsend;
}

void release_bsend(World& w, Message& m) {
  if (!m.bsend_charge || !m.bsend_buffer) return;
  BsendBuffer& b = *m.bsend_buffer;
  b.used -= m.bsend_charge;
  m.bsend_charge = 0;
  w.scheduler().wake(w.scheduler().process(m.src_world), w.now());  // MPI_Buffer_detach waits
  for (int thread : w.rank(m.src_world).threads)  // (or one of the rank's threads does)
    w.scheduler().wake(w.scheduler().process(thread), w.now());
  if (b.used == 0) {
    std::vector<Request*> flushes;
    flushes.swap(b.flushes);
    for (Request* r : flushes) complete_request(w, r, w.now());
  }
  m.bsend_buffer.reset();
}

void wait_until_empty(ApiCall& call, const BsendBuffer& b) {
  while (b.used > 0) call.world.scheduler().block(runtime::WaitReason{call.name, nullptr, nullptr});
}

MPI_Request start_flush(ApiCall& call, BsendBuffer& b) {
  World& w = call.world;
  Request* r = w.requests().create();
  r->kind = RequestKind::Send;
  r->mode = SendMode::Buffered;
  r->owner = call.rank;
  r->waiter = w.scheduler().current()->id();
  r->call = call.name;
  r->status.MPI_SOURCE = MPI_ANY_SOURCE;
  r->status.MPI_TAG = MPI_ANY_TAG;
  if (b.used == 0)
    r->complete_at = w.now();
  else
    b.flushes.push_back(r);
  return r->handle;
}

}  // namespace simmpi::mpi
