// SPDX-License-Identifier: Apache-2.0
// The sources' pending generations (the time of each waiting source's next message), earliest
// first, for simmpi-traffic's driver (traffic_run.hpp). A million sources each waiting for its
// next message made the engine's heap a million nodes deep: every generation paid a pop and a
// push through levels that no cache holds. Generations fall in a known span [0, end) (sources
// generate nothing after the measurement window), so a calendar of equal buckets holds them
// instead: adding appends to the bucket of its time; only the current bucket is a heap, built
// when the clock reaches it, and small enough to stay in cache.
//
// Order: time, then source index, so simultaneous generations run in a fixed order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace simmpi::traffic {

class GenerationCalendar {
 public:
  // Generations at times in [0, end_ps); about `expected` pending at once.
  GenerationCalendar(std::int64_t end_ps, std::size_t expected) {
    const std::int64_t buckets =
        std::max<std::int64_t>(1, static_cast<std::int64_t>(expected / kPerBucket));
    width_ps_ = std::max<std::int64_t>(1, end_ps / buckets + 1);
    buckets_.resize(static_cast<std::size_t>(end_ps / width_ps_ + 1));
  }

  bool empty() const { return size_ == 0; }
  // A generation of `src` at `t_ps`, no earlier than the last one taken.
  void add(std::int64_t t_ps, std::int32_t src) {
    ++size_;
    const auto b = static_cast<std::size_t>(t_ps / width_ps_);
    if (b <= current_) {
      heap_.push_back(Entry{t_ps, src});
      std::push_heap(heap_.begin(), heap_.end(), Later{});
    } else {
      buckets_[b].push_back(Entry{t_ps, src});
    }
  }
  // The earliest pending generation's time; the calendar must not be empty.
  std::int64_t top_ps() {
    open_next();
    return heap_.front().ps;
  }
  // The earliest pending generation's source; the calendar must not be empty.
  std::int32_t top_src() {
    open_next();
    return heap_.front().src;
  }
  // Takes the earliest pending generation and returns its source.
  std::int32_t pop() {
    open_next();
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    const std::int32_t src = heap_.back().src;
    heap_.pop_back();
    --size_;
    return src;
  }

 private:
  static constexpr std::size_t kPerBucket = 2048;
  struct Entry {
    std::int64_t ps;
    std::int32_t src;
  };
  // A type of its own, not a function: the heap's comparisons then inline (through a function
  // pointer each was a call).
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.ps != b.ps ? a.ps > b.ps : a.src > b.src;
    }
  };
  // Makes the current bucket the earliest one that holds anything.
  void open_next() {
    while (heap_.empty()) {
      ++current_;
      heap_.swap(buckets_[current_]);
      buckets_[current_].clear();
      std::make_heap(heap_.begin(), heap_.end(), Later{});
    }
  }

  std::int64_t width_ps_;
  std::vector<std::vector<Entry>> buckets_;
  std::vector<Entry> heap_;  // the current bucket's
  std::size_t current_ = 0;
  std::size_t size_ = 0;
};

}  // namespace simmpi::traffic
