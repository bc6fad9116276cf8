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
  static SimTime from_seconds(double s) { return SimTime(round_ps(s * 1e12)); }
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
  // std::llround(ps), exactly, without its library call (two per message): below 2^62 the
  // truncation is exact in int64 and x - trunc(x) is exact in double (Sterbenz), so rounding
  // half away from zero is one comparison on it; larger, infinite or NaN values go to llround.
  static std::int64_t round_ps(double ps) {
    if (!(std::fabs(ps) < 0x1p62)) return std::llround(ps);
    const auto whole = static_cast<std::int64_t>(ps);
    const double frac = ps - static_cast<double>(whole);
    return whole + (frac >= 0.5) - (frac <= -0.5);
  }
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
