// SPDX-License-Identifier: Apache-2.0
// First-fit offset allocation with coalescing.
#include "runtime/fold/offset_heap.hpp"

#include <iterator>

namespace simmpi::runtime {

std::uint64_t OffsetHeap::allocate(std::uint64_t bytes) {
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < bytes) continue;
    std::uint64_t offset = it->first, left = it->second - bytes;
    free_.erase(it);
    if (left) free_.emplace(offset + bytes, left);
    used_.emplace(offset, bytes);
    used_bytes_ += bytes;
    return offset;
  }
  if (bytes > capacity_ - top_) return kFailed;
  std::uint64_t offset = top_;
  top_ += bytes;
  used_.emplace(offset, bytes);
  used_bytes_ += bytes;
  return offset;
}

std::uint64_t OffsetHeap::release(std::uint64_t offset) {
  auto u = used_.find(offset);
  if (u == used_.end()) return 0;
  std::uint64_t bytes = u->second;
  used_.erase(u);
  used_bytes_ -= bytes;
  std::uint64_t begin = offset, end = offset + bytes;
  auto next = free_.lower_bound(end);
  if (next != free_.end() && next->first == end) {
    end += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == begin) {
      begin = prev->first;
      free_.erase(prev);
    }
  }
  if (end == top_)
    top_ = begin;  // the top shrinks back, so a freed-and-reallocated block reuses its space
  else
    free_.emplace(begin, end - begin);
  return bytes;
}

std::uint64_t OffsetHeap::size_at(std::uint64_t offset) const {
  auto u = used_.find(offset);
  return u == used_.end() ? 0 : u->second;
}

}  // namespace simmpi::runtime
