// SPDX-License-Identifier: Apache-2.0
// What a timeline shows (report.timeline_ranks, report.timeline_window): a subset of the ranks
// and a window of simulated time, so a run of thousands of ranks gives a file a person can open.
// One parser for every timeline writer (Chrome trace, OTF2).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/sim_time.hpp"

namespace simmpi::runtime {

class TimelineScope {
 public:
  // `ranks`: "all", or a comma-separated list of ranks and inclusive ranges ("0-15,64,100-103");
  // `window`: "" (the whole run), or "FROM..TO" in time units ("1ms..2.5ms"; either end may be
  // left out: "..3ms", "1s.."). Throws ConfigError naming `ranks_key` or `window_key` and what
  // is wrong.
  TimelineScope(const std::string& ranks, const std::string& window, int rank_count,
                const char* ranks_key, const char* window_key);

  // The size limit (report.timeline_max_events): records no more than `max_events`, and says so
  // once on stderr when a writer, having written `events`, would go on at simulated time `now`.
  // The run goes on.
  void limit_events(std::uint64_t max_events) { max_events_ = max_events; }
  bool full(std::uint64_t events, SimTime now) {
    return events >= max_events_ && say_full(now);  // checked before every event: inline
  }

  bool shows(int rank) const {
    return rank >= 0 && static_cast<std::size_t>(rank) < ranks_.size() &&
           ranks_[static_cast<std::size_t>(rank)];
  }
  // Whether [begin, end] meets the window.
  bool meets(SimTime begin, SimTime end) const { return end >= from_ && begin <= to_; }
  // [begin, end) cut to the window; empty (end <= begin) when outside it.
  void clip(SimTime& begin, SimTime& end) const {
    begin = max(begin, from_);
    end = std::min(end, to_);
  }
  SimTime from() const { return from_; }
  SimTime to() const { return to_; }  // SimTime::max(): the end of the run
  int shown_ranks() const;

 private:
  std::vector<bool> ranks_;
  SimTime from_, to_ = SimTime::max();
  std::uint64_t max_events_ = UINT64_MAX;
  bool said_full_ = false;
  bool say_full(SimTime now);  // true
};

}  // namespace simmpi::runtime
