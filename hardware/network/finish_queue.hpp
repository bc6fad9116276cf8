// SPDX-License-Identifier: Apache-2.0
// The flows' finish times in an indexed 4-ary min-heap: a flow's time can move either way in
// O(log n) when its rate changes (the engine has no cancel, so the network keeps one engine event
// for the earliest finish and this queue for the rest). Order: (time, sequence number), so flows
// that finish together complete in the order they started.
//
// Four children per node (as in the engine's queue): with 10^5 flows in flight (synthetic
// traffic at a million endpoints) the heap outgrows the cache, and a pop then moves through half
// as many levels as in a binary heap, each level's children two adjacent cache lines.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/huge_page_allocator.hpp"
#include "runtime/core/sim_time.hpp"

namespace simmpi::hardware {

class FinishQueue {
 public:
  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  std::int32_t top() const { return heap_.front().id; }
  runtime::SimTime top_time() const { return runtime::SimTime::from_ps(heap_.front().ps); }

  // Inserts `id` or moves it to its new time.
  void set(std::int32_t id, runtime::SimTime t, std::uint64_t seq) {
    if (static_cast<std::size_t>(id) >= pos_.size())
      pos_.resize(static_cast<std::size_t>(id) + 1, -1);
    std::int32_t& p = pos_[static_cast<std::size_t>(id)];
    if (p < 0) {
      p = static_cast<std::int32_t>(heap_.size());
      heap_.push_back(Item{t.ps(), seq, id});
      sift_up(static_cast<std::size_t>(p));
      return;
    }
    Item& it = heap_[static_cast<std::size_t>(p)];
    bool earlier = t.ps() < it.ps || (t.ps() == it.ps && seq < it.seq);
    it.ps = t.ps();
    it.seq = seq;
    if (earlier)
      sift_up(static_cast<std::size_t>(p));
    else
      sift_down(static_cast<std::size_t>(p));
  }
  void pop() { erase_at(0); }

 private:
  static constexpr std::size_t kArity = 4;
  struct Item {
    std::int64_t ps;
    std::uint64_t seq;
    std::int32_t id;
  };
  static bool before(const Item& a, const Item& b) {
    return a.ps != b.ps ? a.ps < b.ps : a.seq < b.seq;
  }
  void place(std::size_t i, const Item& it) {
    heap_[i] = it;
    pos_[static_cast<std::size_t>(it.id)] = static_cast<std::int32_t>(i);
  }
  void sift_up(std::size_t i) {
    Item it = heap_[i];
    while (i > 0 && before(it, heap_[(i - 1) / kArity])) {
      place(i, heap_[(i - 1) / kArity]);
      i = (i - 1) / kArity;
    }
    place(i, it);
  }
  void sift_down(std::size_t i) {
    Item it = heap_[i];
    const std::size_t n = heap_.size();
    for (;;) {
      const std::size_t first = kArity * i + 1;
      if (first >= n) break;
      const std::size_t last = first + kArity < n ? first + kArity : n;
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
    pos_[static_cast<std::size_t>(heap_[i].id)] = -1;
    Item last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    heap_[i] = last;
    pos_[static_cast<std::size_t>(last.id)] = static_cast<std::int32_t>(i);
    sift_up(i);
    sift_down(static_cast<std::size_t>(pos_[static_cast<std::size_t>(last.id)]));
  }

  runtime::HugePageVector<Item> heap_;
  runtime::HugePageVector<std::int32_t> pos_;  // index in heap_ of each id, -1 when absent
};

}  // namespace simmpi::hardware
