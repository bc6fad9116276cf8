// SPDX-License-Identifier: Apache-2.0
// The flows' finish times: an indexed 4-ary min-heap, where a flow's time can move either way in
// O(log n) when its rate changes (the engine has no cancel, so the network keeps one engine event
// for the earliest finish and this queue for the rest), and beside it a FIFO for the flows that
// finish in the order they were added. Order: (time, sequence number), so flows that finish
// together complete in the order they started.
//
// The FIFO: a flow alone on its links keeps its rate to the end, and in most traffic its chunks
// take the same time, so such flows finish in the order they start. add_in_order appends one to
// the FIFO when it finishes no earlier than the FIFO's last (O(1), lines in sequence), and gives
// it to the heap otherwise; a flow whose time moves later leaves the FIFO (a tombstone stays
// there) for the heap. The top is the earlier of the two heads. At a million endpoints the heap
// of ~10^5 flows outgrew the cache, and each pop paid a miss per level below the top few.
//
// Four children per node (as in the engine's queue): a pop moves through half as many levels as
// in a binary heap. An item is 16 bytes (time and id; the sequence numbers, needed only between
// equal times, are kept by id) and the root sits at slot 3 of the array, so a node's four
// children fill one 64-byte line exactly.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/huge_page_allocator.hpp"
#include "runtime/core/sim_time.hpp"

namespace simmpi::hardware {

class FinishQueue {
 public:
  bool empty() const { return size() == 0; }
  std::size_t size() const { return heap_.size() - kRoot + fifo_live_; }
  std::int32_t top() const { return fifo_first() ? ring(head_).id : heap_[kRoot].id; }
  runtime::SimTime top_time() const {
    return runtime::SimTime::from_ps(fifo_first() ? ring(head_).ps : heap_[kRoot].ps);
  }
  // The id that a pop would make top, or -1: none, or (a hint, for prefetching) the FIFO's next
  // live entry is not among the next few.
  std::int32_t second() const {
    const Item* a = nullptr;
    const Item* b;
    if (fifo_first()) {
      for (std::uint64_t at = head_ + 1; at != tail_ && a == nullptr; ++at) {
        if (at == head_ + kLookAhead) return -1;
        if (ring(at).id >= 0) a = &ring(at);
      }
      b = heap_.size() > kRoot ? &heap_[kRoot] : nullptr;
    } else {
      a = head_ != tail_ ? &ring(head_) : nullptr;
      b = best_child(kRoot);
    }
    if (a == nullptr || (b != nullptr && before(*b, *a))) a = b;
    return a != nullptr ? a->id : -1;
  }

  // Inserts `id` or moves it to its new time.
  void set(std::int32_t id, runtime::SimTime t, std::uint64_t seq) {
    grow_index(id);
    std::uint32_t p = pos_[static_cast<std::size_t>(id)];
    if (p & kInFifo) {
      bury(p);
      p = kAbsent;
    }
    std::uint64_t& old_seq = seq_[static_cast<std::size_t>(id)];
    if (p == kAbsent) {
      old_seq = seq;
      p = static_cast<std::uint32_t>(heap_.size());
      pos_[static_cast<std::size_t>(id)] = p;
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
  // Inserts `id`, which is not in the queue, at the FIFO's end if it finishes no earlier than
  // every flow added this way that is still there, into the heap otherwise.
  void add_in_order(std::int32_t id, runtime::SimTime t, std::uint64_t seq) {
    if (head_ != tail_ && (t.ps() < last_ps_ || (t.ps() == last_ps_ && seq < last_seq_))) {
      set(id, t, seq);
      return;
    }
    grow_index(id);
    seq_[static_cast<std::size_t>(id)] = seq;
    if (tail_ - head_ == ring_.size()) grow_ring();
    pos_[static_cast<std::size_t>(id)] = kInFifo | (tail_ & kFifoMask);
    ring(tail_++) = Item{t.ps(), id};
    ++fifo_live_;
    last_ps_ = t.ps();
    last_seq_ = seq;
  }
  // Capacity for ids below `ids`, allocated ahead.
  void reserve(std::size_t ids) {
    heap_.reserve(kRoot + ids);
    pos_.reserve(ids);
    seq_.reserve(ids);
  }
  void pop() {
    if (fifo_first())
      bury(pos_[static_cast<std::size_t>(ring(head_).id)]);
    else
      pop_root();
  }

 private:
  static constexpr std::size_t kArity = 4;
  static constexpr std::size_t kRoot = 3;  // slots 0-2 unused: children groups start at 4k
  static constexpr std::uint32_t kAbsent = 0;
  // pos_ of an id in the FIFO: this bit and its position's low bits (the ring's size divides
  // 2^31, so the low bits locate it).
  static constexpr std::uint32_t kInFifo = 0x80000000u;
  static constexpr std::uint32_t kFifoMask = 0x7fffffffu;
  static constexpr std::uint64_t kLookAhead = 8;  // FIFO entries second() looks at
  struct alignas(16) Item {
    std::int64_t ps;
    std::int32_t id;  // -1 in the FIFO: left it
  };
  static_assert(sizeof(Item) * kArity == 64);
  static std::size_t parent(std::size_t slot) { return (slot - kRoot - 1) / kArity + kRoot; }
  static std::size_t first_child(std::size_t slot) { return kArity * (slot - kRoot) + kRoot + 1; }
  bool before(const Item& a, const Item& b) const {
    return a.ps != b.ps
               ? a.ps < b.ps
               : seq_[static_cast<std::size_t>(a.id)] < seq_[static_cast<std::size_t>(b.id)];
  }
  Item& ring(std::uint64_t at) { return ring_[at & (ring_.size() - 1)]; }
  const Item& ring(std::uint64_t at) const { return ring_[at & (ring_.size() - 1)]; }
  // The FIFO's head (live whenever the FIFO is not empty) comes before the heap's root.
  bool fifo_first() const {
    return head_ != tail_ && (heap_.size() == kRoot || before(ring(head_), heap_[kRoot]));
  }
  const Item* best_child(std::size_t slot) const {
    const std::size_t first = first_child(slot), n = heap_.size();
    if (first >= n) return nullptr;
    std::size_t c = first;
    for (std::size_t k = first + 1; k < first + kArity && k < n; ++k)
      if (before(heap_[k], heap_[c])) c = k;
    return &heap_[c];
  }
  void grow_index(std::int32_t id) {
    if (static_cast<std::size_t>(id) >= pos_.size()) {
      pos_.resize(static_cast<std::size_t>(id) + 1, kAbsent);
      seq_.resize(static_cast<std::size_t>(id) + 1);
    }
  }
  void grow_ring() {
    runtime::HugePageVector<Item> bigger(ring_.empty() ? 1024 : 2 * ring_.size());
    for (std::uint64_t at = head_; at != tail_; ++at) bigger[at & (bigger.size() - 1)] = ring(at);
    ring_.swap(bigger);
  }
  // Takes the FIFO entry at pos_ `p` out (a tombstone), then the tombstones at its head.
  void bury(std::uint32_t p) {
    Item& it = ring_[(p & kFifoMask) & (ring_.size() - 1)];
    pos_[static_cast<std::size_t>(it.id)] = kAbsent;
    it.id = -1;
    --fifo_live_;
    while (head_ != tail_ && ring(head_).id < 0) ++head_;
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
  // The least of the children of `i` (whose first child is `first` < n), asking for the lines of
  // its child groups meanwhile.
  [[gnu::always_inline]] std::size_t least_child(std::size_t first, std::size_t n) const {
    if (first + kArity > n) {
      std::size_t c = first;
      for (std::size_t k = first + 1; k < n; ++k)
        if (before(heap_[k], heap_[c])) c = k;
      return c;
    }
    // The next level's line is one of the children's child groups, which lie in four lines in a
    // row: they load while this level is compared (each level of a heap larger than the cache is
    // a miss otherwise).
    const std::size_t grand = first_child(first);
    if (grand + (kArity - 1) * kArity < n) {  // (the loop below was 13 instructions a line)
      __builtin_prefetch(&heap_[grand]);
      __builtin_prefetch(&heap_[grand + kArity]);
      __builtin_prefetch(&heap_[grand + 2 * kArity]);
      __builtin_prefetch(&heap_[grand + 3 * kArity]);
    } else {
      for (std::size_t g = grand; g < n; g += kArity) __builtin_prefetch(&heap_[g]);
    }
    // A tournament of pairs: three comparisons whose results select (the times differ almost
    // always, and their order is random: a compare-and-branch per child was a mispredicted
    // branch per level). Items are distinct in the order, so this is the child a scan in order
    // would find.
    const std::size_t a = first + before(heap_[first + 1], heap_[first]);
    const std::size_t b = first + 2 + before(heap_[first + 3], heap_[first + 2]);
    const std::size_t b_wins = std::size_t{0} - before(heap_[b], heap_[a]);  // all ones or 0
    return a ^ ((a ^ b) & b_wins);
  }
  void sift_down(std::size_t i) {
    Item it = heap_[i];
    const std::size_t n = heap_.size();
    for (;;) {
      const std::size_t first = first_child(i);
      if (first >= n) break;
      const std::size_t c = least_child(first, n);
      if (!before(heap_[c], it)) break;
      place(i, heap_[c]);
      i = c;
    }
    place(i, it);
  }
  // Takes the root out. The hole it leaves moves down to the bottom, filled at each level by the
  // least child, and the heap's last item fills the hole there and rises (Floyd's bottom-up
  // deletion): a bottom item rarely rises more than a level, so each level costs the three
  // comparisons among the children, not a fourth against the item. Items are distinct in the
  // order, so it stops where the last item put at the root and sifted down would: the same heap,
  // slot for slot.
  void pop_root() {
    pos_[static_cast<std::size_t>(heap_[kRoot].id)] = kAbsent;
    const Item last = heap_.back();
    heap_.pop_back();
    const std::size_t n = heap_.size();
    if (n == kRoot) return;
    std::size_t i = kRoot;
    for (std::size_t first = first_child(i); first < n; first = first_child(i)) {
      const std::size_t c = least_child(first, n);
      place(i, heap_[c]);
      i = c;
    }
    heap_[i] = last;
    sift_up(i);
  }

  runtime::HugePageVector<Item> heap_ = runtime::HugePageVector<Item>(kRoot);
  runtime::HugePageVector<Item> ring_;  // the FIFO: entries [head_, tail_), a power of 2 long
  std::uint64_t head_ = 0, tail_ = 0;
  std::size_t fifo_live_ = 0;  // its entries that are not tombstones
  std::int64_t last_ps_ = 0;   // of its last entry
  std::uint64_t last_seq_ = 0;
  runtime::HugePageVector<std::uint32_t> pos_;  // slot in heap_ of each id, kAbsent when absent
  runtime::HugePageVector<std::uint64_t> seq_;  // of each id in the queue
};

}  // namespace simmpi::hardware
