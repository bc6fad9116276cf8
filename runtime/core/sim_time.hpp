// SPDX-License-Identifier: Apache-2.0
// Simulated time: an integer count of picoseconds. int64_t covers 106 days, and integer
// arithmetic keeps runs bit-for-bit reproducible (no floating-point drift in the clock).
#pragma once

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>
#include <string>

namespace simmpi::runtime {

class SimTime {
 public:
  constexpr SimTime() = default;
  static constexpr SimTime from_ps(std::int64_t ps) { return SimTime(ps); }
  static constexpr SimTime from_ns(std::int64_t ns) { return SimTime(ns * 1000); }
  // Rounds to the nearest picosecond; every conversion from seconds goes through here so a
  // closed-form check can reproduce the same rounding.
  static SimTime from_seconds(double s) { return SimTime(std::llround(s * 1e12)); }
  static constexpr SimTime max() { return SimTime(std::numeric_limits<std::int64_t>::max()); }

  constexpr std::int64_t ps() const { return ps_; }
  constexpr double seconds() const { return static_cast<double>(ps_) * 1e-12; }

  constexpr SimTime operator+(SimTime o) const { return SimTime(ps_ + o.ps_); }
  constexpr SimTime operator-(SimTime o) const { return SimTime(ps_ - o.ps_); }
  constexpr SimTime& operator+=(SimTime o) {
    ps_ += o.ps_;
    return *this;
  }
  constexpr SimTime operator*(std::int64_t k) const { return SimTime(ps_ * k); }
  constexpr auto operator<=>(const SimTime&) const = default;

  // "1.234567890123 s": fixed 12 decimals, so reports are exact and byte-stable.
  std::string to_string() const;
  // The same seconds without the unit, "1.234567890123": a JSON or CSV number.
  std::string to_decimal() const;

 private:
  constexpr explicit SimTime(std::int64_t ps) : ps_(ps) {}
  std::int64_t ps_ = 0;
};

inline SimTime max(SimTime a, SimTime b) {
  return a < b ? b : a;
}
inline SimTime min(SimTime a, SimTime b) {
  return b < a ? b : a;
}

// Time to move `bytes` at `bytes_per_s`, rounded to the picosecond.
inline SimTime transfer_time(double bytes, double bytes_per_s) {
  return SimTime::from_seconds(bytes / bytes_per_s);
}

}  // namespace simmpi::runtime
