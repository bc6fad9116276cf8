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

// One member's side of the rounds of one collective access.
class Rounds {
 public:
  Rounds(CollContext& cc, File& f, int me, const CollectiveAccess& access,
         hardware::IoDirection dir, Extent all)
      : cc_(cc),
        f_(f),
        me_(me),
        access_(access),
        dir_(dir),
        domains_(file_domains(f, all)),
        cb_(static_cast<std::int64_t>(f.cb_buffer_bytes)) {
    std::int64_t widest = 0;
    for (const Extent& d : domains_) widest = std::max(widest, d.hi - d.lo);
    count_ = (widest + cb_ - 1) / cb_;
    auto agg = std::find(f.aggregators.begin(), f.aggregators.end(), me);
    domain_ = agg == f.aggregators.end() ? -1 : static_cast<int>(agg - f.aggregators.begin());
  }
  std::int64_t count() const { return count_; }

  // Round `r`: this member's pieces to (or from) each aggregator, and, for an aggregator, its
  // members' pieces and its storage request.
  void run(std::int64_t r) {
    std::vector<Request*> reqs;
    std::vector<std::unique_ptr<Scratch>> buffers;
    const auto& mine = access_.segments[static_cast<std::size_t>(me_)];
    for (std::size_t a = 0; a < domains_.size(); ++a) {
      Extent part = part_of(domains_[a], r);
      int peer = f_.aggregators[a];
      Overlap o = peer == me_ ? Overlap{} : overlap(mine, part.lo, part.hi);
      if (o.bytes > 0) reqs.push_back(exchange(peer, r, o.bytes, is_write(), buffers));
    }
    if (domain_ >= 0) aggregate(r, buffers);
    cc_.wait_all(reqs);
  }

 private:
  bool is_write() const { return dir_ == hardware::IoDirection::Write; }
  Extent part_of(const Extent& d, std::int64_t r) const {
    std::int64_t lo = d.lo + r * cb_;
    return {lo, std::min(d.hi, lo + cb_)};
  }
  // A send (`send`) or receive of `bytes` with `peer` in round `r`, from folded scratch: the
  // shuffle's time matters, not its contents (the data is in the host file already).
  Request* exchange(int peer, std::int64_t r, std::uint64_t bytes, bool send,
                    std::vector<std::unique_ptr<Scratch>>& buffers) {
    buffers.push_back(std::make_unique<Scratch>(bytes, cc_.world().current_rank()));
    char* b = buffers.back()->data();
    const int tag = static_cast<int>(r);
    return send ? cc_.isend(peer, tag, b, bytes) : cc_.irecv(peer, tag, b, bytes);
  }
  // The aggregator's round: receive every member's pieces, then write them in one request (a
  // read: read, then send each member its pieces).
  void aggregate(std::int64_t r, std::vector<std::unique_ptr<Scratch>>& buffers) {
    Extent part = part_of(domains_[static_cast<std::size_t>(domain_)], r);
    std::vector<std::pair<int, std::uint64_t>> peers;
    Overlap all{0, INT64_MAX, INT64_MIN};
    for (int i = 0; part.lo < part.hi && i < f_.size(); ++i) {
      Overlap o = overlap(access_.segments[static_cast<std::size_t>(i)], part.lo, part.hi);
      if (o.bytes == 0) continue;
      all = {all.bytes + o.bytes, std::min(all.first, o.first), std::max(all.last, o.last)};
      if (i != me_) peers.emplace_back(i, o.bytes);
    }
    std::vector<Request*> reqs;
    if (!is_write()) aggregator_io(cc_, f_, all.first, all.last, all.bytes, dir_);
    for (auto [i, bytes] : peers) reqs.push_back(exchange(i, r, bytes, !is_write(), buffers));
    cc_.wait_all(reqs);
    if (is_write()) aggregator_io(cc_, f_, all.first, all.last, all.bytes, dir_);
  }

  CollContext& cc_;
  File& f_;
  int me_;
  const CollectiveAccess& access_;
  hardware::IoDirection dir_;
  std::vector<Extent> domains_;
  std::int64_t cb_;
  std::int64_t count_ = 0;
  int domain_;  // this member's domain as an aggregator, or -1
};

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
  Rounds rounds(cc, f, me, access, dir, all);
  for (std::int64_t r = 0; r < rounds.count(); ++r) rounds.run(r);
}

}  // namespace simmpi::mpi
