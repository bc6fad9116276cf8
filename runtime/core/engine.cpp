// SPDX-License-Identifier: Apache-2.0
// Binary-heap event queue. std::push_heap/pop_heap with a strict (time, seq) order.
#include "runtime/core/engine.hpp"

#include <algorithm>

#include "runtime/core/error.hpp"

namespace simmpi::runtime {

void Engine::schedule(SimTime t, Action action) {
  SIMMPI_ASSERT(t >= now_, "event scheduled in the past: t=%lld ps < now=%lld ps",
                static_cast<long long>(t.ps()), static_cast<long long>(now_.ps()));
  heap_.push_back(Entry{t, seq_++, action});
  std::push_heap(heap_.begin(), heap_.end(), later);
}

void Engine::advance_to(SimTime t) {
  SIMMPI_ASSERT(t >= now_ && t < next_time(), "advance_to(%lld ps) would skip an event",
                static_cast<long long>(t.ps()));
  now_ = t;
}

bool Engine::step() {
  if (heap_.empty()) return false;
  std::pop_heap(heap_.begin(), heap_.end(), later);
  Entry e = heap_.back();
  heap_.pop_back();
  now_ = e.time;
  ++processed_;
  e.action();
  return true;
}

}  // namespace simmpi::runtime
