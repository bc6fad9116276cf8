// SPDX-License-Identifier: Apache-2.0
// The discrete-event core: a simulated clock and a queue of actions ordered by
// (time, insertion sequence). Equal-time events run in the order they were scheduled, so the
// same inputs give the same run, bit for bit (SST's Activity ordering, without priorities).
//
// The engine knows nothing of fibers or MPI: an Action is a plain function pointer with two
// words of context, cheap to copy into the heap (no allocation per event).
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/sim_time.hpp"

namespace simmpi::runtime {

struct Action {
  void (*fn)(void* obj, std::uint64_t arg) = nullptr;
  void* obj = nullptr;
  std::uint64_t arg = 0;
  void operator()() const { fn(obj, arg); }
};

class Engine {
 public:
  SimTime now() const { return now_; }
  bool has_events() const { return !heap_.empty() || !now_queue_empty(); }
  std::size_t pending() const { return heap_.size() + (now_queue_.size() - now_head_); }
  // Time of the earliest pending event; SimTime::max() when none.
  SimTime next_time() const {
    if (!now_queue_empty()) return now_;
    return heap_.empty() ? SimTime::max() : heap_.front().time;
  }
  std::uint64_t events_processed() const { return processed_; }

  // Schedules `action` at time `t` (t >= now()).
  void schedule(SimTime t, Action action);
  // Moves the clock forward without running anything. Allowed only when no event is due before
  // or at `t`: a fiber that computes or sleeps until `t` with nothing else happening meanwhile
  // needs no trip through the queue.
  void advance_to(SimTime t);
  // Pops the earliest event, sets the clock to its time and runs it. False when empty.
  bool step();

 private:
  // The queue is a 4-ary heap of 16-byte nodes (time, then the sequence number with the slot
  // of the node's action in its low bits): four children share one cache line, and a pop moves
  // half as many levels as in a binary heap. With thousands of ranks the heap outgrows the
  // cache between two events, so the nodes stay small and the actions sit apart, in slots.
  static constexpr int kSlotBits = 24;  // at most 16.7 M pending events
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotBits) - 1;
  struct Node {
    SimTime time;
    std::uint64_t order;  // seq << kSlotBits | slot: unique, so it breaks every tie
    bool before(const Node& o) const { return time != o.time ? time < o.time : order < o.order; }
  };
  // Events scheduled for the current time (a process woken now, the start of every rank) skip
  // the heap: they come after everything already scheduled for now, so they queue in their
  // sequence order, and a pop takes the earlier (time, sequence) of this queue's head and the
  // heap's top. The order is the heap's alone would give; what goes is a sift down through
  // every level of a heap that, at a million ranks' start, is too large for the cache. All
  // entries share one time: the clock cannot pass now while one waits (next_time() is now).
  struct NowEvent {
    std::uint64_t seq;
    Action action;
  };
  bool now_queue_empty() const { return now_head_ == now_queue_.size(); }
  void sift_up(std::size_t i, Node n);
  void sift_down(Node n);
  std::uint32_t take_slot(const Action& action);

  std::vector<Node> heap_;
  std::vector<Action> actions_;      // by slot
  std::vector<std::uint32_t> free_;  // slots not in use
  std::vector<NowEvent> now_queue_;  // from now_head_ on, in sequence order, all at now_
  std::size_t now_head_ = 0;
  SimTime now_;
  std::uint64_t seq_ = 0;
  std::uint64_t processed_ = 0;
};

}  // namespace simmpi::runtime
