// SPDX-License-Identifier: Apache-2.0
// First-fit allocator of offsets in [0, capacity): what the fold arenas hand out. Free ranges
// are merged with their neighbours, and freeing the highest range lowers the top again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <unordered_map>

namespace simmpi::runtime {

class OffsetHeap {
 public:
  static constexpr std::uint64_t kFailed = ~std::uint64_t{0};

  explicit OffsetHeap(std::uint64_t capacity = 0) : capacity_(capacity) {}
  void set_capacity(std::uint64_t capacity) { capacity_ = capacity; }

  // An offset of `bytes` (a multiple of the caller's alignment) free space, or kFailed.
  std::uint64_t allocate(std::uint64_t bytes);
  // Gives back the range allocate() returned at `offset`; returns its size, 0 if unknown.
  std::uint64_t release(std::uint64_t offset);
  // Size of the live range at `offset`, 0 if none.
  std::uint64_t size_at(std::uint64_t offset) const;
  // One past the highest offset allocated and not yet freed (free ranges below it aside).
  std::uint64_t top() const { return top_; }
  std::uint64_t used_bytes() const { return used_bytes_; }

 private:
  std::uint64_t capacity_;
  std::uint64_t top_ = 0;
  std::uint64_t used_bytes_ = 0;
  std::map<std::uint64_t, std::uint64_t> free_;            // offset -> size, below top_
  std::unordered_map<std::uint64_t, std::uint64_t> used_;  // offset -> size
};

}  // namespace simmpi::runtime
