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
  bool has_events() const { return !heap_.empty(); }
  std::size_t pending() const { return heap_.size(); }
  // Time of the earliest pending event; SimTime::max() when none.
  SimTime next_time() const { return heap_.empty() ? SimTime::max() : heap_.front().time; }
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
  struct Entry {
    SimTime time;
    std::uint64_t seq;
    Action action;
  };
  static bool later(const Entry& a, const Entry& b) {
    return a.time != b.time ? a.time > b.time : a.seq > b.seq;
  }
  std::vector<Entry> heap_;
  SimTime now_;
  std::uint64_t seq_ = 0;
  std::uint64_t processed_ = 0;
};

}  // namespace simmpi::runtime
