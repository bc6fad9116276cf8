// SPDX-License-Identifier: Apache-2.0
// Unit tables and the number+unit parser.
#include "runtime/config/units.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace simmpi::runtime {
namespace {

struct UnitDef {
  const char* suffix;
  double factor;  // multiply the number by this to get the base unit
};

// Bits per second are written with a lower-case b ("Gbps", "Gb/s"); bytes with B ("GB/s").
constexpr UnitDef kTime[] = {{"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6},
                             {"µs", 1e-6},  {"ms", 1e-3}, {"s", 1.0}};
constexpr UnitDef kBandwidth[] = {{"bps", 1.0 / 8},
                                  {"Kbps", 1e3 / 8},
                                  {"kbps", 1e3 / 8},
                                  {"Mbps", 1e6 / 8},
                                  {"Gbps", 1e9 / 8},
                                  {"Tbps", 1e12 / 8},
                                  {"b/s", 1.0 / 8},
                                  {"Kb/s", 1e3 / 8},
                                  {"kb/s", 1e3 / 8},
                                  {"Mb/s", 1e6 / 8},
                                  {"Gb/s", 1e9 / 8},
                                  {"Tb/s", 1e12 / 8},
                                  {"B/s", 1.0},
                                  {"KB/s", 1e3},
                                  {"kB/s", 1e3},
                                  {"MB/s", 1e6},
                                  {"GB/s", 1e9},
                                  {"TB/s", 1e12},
                                  {"KiB/s", 1024.0},
                                  {"MiB/s", 1048576.0},
                                  {"GiB/s", 1073741824.0},
                                  {"TiB/s", 1099511627776.0},
                                  {"Bps", 1.0},
                                  {"KBps", 1e3},
                                  {"MBps", 1e6},
                                  {"GBps", 1e9},
                                  {"TBps", 1e12}};
constexpr UnitDef kSize[] = {{"B", 1.0},
                             {"KB", 1e3},
                             {"kB", 1e3},
                             {"MB", 1e6},
                             {"GB", 1e9},
                             {"TB", 1e12},
                             {"KiB", 1024.0},
                             {"MiB", 1048576.0},
                             {"GiB", 1073741824.0},
                             {"TiB", 1099511627776.0}};
constexpr UnitDef kFrequency[] = {
    {"Hz", 1.0}, {"kHz", 1e3}, {"KHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
constexpr UnitDef kFlopRate[] = {
    {"flops", 1.0},    {"Kflops", 1e3},   {"Mflops", 1e6},  {"Gflops", 1e9},   {"Tflops", 1e12},
    {"Pflops", 1e15},  {"flop/s", 1.0},   {"KFlop/s", 1e3}, {"MFlop/s", 1e6},  {"GFlop/s", 1e9},
    {"TFlop/s", 1e12}, {"PFlop/s", 1e15}, {"Gflop/s", 1e9}, {"Tflop/s", 1e12}, {"Pflop/s", 1e15}};

template <std::size_t N>
const UnitDef* find(const UnitDef (&table)[N], std::string_view s) {
  for (const auto& u : table)
    if (s == u.suffix) return &u;
  return nullptr;
}

const UnitDef* find_unit(Quantity q, std::string_view s) {
  switch (q) {
    case Quantity::Time:
      return find(kTime, s);
    case Quantity::Bandwidth:
      return find(kBandwidth, s);
    case Quantity::Size:
      return find(kSize, s);
    case Quantity::Frequency:
      return find(kFrequency, s);
    case Quantity::FlopRate:
      return find(kFlopRate, s);
  }
  return nullptr;
}

const char* example(Quantity q) {
  switch (q) {
    case Quantity::Time:
      return "\"90ns\"";
    case Quantity::Bandwidth:
      return "\"100Gbps\" or \"12.5GB/s\"";
    case Quantity::Size:
      return "\"64KiB\"";
    case Quantity::Frequency:
      return "\"2.7GHz\"";
    case Quantity::FlopRate:
      return "\"3.2Tflops\"";
  }
  return "";
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

const char* quantity_name(Quantity q) {
  switch (q) {
    case Quantity::Time:
      return "time";
    case Quantity::Bandwidth:
      return "bandwidth";
    case Quantity::Size:
      return "size";
    case Quantity::Frequency:
      return "frequency";
    case Quantity::FlopRate:
      return "flop rate";
  }
  return "";
}

const char* unit_list(Quantity q) {
  switch (q) {
    case Quantity::Time:
      return "ps, ns, us, ms, s";
    case Quantity::Bandwidth:
      return "bps, Kbps, Mbps, Gbps, Tbps (bits/s) or B/s, KB/s, MB/s, GB/s, KiB/s, MiB/s, GiB/s "
             "(bytes/s)";
    case Quantity::Size:
      return "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB";
    case Quantity::Frequency:
      return "Hz, kHz, MHz, GHz";
    case Quantity::FlopRate:
      return "flops, Mflops, Gflops, Tflops, Pflops (or GFlop/s, ...)";
  }
  return "";
}

std::optional<double> parse_quantity(std::string_view text, Quantity q, std::string* why) {
  std::string s(trim(text));
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str()) {
    *why = "not a number followed by a unit; expected a " + std::string(quantity_name(q)) +
           " such as " + example(q);
    return std::nullopt;
  }
  std::string_view unit = trim(std::string_view(end));
  if (unit.empty()) {
    *why = "no unit; write a " + std::string(quantity_name(q)) + " with one of " + unit_list(q) +
           ", e.g. " + example(q);
    return std::nullopt;
  }
  const UnitDef* u = find_unit(q, unit);
  if (!u) {
    *why = "unknown unit \"" + std::string(unit) + "\" for a " + quantity_name(q) +
           "; use one of " + unit_list(q) + ", e.g. " + example(q);
    return std::nullopt;
  }
  if (!std::isfinite(v) || v < 0) {
    *why = "must be a finite, non-negative " + std::string(quantity_name(q));
    return std::nullopt;
  }
  return v * u->factor;
}

std::string format_quantity(double value, Quantity q) {
  struct Pick {
    double factor;
    const char* suffix;
  };
  static constexpr Pick kTimeOut[] = {
      {1.0, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}, {1e-12, "ps"}};
  static constexpr Pick kBwOut[] = {
      {1e12 / 8, "Tbps"}, {1e9 / 8, "Gbps"}, {1e6 / 8, "Mbps"}, {1.0, "B/s"}};
  static constexpr Pick kSizeOut[] = {{1099511627776.0, "TiB"},
                                      {1073741824.0, "GiB"},
                                      {1048576.0, "MiB"},
                                      {1024.0, "KiB"},
                                      {1.0, "B"}};
  static constexpr Pick kFreqOut[] = {{1e9, "GHz"}, {1e6, "MHz"}, {1e3, "kHz"}, {1.0, "Hz"}};
  static constexpr Pick kFlopOut[] = {
      {1e15, "Pflops"}, {1e12, "Tflops"}, {1e9, "Gflops"}, {1e6, "Mflops"}, {1.0, "flops"}};
  const Pick* begin = nullptr;
  std::size_t n = 0;
  switch (q) {
    case Quantity::Time:
      begin = kTimeOut, n = std::size(kTimeOut);
      break;
    case Quantity::Bandwidth:
      begin = kBwOut, n = std::size(kBwOut);
      break;
    case Quantity::Size:
      begin = kSizeOut, n = std::size(kSizeOut);
      break;
    case Quantity::Frequency:
      begin = kFreqOut, n = std::size(kFreqOut);
      break;
    case Quantity::FlopRate:
      begin = kFlopOut, n = std::size(kFlopOut);
      break;
  }
  // Largest unit in which the value is >= 1 (sizes: in which it is a whole number).
  const Pick* pick = &begin[n - 1];
  for (std::size_t i = 0; i < n; ++i) {
    double x = value / begin[i].factor;
    bool whole = std::fabs(x - std::round(x)) < 1e-9 * std::max(1.0, x);
    if (x >= 1.0 && (q != Quantity::Size || whole)) {
      pick = &begin[i];
      break;
    }
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.12g%s", value / pick->factor, pick->suffix);
  return buf;
}

}  // namespace simmpi::runtime
