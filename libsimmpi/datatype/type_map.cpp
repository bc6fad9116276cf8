// SPDX-License-Identifier: Apache-2.0
// Building, walking and counting flattened type maps.
#include "libsimmpi/datatype/type_map.hpp"

#include <algorithm>
#include <cstring>

namespace simmpi::mpi {
namespace {

// First and one-past-last data byte of a run (its stride may be negative).
std::int64_t run_lb(const Run& r) {
  return std::min(r.disp, r.disp + (r.count - 1) * r.stride) + (r.body ? r.body->data_lb() : 0);
}
std::int64_t run_ub(const Run& r) {
  return std::max(r.disp, r.disp + (r.count - 1) * r.stride) + (r.body ? r.body->data_ub() : r.len);
}

// A strided run of plain blocks that touch is one block.
void collapse_if_dense(Run& r) {
  if (r.count > 1 && r.stride == r.len && !r.body) {
    r.len *= r.count;
    r.count = 1;
    r.stride = 0;
  }
}

// Extends `p` by `r` when r continues p's pattern; false if it does not.
bool try_merge(Run& p, const Run& r) {
  if (p.unit != r.unit || p.body != r.body) return false;
  if (!p.body && p.count == 1 && r.count == 1 && r.disp == p.disp + p.len) {  // adjacent
    p.len += r.len;
    return true;
  }
  if (p.len != r.len) return false;
  // Same blocks at a common stride: p's single block takes the stride r implies.
  std::int64_t stride = p.count > 1 ? p.stride : r.count > 1 ? r.stride : r.disp - p.disp;
  if (p.count > 1 && r.count > 1 && p.stride != r.stride) return false;
  if (p.count == 1 && r.count > 1 && r.disp - p.disp != r.stride) return false;
  if (r.disp != p.disp + p.count * stride) return false;
  p.count += r.count;
  p.stride = stride;
  collapse_if_dense(p);
  return true;
}

}  // namespace

const std::vector<Run>& TypeMap::no_runs() {
  static const std::vector<Run> none;
  return none;
}

std::int64_t TypeMap::data_lb() const {
  const std::vector<Run>& rs = runs();
  std::int64_t lb = 0;
  for (std::size_t i = 0; i < rs.size(); ++i)
    lb = i == 0 ? run_lb(rs[i]) : std::min(lb, run_lb(rs[i]));
  return lb;
}

std::int64_t TypeMap::data_ub() const {
  const std::vector<Run>& rs = runs();
  std::int64_t ub = 0;
  for (std::size_t i = 0; i < rs.size(); ++i)
    ub = i == 0 ? run_ub(rs[i]) : std::max(ub, run_ub(rs[i]));
  return ub;
}

void TypeMap::own() {
  if (!runs_)
    runs_ = std::make_shared<std::vector<Run>>();
  else if (runs_.use_count() > 1)
    runs_ = std::make_shared<std::vector<Run>>(*runs_);
}

void TypeMap::append(const Run& r) {
  if (r.len <= 0 || r.count <= 0) return;
  own();
  size_ += static_cast<std::uint64_t>(r.len * r.count);
  elements_ += (r.body ? r.body->elements() : r.len / r.unit) * r.count;
  Run n = r;
  if (n.count == 1) n.stride = 0;
  collapse_if_dense(n);
  if (runs_->empty() || !try_merge(last(), n)) runs_->push_back(std::move(n));
}

void TypeMap::append(const TypeMap& m, std::int64_t disp, std::int64_t copies,
                     std::int64_t extent) {
  if (copies <= 0 || m.empty()) return;
  const std::vector<Run>& src = m.runs();
  if (src.size() == 1) {
    // One run: the copies extend it when they continue its stride, or become one strided run
    // when it is a single block.
    Run r = src[0];
    r.disp += disp;
    if (r.count == 1 && copies > 1) {
      r.count = copies;
      r.stride = extent;
      append(r);
      return;
    }
    if (copies == 1 || r.count * r.stride == extent) {
      r.count *= copies;
      append(r);
      return;
    }
  }
  if (copies == 1) {
    for (Run r : src) {
      r.disp += disp;
      append(r);
    }
    return;
  }
  // Several runs copied several times: one run whose blocks are copies of m.
  append(Run{disp, static_cast<std::int64_t>(m.size()), copies, extent, 1,
             std::make_shared<const TypeMap>(m)});
}

std::uint64_t TypeMap::pack(std::intptr_t base, std::int64_t count, std::int64_t extent,
                            std::uint64_t limit, char* out, const AddressMap& mem) const {
  char* p = out;
  for_each_block(base, count, extent, limit, [&](std::intptr_t at, std::uint64_t len) {
    std::memcpy(p, mem.at(at), len);
    p += len;
  });
  return static_cast<std::uint64_t>(p - out);
}

std::uint64_t TypeMap::unpack(const char* in, std::uint64_t bytes, std::intptr_t base,
                              std::int64_t count, std::int64_t extent,
                              const AddressMap& mem) const {
  const char* p = in;
  for_each_block(base, count, extent, bytes, [&](std::intptr_t at, std::uint64_t len) {
    std::memcpy(mem.at(at), p, len);
    p += len;
  });
  return static_cast<std::uint64_t>(p - in);
}

std::int64_t TypeMap::count_elements(std::uint64_t bytes) const {
  if (size_ == 0) return 0;
  std::int64_t whole = static_cast<std::int64_t>(bytes / size_) * elements_;
  std::int64_t part = count_prefix(static_cast<std::int64_t>(bytes % size_));
  return part < 0 ? -1 : whole + part;
}

std::int64_t TypeMap::count_prefix(std::int64_t rest) const {
  std::int64_t n = 0;
  for (const Run& r : runs()) {
    if (rest == 0) break;
    std::int64_t whole = std::min(r.count, rest / r.len);
    n += whole * (r.body ? r.body->elements() : r.len / r.unit);
    rest -= whole * r.len;
    if (whole == r.count) continue;
    // The bytes end inside this run's next block.
    std::int64_t part = r.body ? r.body->count_prefix(rest) : rest % r.unit ? -1 : rest / r.unit;
    return part < 0 ? -1 : n + part;
  }
  return n;
}

}  // namespace simmpi::mpi
