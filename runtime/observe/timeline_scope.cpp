// SPDX-License-Identifier: Apache-2.0
#include "runtime/observe/timeline_scope.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "runtime/config/units.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::runtime {
namespace {

// A rank number at the start of `s` (advanced past it), or -1.
long parse_rank(const char*& s) {
  if (*s < '0' || *s > '9') return -1;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(s, &end, 10);
  if (errno) return -1;
  s = end;
  return v;
}

SimTime parse_time(const std::string& text, const char* key, const std::string& whole) {
  std::string why;
  const auto seconds = parse_quantity(text, Quantity::Time, &why);
  if (!seconds || *seconds < 0)
    throw ConfigError(strprintf("%s = \"%s\": \"%s\" is not a time (%s)", key, whole.c_str(),
                                text.c_str(), seconds ? "negative" : why.c_str()));
  return SimTime::from_seconds(*seconds);
}

}  // namespace

TimelineScope::TimelineScope(const std::string& ranks, const std::string& window, int rank_count,
                             const char* ranks_key, const char* window_key)
    : ranks_(static_cast<std::size_t>(rank_count), ranks == "all") {
  if (ranks != "all") {
    const char* s = ranks.c_str();
    for (;;) {
      const long first = parse_rank(s);
      long last = first;
      if (first >= 0 && *s == '-') {
        ++s;
        last = parse_rank(s);
      }
      if (first < 0 || last < first || (*s != ',' && *s != '\0'))
        throw ConfigError(strprintf(
            "%s = \"%s\": expected \"all\" or ranks and ranges like \"0-15,64\" (at \"%s\")",
            ranks_key, ranks.c_str(), s));
      if (last >= rank_count)
        throw ConfigError(strprintf("%s = \"%s\": rank %ld, but the run has %d ranks (0 to %d)",
                                    ranks_key, ranks.c_str(), last, rank_count, rank_count - 1));
      for (long r = first; r <= last; ++r) ranks_[static_cast<std::size_t>(r)] = true;
      if (*s == '\0') break;
      ++s;
    }
  }
  if (window.empty()) return;
  const std::size_t dots = window.find("..");
  if (dots == std::string::npos)
    throw ConfigError(strprintf(
        "%s = \"%s\": expected FROM..TO in time units, like \"1ms..2.5ms\" (either may be left "
        "out), or \"\" for the whole run",
        window_key, window.c_str()));
  const std::string from = window.substr(0, dots), to = window.substr(dots + 2);
  if (!from.empty()) from_ = parse_time(from, window_key, window);
  if (!to.empty()) to_ = parse_time(to, window_key, window);
  if (to_ <= from_)
    throw ConfigError(strprintf("%s = \"%s\": the window is empty (it %s)", window_key,
                                window.c_str(),
                                to_ < from_ ? "ends before it begins" : "ends where it begins"));
}

bool TimelineScope::say_full(SimTime now) {
  if (!said_full_) {
    said_full_ = true;
    std::fprintf(stderr,
                 "simmpi: warning: the timeline reached report.timeline_max_events = %llu at "
                 "simulated time %s: nothing later is recorded (the run goes on); raise the key, "
                 "or narrow report.timeline_ranks or report.timeline_window\n",
                 static_cast<unsigned long long>(max_events_), now.to_string().c_str());
  }
  return true;
}

int TimelineScope::shown_ranks() const {
  return static_cast<int>(std::count(ranks_.begin(), ranks_.end(), true));
}

}  // namespace simmpi::runtime
