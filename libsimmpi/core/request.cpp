// SPDX-License-Identifier: Apache-2.0
// The request handle table.
#include "libsimmpi/core/request.hpp"

#include <new>

#include "libsimmpi/core/world.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {

Request* RequestPool::create() {
  Request* r;
  if (!spare_.empty()) {
    r = spare_.back();
    spare_.pop_back();
    // Reset in place, on every message: destroy and default-initialize. Every member has its
    // own initializer, so `new (r) Request` (not `Request()`, whose value-initialization first
    // zeroes the whole object) gives the same values without a pass over its 250 bytes, and no
    // temporary is built and moved over as `*r = Request{}` did.
    r->~Request();
    new (r) Request;
  } else {
    storage_.push_back(std::make_unique<Request>());
    r = storage_.back().get();
  }
  std::uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<std::uint32_t>(table_.size());
    SIMMPI_ASSERT(slot < 0xFFFFFFu, "more than 16M requests alive at once");
    table_.push_back(nullptr);
  }
  table_[slot] = r;
  r->handle = SIMMPI_HANDLE(SIMMPI_KIND_REQUEST, slot);
  return r;
}

Request* RequestPool::find(MPI_Request h) const {
  auto u = static_cast<unsigned>(h);
  if ((u >> 24) != SIMMPI_KIND_REQUEST) return nullptr;
  std::size_t slot = u & 0xFFFFFFu;
  return slot < table_.size() ? table_[slot] : nullptr;
}

void RequestPool::release(Request* r) {
  std::uint32_t slot = static_cast<unsigned>(r->handle) & 0xFFFFFFu;
  SIMMPI_ASSERT(table_[slot] == r, "request released twice");
  // The last request of a communicator every member has freed ends its life.
  if (r->comm && r->comm->drop_request()) World::get().release_comm(*r->comm);
  table_[slot] = nullptr;
  r->type = nullptr;  // a type freed by the application goes now, not when the slot is reused
  r->hooks.reset();
  r->partitioned.reset();
  r->prepare_run = nullptr;  // what a persistent collective holds (views, types) goes now too
  free_slots_.push_back(slot);
  spare_.push_back(r);
}

Message* MessagePool::create() {
  if (spare_.empty()) {
    storage_.push_back(std::make_unique<Message>());
    return storage_.back().get();
  }
  Message* m = spare_.back();
  spare_.pop_back();
  m->~Message();  // reset in place, as RequestPool::create does
  new (m) Message;
  return m;
}

void MessagePool::release(Message* m) {
  m->payload.reset();  // what it holds goes now, not when the object is reused
  spare_.push_back(m);
}

}  // namespace simmpi::mpi
