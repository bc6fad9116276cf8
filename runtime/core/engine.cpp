// SPDX-License-Identifier: Apache-2.0
// The event queue: a 4-ary min-heap of (time, seq | slot) nodes, actions kept in slots, and a
// queue of the events scheduled for the current time.
#include "runtime/core/engine.hpp"

#include "runtime/core/error.hpp"

namespace simmpi::runtime {

std::uint32_t Engine::take_slot(const Action& action) {
  std::uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
    actions_[slot] = action;
  } else {
    SIMMPI_ASSERT(actions_.size() <= kSlotMask, "more than %llu pending events",
                  static_cast<unsigned long long>(kSlotMask + 1));
    slot = static_cast<std::uint32_t>(actions_.size());
    actions_.push_back(action);
  }
  return slot;
}

void Engine::schedule(SimTime t, Action action) {
  SIMMPI_ASSERT(t >= now_, "event scheduled in the past: t=%lld ps < now=%lld ps",
                static_cast<long long>(t.ps()), static_cast<long long>(now_.ps()));
  SIMMPI_ASSERT(seq_ < (std::uint64_t{1} << (64 - kSlotBits)), "more than 2^40 events scheduled");
  if (t == now_) {
    now_queue_.push_back(NowEvent{seq_++, action});
    return;
  }
  const Node n{t, seq_++ << kSlotBits | take_slot(action)};
  heap_.emplace_back();
  sift_up(heap_.size() - 1, n);
}

// Moves the hole at `i` up until `n` fits there.
void Engine::sift_up(std::size_t i, Node n) {
  while (i > 0) {
    const std::size_t parent = (i - 1) / 4;
    if (!n.before(heap_[parent])) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = n;
}

// Places `n` from the root's hole down, moving the earliest child up at each level.
void Engine::sift_down(Node n) {
  const std::size_t size = heap_.size();
  std::size_t i = 0;
  for (;;) {
    const std::size_t first = 4 * i + 1;
    if (first >= size) break;
    const std::size_t last = first + 4 < size ? first + 4 : size;
    std::size_t best = first;
    for (std::size_t c = first + 1; c < last; ++c)
      if (heap_[c].before(heap_[best])) best = c;
    if (!heap_[best].before(n)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = n;
}

void Engine::advance_to(SimTime t) {
  SIMMPI_ASSERT(t >= now_ && t < next_time(), "advance_to(%lld ps) would skip an event",
                static_cast<long long>(t.ps()));
  now_ = t;
}

bool Engine::step() {
  if (!now_queue_empty() && (heap_.empty() || heap_.front().time > now_ ||
                             heap_.front().order >> kSlotBits > now_queue_[now_head_].seq)) {
    const Action action = now_queue_[now_head_++].action;
    if (now_queue_empty()) {
      now_queue_.clear();
      now_head_ = 0;
    } else if (now_head_ >= 4096 && now_head_ * 2 >= now_queue_.size()) {
      // A long instant: drop the taken half, so the queue holds what waits, not all it held.
      now_queue_.erase(now_queue_.begin(), now_queue_.begin() + static_cast<long>(now_head_));
      now_head_ = 0;
    }
    ++processed_;
    action();
    return true;
  }
  if (heap_.empty()) return false;
  const Node top = heap_.front();
  const Node last = heap_.back();
  heap_.pop_back();
  if (!heap_.empty()) sift_down(last);
  const auto slot = static_cast<std::uint32_t>(top.order & kSlotMask);
  const Action action = actions_[slot];
  free_.push_back(slot);
  now_ = top.time;
  ++processed_;
  action();
  return true;
}

}  // namespace simmpi::runtime
