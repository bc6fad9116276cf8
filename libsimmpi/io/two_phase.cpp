// SPDX-License-Identifier: Apache-2.0
// The rounds of two-phase collective I/O.
#include "libsimmpi/io/two_phase.hpp"

#include <algorithm>

#include "libsimmpi/coll/coll_checks.hpp"
#include "libsimmpi/coll/dispatch.hpp"
#include "libsimmpi/coll/scratch.hpp"
#include "libsimmpi/io/file_timing.hpp"
#include "libsimmpi/p2p/transport.hpp"

namespace simmpi::mpi {
namespace {

struct Extent {
  std::int64_t lo, hi;  // [lo, hi), empty when lo >= hi
};

Extent extent_of(const std::vector<FileSegment>& segs) {
  if (segs.empty()) return {0, 0};
  return {segs.front().offset, segs.back().offset + static_cast<std::int64_t>(segs.back().len)};
}

// The bytes of `segs` (increasing offsets) within [lo, hi), and the span they cover there.
struct Overlap {
  std::uint64_t bytes = 0;
  std::int64_t first = 0, last = 0;
};
Overlap overlap(const std::vector<FileSegment>& segs, std::int64_t lo, std::int64_t hi) {
  Overlap o;
  auto it = std::partition_point(segs.begin(), segs.end(), [&](const FileSegment& g) {
    return g.offset + static_cast<std::int64_t>(g.len) <= lo;
  });
  for (; it != segs.end() && it->offset < hi; ++it) {
    std::int64_t a = std::max(lo, it->offset);
    std::int64_t b = std::min(hi, it->offset + static_cast<std::int64_t>(it->len));
    if (a >= b) continue;
    if (o.bytes == 0) o.first = a;
    o.last = b;
    o.bytes += static_cast<std::uint64_t>(b - a);
  }
  return o;
}

// The domain of each aggregator: [lo, hi) cut evenly, in stripe-size multiples.
std::vector<Extent> file_domains(const File& f, Extent all) {
  const auto n = static_cast<std::int64_t>(f.aggregators.size());
  const auto unit = static_cast<std::int64_t>(f.striping.unit_bytes);
  std::int64_t size = (all.hi - all.lo + n - 1) / n;
  size = (size + unit - 1) / unit * unit;
  std::vector<Extent> d;
  for (std::int64_t a = 0; a < n; ++a)
    d.push_back({std::min(all.hi, all.lo + a * size), std::min(all.hi, all.lo + (a + 1) * size)});
  return d;
}

// An aggregator's storage request for the round, waited for: the span its members' pieces
// cover, read first if they leave holes there (a write) .
void aggregator_io(CollContext& cc, File& f, std::int64_t first, std::int64_t last,
                   std::uint64_t bytes, hardware::IoDirection dir) {
  if (bytes == 0) return;
  World& w = cc.world();
  auto span = static_cast<std::uint64_t>(last - first);
  auto run = [&](hardware::IoDirection d) {
    Request* q = w.requests().create();
    q->kind = RequestKind::Collective;
    q->owner = w.current_rank();
    q->waiter = w.scheduler().current()->id();
    q->call = "two-phase collective I/O";
    time_extent(w, f, w.current_rank(), first, span, d, q);
    wait_request(w, *q);
    retire_request(w, q, MPI_STATUS_IGNORE);
  };
  if (dir == hardware::IoDirection::Write && bytes < span) run(hardware::IoDirection::Read);
  run(dir);
}

}  // namespace

void two_phase(CollContext& cc, File& f, int me, CollectiveAccess& access,
               hardware::IoDirection dir, const std::function<void()>& after_agreement) {
  const int n = f.size();
  std::vector<Extent> extents(static_cast<std::size_t>(n));
  extents[static_cast<std::size_t>(me)] = extent_of(access.segments[static_cast<std::size_t>(me)]);
  run_allgatherv(cc, Coll::Allgather, reinterpret_cast<char*>(extents.data()),
                 uniform(n, sizeof(Extent)), strided(n, sizeof(Extent)));
  after_agreement();
  Extent all{INT64_MAX, INT64_MIN};
  for (const Extent& e : extents)
    if (e.lo < e.hi) all = {std::min(all.lo, e.lo), std::max(all.hi, e.hi)};
  if (all.lo >= all.hi) return;  // no member has data
  const std::vector<Extent> domains = file_domains(f, all);
  const auto cb = static_cast<std::int64_t>(f.cb_buffer_bytes);
  std::int64_t widest = 0;
  for (const Extent& d : domains) widest = std::max(widest, d.hi - d.lo);
  const std::int64_t rounds = (widest + cb - 1) / cb;
  const auto agg = std::find(f.aggregators.begin(), f.aggregators.end(), me);
  const bool aggregator = agg != f.aggregators.end();
  const auto& mine = access.segments[static_cast<std::size_t>(me)];
  const bool write = dir == hardware::IoDirection::Write;
  std::vector<Request*> reqs;
  std::vector<std::unique_ptr<Scratch>> buffers;
  auto scratch = [&](std::uint64_t bytes) {
    buffers.push_back(std::make_unique<Scratch>(bytes, cc.world().current_rank()));
    return buffers.back()->data();
  };
  for (std::int64_t r = 0; r < rounds; ++r) {
    reqs.clear();
    buffers.clear();
    const int tag = static_cast<int>(r);
    // This member's pieces for each aggregator's part of the round.
    for (std::size_t a = 0; a < domains.size(); ++a) {
      int peer = f.aggregators[a];
      std::int64_t lo = domains[a].lo + r * cb, hi = std::min(domains[a].hi, lo + cb);
      if (peer == me || lo >= hi) continue;
      Overlap o = overlap(mine, lo, hi);
      if (o.bytes == 0) continue;
      reqs.push_back(write ? cc.isend(peer, tag, scratch(o.bytes), o.bytes)
                           : cc.irecv(peer, tag, scratch(o.bytes), o.bytes));
    }
    if (aggregator) {
      const Extent& d = domains[static_cast<std::size_t>(agg - f.aggregators.begin())];
      std::int64_t lo = d.lo + r * cb, hi = std::min(d.hi, lo + cb);
      std::vector<Request*> mine_reqs;
      std::vector<std::pair<int, std::uint64_t>> peers;
      Overlap round{0, INT64_MAX, INT64_MIN};
      for (int i = 0; lo < hi && i < n; ++i) {
        Overlap o = overlap(access.segments[static_cast<std::size_t>(i)], lo, hi);
        if (o.bytes == 0) continue;
        round.bytes += o.bytes;
        round.first = std::min(round.first, o.first);
        round.last = std::max(round.last, o.last);
        if (i != me) peers.emplace_back(i, o.bytes);
      }
      if (write) {
        for (auto [i, bytes] : peers) mine_reqs.push_back(cc.irecv(i, tag, scratch(bytes), bytes));
        cc.wait_all(mine_reqs);
        aggregator_io(cc, f, round.first, round.last, round.bytes, dir);
      } else {
        aggregator_io(cc, f, round.first, round.last, round.bytes, dir);
        for (auto [i, bytes] : peers) mine_reqs.push_back(cc.isend(i, tag, scratch(bytes), bytes));
        cc.wait_all(mine_reqs);
      }
    }
    cc.wait_all(reqs);
  }
}

}  // namespace simmpi::mpi
