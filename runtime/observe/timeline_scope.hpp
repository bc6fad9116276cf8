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

  // The shortest own-code slice drawn (report.timeline_min_own_code): a shorter gap between a
  // rank's calls stays a gap, which the calls' own times already show. 0: every gap.
  void limit_own_code(SimTime shortest) { shortest_own_code_ = max(shortest, SimTime::from_ps(1)); }
  // Whether own code from `begin` to `end` may be drawn: checked before clip_own_code, which
  // can only shorten it (inline: every call asks).
  bool may_show_own_code(SimTime begin, SimTime end) const {
    return end - begin >= shortest_own_code_;
  }
  // Own code from `begin` to `end` cut to the window; whether what is left is drawn. The length
  // that counts is the one drawn (after the cut), the same for every writer.
  bool clip_own_code(SimTime& begin, SimTime& end) const {
    clip(begin, end);
    return may_show_own_code(begin, end);
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
  SimTime shortest_own_code_ = SimTime::from_ps(1);  // one picosecond: every gap
  std::uint64_t max_events_ = UINT64_MAX;
  bool said_full_ = false;
  bool say_full(SimTime now);  // true
};

}  // namespace simmpi::runtime
