// SPDX-License-Identifier: Apache-2.0
// simmpi-traffic's command line: the platform (--platform, --set), the pattern, the messages,
// the offered loads and the outputs. Every bad value is a ConfigError naming its option.
#pragma once

#include <string>
#include <vector>

#include "tools/traffic/traffic_pattern.hpp"
#include "tools/traffic/traffic_run.hpp"

namespace simmpi::traffic {

struct TrafficOptions {
  std::string platform;           // a file or a preset name; empty: the default platform
  std::vector<std::string> sets;  // "key=value", in order
  PatternKind pattern = PatternKind::Uniform;
  double hot_fraction = 0.1;
  int hot_node = 0;
  TrafficSettings settings;
  // Warm-up and window in message times (S over the injection bandwidth) unless given as times.
  double warmup_messages = 20, window_messages = 100;
  bool warmup_given = false, window_given = false;
  std::vector<double> loads{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};
  std::string csv_path;  // empty: stdout
  std::string svg_path;  // empty: no plot
  bool quiet = false;
  bool help = false;
};

// Throws ConfigError naming the option.
TrafficOptions parse_traffic_options(int argc, char** argv);
// "0.1:1.0:0.1" (first:last:step, last included), "0.2,0.5,0.9" or "0.5"; each in (0, 1].
std::vector<double> parse_loads(const std::string& text);
const char* traffic_usage();

}  // namespace simmpi::traffic
