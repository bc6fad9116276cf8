// SPDX-License-Identifier: Apache-2.0
// The flows' finish times in an indexed 4-ary min-heap: a flow's time can move either way in
// O(log n) when its rate changes (the engine has no cancel, so the network keeps one engine event
// for the earliest finish and this queue for the rest). Order: (time, sequence number), so flows
// that finish together complete in the order they started.
//
// Four children per node (as in the engine's queue): with 10^5 flows in flight (synthetic
// traffic at a million endpoints) the heap outgrows the cache, and a pop then moves through half
// as many levels as in a binary heap. An item is 16 bytes (time and id; the sequence numbers,
// needed only between equal times, are kept by id) and the root sits at slot 3 of the array,
// so a node's four children fill one 64-byte line exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/huge_page_allocator.hpp"
#include "runtime/core/sim_time.hpp"

namespace simmpi::hardware {

class FinishQueue {
 public:
  bool empty() const { return heap_.size() == kRoot; }
  std::size_t size() const { return heap_.size() - kRoot; }
  std::int32_t top() const { return heap_[kRoot].id; }
  runtime::SimTime top_time() const { return runtime::SimTime::from_ps(heap_[kRoot].ps); }

  // Inserts `id` or moves it to its new time.
  void set(std::int32_t id, runtime::SimTime t, std::uint64_t seq) {
    if (static_cast<std::size_t>(id) >= pos_.size()) {
      pos_.resize(static_cast<std::size_t>(id) + 1, kAbsent);
      seq_.resize(static_cast<std::size_t>(id) + 1);
    }
    std::uint32_t& p = pos_[static_cast<std::size_t>(id)];
    std::uint64_t& old_seq = seq_[static_cast<std::size_t>(id)];
    if (p == kAbsent) {
      old_seq = seq;
      p = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back(Item{t.ps(), id});
      sift_up(p);
      return;
    }
    Item& it = heap_[p];
    const bool earlier = t.ps() < it.ps || (t.ps() == it.ps && seq < old_seq);
    it.ps = t.ps();
    old_seq = seq;
    if (earlier)
      sift_up(p);
    else
      sift_down(p);
  }
  void pop() { erase_at(kRoot); }

 private:
  static constexpr std::size_t kArity = 4;
  static constexpr std::size_t kRoot = 3;  // slots 0-2 unused: children groups start at 4k
  static constexpr std::uint32_t kAbsent = 0;
  struct alignas(16) Item {
    std::int64_t ps;
    std::int32_t id;
  };
  static_assert(sizeof(Item) * kArity == 64);
  static std::size_t parent(std::size_t slot) { return (slot - kRoot - 1) / kArity + kRoot; }
  static std::size_t first_child(std::size_t slot) { return kArity * (slot - kRoot) + kRoot + 1; }
  bool before(const Item& a, const Item& b) const {
    return a.ps != b.ps
               ? a.ps < b.ps
               : seq_[static_cast<std::size_t>(a.id)] < seq_[static_cast<std::size_t>(b.id)];
  }
  void place(std::size_t i, const Item& it) {
    heap_[i] = it;
    pos_[static_cast<std::size_t>(it.id)] = static_cast<std::uint32_t>(i);
  }
  void sift_up(std::size_t i) {
    Item it = heap_[i];
    while (i > kRoot && before(it, heap_[parent(i)])) {
      place(i, heap_[parent(i)]);
      i = parent(i);
    }
    place(i, it);
  }
  void sift_down(std::size_t i) {
    Item it = heap_[i];
    const std::size_t n = heap_.size();
    for (;;) {
      const std::size_t first = first_child(i);
      if (first >= n) break;
      const std::size_t last = first + kArity < n ? first + kArity : n;
      // The next level's line is one of the children's child groups: all four load while this
      // level is compared (each level of a heap larger than the cache is a miss otherwise).
      for (std::size_t k = first; k < last && first_child(k) < n; ++k)
        __builtin_prefetch(&heap_[first_child(k)]);
      std::size_t c = first;
      for (std::size_t k = first + 1; k < last; ++k)
        if (before(heap_[k], heap_[c])) c = k;
      if (!before(heap_[c], it)) break;
      place(i, heap_[c]);
      i = c;
    }
    place(i, it);
  }
  void erase_at(std::size_t i) {
    pos_[static_cast<std::size_t>(heap_[i].id)] = kAbsent;
    Item last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    heap_[i] = last;
    pos_[static_cast<std::size_t>(last.id)] = static_cast<std::uint32_t>(i);
    sift_up(i);
    sift_down(pos_[static_cast<std::size_t>(last.id)]);
  }

  runtime::HugePageVector<Item> heap_ = runtime::HugePageVector<Item>(kRoot);
  runtime::HugePageVector<std::uint32_t> pos_;  // slot in heap_ of each id, kAbsent when absent
  runtime::HugePageVector<std::uint64_t> seq_;  // of each id in heap_
};

}  // namespace simmpi::hardware
