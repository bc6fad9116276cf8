// SPDX-License-Identifier: Apache-2.0
// Storage requests of file accesses.
#include "libsimmpi/io/file_timing.hpp"

#include <algorithm>

#include "hardware/platform.hpp"
#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {
namespace {

void request_done(void* q, std::uint64_t, SimTime t) {
  complete_request(World::get(), static_cast<Request*>(q), t);
}

// The write half of a sieved write, started once its read is done.
struct SieveWrite {
  int node;
  hardware::Striping striping;
  std::uint64_t offset, bytes;
  Request* q;
};

void sieve_write(void* obj, std::uint64_t) {
  auto* s = static_cast<SieveWrite*>(obj);
  World::get().platform().storage().access(s->node, s->striping, s->offset, s->bytes,
                                           hardware::IoDirection::Write,
                                           hardware::ArrivalNotice{&request_done, s->q, 0});
  delete s;
}

void sieve_read_done(void* obj, std::uint64_t, SimTime t) {
  World::get().engine().schedule(t, runtime::Action{&sieve_write, obj, 0});
}

}  // namespace

Request* make_io_request(ApiCall& call, File& f) {
  Request* q = call.world.requests().create();
  q->kind = RequestKind::Collective;  // completed by the library, like a nonblocking collective
  q->owner = call.rank;
  q->waiter = call.world.scheduler().current()->id();
  q->call = call.name;
  q->comm = &f.comm();
  f.comm().add_request();
  q->status.MPI_SOURCE = MPI_ANY_SOURCE;
  q->status.MPI_TAG = MPI_ANY_TAG;
  return q;
}

void time_extent(World& w, File& f, int rank, std::int64_t offset, std::uint64_t bytes,
                 hardware::IoDirection dir, Request* q) {
  w.platform().storage().access(w.platform().node_of(rank), f.striping,
                                static_cast<std::uint64_t>(offset), bytes, dir,
                                hardware::ArrivalNotice{&request_done, q, 0});
}

void time_access(World& w, File& f, int rank, const std::vector<FileSegment>& segments,
                 std::uint64_t bytes, hardware::IoDirection dir, Request* q) {
  if (bytes == 0 || segments.empty()) {
    complete_request(w, q, w.now());
    return;
  }
  // The extent the first `bytes` of the stream cover, and whether they are contiguous.
  std::int64_t lo = segments.front().offset, hi = lo;
  std::uint64_t covered = 0;
  bool contiguous = true;
  for (const FileSegment& g : segments) {
    if (covered >= bytes) break;
    std::uint64_t n = std::min(g.len, bytes - covered);
    if (g.offset != hi) contiguous = false;
    lo = std::min(lo, g.offset);
    hi = std::max(hi, g.offset + static_cast<std::int64_t>(n));
    covered += n;
  }
  auto extent = static_cast<std::uint64_t>(hi - lo);
  if (contiguous || dir == hardware::IoDirection::Read) {
    time_extent(w, f, rank, lo, extent, dir, q);
    return;
  }
  int node = w.platform().node_of(rank);
  auto* s = new SieveWrite{node, f.striping, static_cast<std::uint64_t>(lo), extent, q};
  w.platform().storage().access(node, f.striping, s->offset, extent, hardware::IoDirection::Read,
                                hardware::ArrivalNotice{&sieve_read_done, s, 0});
}

void wait_metadata(ApiCall& call) {
  Request* q = call.world.requests().create();
  q->kind = RequestKind::Collective;
  q->owner = call.rank;
  q->waiter = call.world.scheduler().current()->id();
  q->call = call.name;
  call.world.platform().storage().metadata(call.world.platform().node_of(call.rank),
                                           hardware::ArrivalNotice{&request_done, q, 0});
  wait_request(call.world, *q);
  retire_request(call.world, q, MPI_STATUS_IGNORE);
}

}  // namespace simmpi::mpi
