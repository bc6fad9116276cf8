// SPDX-License-Identifier: Apache-2.0
// The flows' finish times in an indexed binary min-heap: a flow's time can move either way in
// O(log n) when its rate changes (the engine has no cancel, so the network keeps one engine event
// for the earliest finish and this queue for the rest). Order: (time, sequence number), so flows
// that finish together complete in the order they started.
#pragma once

#include <cstdint>
#include <vector>

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
    bool earlier = t.ps() < it.ps;
    it.ps = t.ps();
    it.seq = seq;
    if (earlier)
      sift_up(static_cast<std::size_t>(p));
    else
      sift_down(static_cast<std::size_t>(p));
  }
  void pop() { erase_at(0); }

 private:
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
    while (i > 0 && before(it, heap_[(i - 1) / 2])) {
      place(i, heap_[(i - 1) / 2]);
      i = (i - 1) / 2;
    }
    place(i, it);
  }
  void sift_down(std::size_t i) {
    Item it = heap_[i];
    std::size_t n = heap_.size();
    for (;;) {
      std::size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && before(heap_[c + 1], heap_[c])) ++c;
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

  std::vector<Item> heap_;
  std::vector<std::int32_t> pos_;  // index in heap_ of each id, -1 when absent
};

}  // namespace simmpi::hardware
