// SPDX-License-Identifier: Apache-2.0
// simmpi-replay's handles, types, operations and buffers (see replayer.hpp).
#include <simmpi.h>

#include <algorithm>

#include "tools/replay/collective_call.hpp"
#include "tools/replay/replayer.hpp"

namespace simmpi::replay {

namespace ct = runtime::call_trace;

namespace {

// The user operations' function: the replay's data is meaningless, only the time counts.
void no_op(void*, void*, int*, MPI_Datatype*) {}

std::string hex(std::int64_t h) {
  char s[32];
  std::snprintf(s, sizeof s, "0x%08llx", static_cast<unsigned long long>(h));
  return s;
}

}  // namespace

MPI_Comm Replayer::comm(std::int64_t recorded) {
  auto c = comms_.find(recorded);
  if (c != comms_.end()) return c->second;
  auto d = idup_comms_.find(recorded);  // made by an MPI_Comm_idup: first use
  if (d == idup_comms_.end())
    in_.fail("communicator " + hex(recorded) + " was not made by an earlier record");
  if (*d->second == MPI_COMM_NULL)
    in_.fail("communicator " + hex(recorded) +
             " is used before the replay's MPI_Comm_idup that makes it completed");
  made_comm(recorded, *d->second);
  idup_comms_.erase(d);
  return comms_[recorded];
}

std::int64_t Replayer::comm_size(MPI_Comm c) {
  auto s = sizes_.find(c);
  return s == sizes_.end() ? 0 : s->second;
}

MPI_Request& Replayer::request(std::int64_t recorded) {
  static MPI_Request null = MPI_REQUEST_NULL;
  if (recorded == MPI_REQUEST_NULL) return null = MPI_REQUEST_NULL;
  auto q = requests_.find(recorded);
  if (q == requests_.end())
    in_.fail("request " + hex(recorded) + " was not made by an earlier record");
  return q->second;
}

void Replayer::made(std::int64_t recorded, MPI_Request ours) {
  requests_[recorded] = ours;
}

void Replayer::made(const Nonblocking& nb) {
  if (!nb.is_blocking()) made(nb.recorded, nb.q);
}

// After a call that may have completed it. A completed request's recorded handle stays, as
// MPI_REQUEST_NULL, until a record makes it again: where the replay completed it before the
// recording did (a wait for any on another platform, or one whose status was not recorded), the
// program's later calls still name it, and complete it as the null request it now is.
void Replayer::update(std::int64_t recorded, MPI_Request ours) {
  if (recorded == MPI_REQUEST_NULL) return;
  requests_[recorded] = ours;
}

std::vector<MPI_Request> Replayer::requests(const std::vector<int>& recorded) {
  std::vector<MPI_Request> q;
  q.reserve(recorded.size());
  for (int h : recorded) q.push_back(request(h));
  return q;
}

void Replayer::put_back(const std::vector<int>& recorded, const std::vector<MPI_Request>& ours) {
  for (std::size_t i = 0; i < recorded.size(); ++i) update(recorded[i], ours[i]);
}

MPI_Datatype Replayer::type(std::int64_t recorded, int* count, bool reduction) {
  if (recorded >= 0) return static_cast<MPI_Datatype>(recorded);
  if (reduction) in_.fail("a reduction on a derived datatype is not replayed (not implemented)");
  *count *= static_cast<int>(-1 - recorded);  // a derived type: its bytes
  return MPI_BYTE;
}

MPI_Op Replayer::op(std::int64_t recorded) {
  if (recorded != ct::kUserOpCommutative && recorded != ct::kUserOpNoncommutative)
    return static_cast<MPI_Op>(recorded);
  const bool commutative = recorded == ct::kUserOpCommutative;
  MPI_Op& o = user_ops_[commutative ? 0 : 1];
  if (o == MPI_OP_NULL) MPI_Op_create(&no_op, commutative ? 1 : 0, &o);
  return o;
}

void* Replayer::folded(Buffer& b, std::int64_t elements) {
  const auto bytes =
      static_cast<std::size_t>(std::max<std::int64_t>(elements, 1) * kLargestElement);
  if (bytes > b.bytes) {
    if (b.p) outgrown_.push_back(b.p);
    b.bytes = std::max(bytes, 2 * b.bytes);
    b.p = simmpi_shared_malloc(b.bytes);
  }
  return b.p;
}

void* Replayer::send_buffer(std::int64_t elements) {
  return folded(send_, elements);
}

void* Replayer::recv_buffer(std::int64_t elements) {
  return folded(recv_, elements);
}

}  // namespace simmpi::replay
