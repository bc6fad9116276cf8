// SPDX-License-Identifier: Apache-2.0
// Parsing simmpi-traffic's options.
#include "tools/traffic/traffic_options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "runtime/config/units.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::traffic {
namespace {

double number(const std::string& option, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(v))
    throw ConfigError(option + " " + text + ": not a number");
  return v;
}

long long integer(const std::string& option, const std::string& text, long long lo, long long hi) {
  char* end = nullptr;
  errno = 0;
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || v < lo || v > hi)
    throw ConfigError(
        strprintf("%s %s: an integer in [%lld, %lld]", option.c_str(), text.c_str(), lo, hi));
  return v;
}

double quantity(const std::string& option, const std::string& text, runtime::Quantity q) {
  std::string why;
  auto v = runtime::parse_quantity(text, q, &why);
  if (!v) throw ConfigError(option + " " + text + ": " + why);
  return *v;
}

double load_value(const std::string& item) {
  double v = number("--load", item);
  if (!(v > 0 && v <= 1))
    throw ConfigError("--load " + item +
                      ": offered load outside (0, 1]; it is a fraction of the injection bandwidth");
  return v;
}

// A warm-up or window: "30" message times, or a time with its unit ("20us").
void span(const std::string& option, const std::string& text, double* messages, bool* given,
          runtime::SimTime* time) {
  if (text.find_first_not_of("0123456789.") == std::string::npos) {
    *messages = number(option, text);
    if (*messages < 0) throw ConfigError(option + " " + text + ": negative");
    return;
  }
  double s = quantity(option, text, runtime::Quantity::Time);
  if (s < 0) throw ConfigError(option + " " + text + ": negative");
  *time = runtime::SimTime::from_seconds(s);
  *given = true;
}

}  // namespace

std::vector<double> parse_loads(const std::string& text) {
  std::vector<double> loads;
  if (text.find(':') != std::string::npos) {
    std::vector<std::string> parts;
    std::stringstream ss(text);
    std::string p;
    while (std::getline(ss, p, ':')) parts.push_back(p);
    if (parts.size() != 3)
      throw ConfigError("--load " + text + ": a range is first:last:step, e.g. 0.1:1.0:0.1");
    double first = load_value(parts[0]), last = load_value(parts[1]);
    double step = number("--load", parts[2]);
    if (!(step > 0) || last < first)
      throw ConfigError("--load " + text + ": needs first <= last and a positive step");
    // Counted, not accumulated, so 0.1:1.0:0.1 ends on 1.0 exactly.
    auto n = static_cast<long>(std::floor((last - first) / step + 1e-9));
    for (long i = 0; i <= n; ++i)
      loads.push_back(std::round((first + static_cast<double>(i) * step) * 1e12) / 1e12);
    return loads;
  }
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) loads.push_back(load_value(item));
  if (loads.empty()) throw ConfigError("--load: give one or more offered loads in (0, 1]");
  return loads;
}

TrafficOptions parse_traffic_options(int argc, char** argv) {
  TrafficOptions o;
  o.settings.message_bytes = 65536;
  o.settings.outstanding = 16;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw ConfigError(a + ": missing value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--platform") {
      o.platform = value();
    } else if (a == "--set") {
      o.sets.push_back(value());
    } else if (a == "--pattern") {
      o.pattern = parse_pattern(value());
    } else if (a == "--size") {
      std::string v = value();
      double b = quantity("--size", v, runtime::Quantity::Size);
      if (!(b >= 1) || b > 1e15) throw ConfigError("--size " + v + ": at least 1 byte");
      o.settings.message_bytes = static_cast<std::uint64_t>(b);
    } else if (a == "--load") {
      o.loads = parse_loads(value());
    } else if (a == "--injection") {
      std::string v = value();
      if (v == "poisson")
        o.settings.injection = InjectionKind::Poisson;
      else if (v == "bursty")
        o.settings.injection = InjectionKind::Bursty;
      else
        throw ConfigError("--injection " + v + ": choose poisson or bursty");
    } else if (a == "--burst") {
      std::string v = value();
      o.settings.burst = number("--burst", v);
      if (!(o.settings.burst >= 1))
        throw ConfigError("--burst " + v + ": mean messages per burst, at least 1");
    } else if (a == "--outstanding") {
      o.settings.outstanding = static_cast<int>(integer("--outstanding", value(), 0, 65535));
    } else if (a == "--warmup") {
      span("--warmup", value(), &o.warmup_messages, &o.warmup_given, &o.settings.warmup);
    } else if (a == "--window") {
      span("--window", value(), &o.window_messages, &o.window_given, &o.settings.window);
    } else if (a == "--hot-fraction") {
      o.hot_fraction = number("--hot-fraction", value());
    } else if (a == "--hot-node") {
      o.hot_node = static_cast<int>(integer("--hot-node", value(), 0, 1LL << 31));
    } else if (a == "--csv") {
      o.csv_path = value();
    } else if (a == "--svg") {
      o.svg_path = value();
    } else if (a == "--quiet") {
      o.quiet = true;
    } else {
      throw ConfigError(a + ": unknown option (simmpi-traffic --help lists them)");
    }
  }
  if (o.window_given ? o.settings.window.ps() <= 0 : o.window_messages <= 0)
    throw ConfigError("--window: the measurement window must be longer than 0");
  return o;
}

const char* traffic_usage() {
  return R"(usage: simmpi-traffic [options]
Synthetic traffic on simmpi's network model: every endpoint a source and a sink, no MPI.
Prints one CSV line per offered load: accepted throughput and message latency.

  --platform FILE|NAME   platform file or preset (network.* keys; node.count for a crossbar)
  --set KEY=VALUE        override a key (repeatable), e.g. network.topology=fat_tree
  --pattern NAME         uniform (default), permutation, bit_complement, bit_reverse,
                         transpose, shuffle, tornado, neighbor (torus), dragonfly_worst
                         (dragonfly: group i to i+1), all_to_all, hot_spot
  --hot-fraction P       hot_spot: share of the messages sent to the hot node (0.1)
  --hot-node N           hot_spot: the hot node (0)
  --size BYTES           message size (64KiB)
  --load LIST            offered loads, fractions of the injection bandwidth in (0, 1]:
                         0.1:1.0:0.1 (default), 0.2,0.5 or 0.7
  --injection KIND       poisson (default) or bursty (on/off bursts at the line rate)
  --burst N              bursty: mean messages per burst (8)
  --outstanding N        messages leaving a source's NIC at once, the rest wait in its
                         source queue (16; 0: no limit)
  --warmup SPAN          warm-up: message times (20) or a time (50us)
  --window SPAN          measurement window: message times (100) or a time (1ms)
  --csv FILE             the CSV (default: standard output)
  --svg FILE             also plot the curves (python3-matplotlib)
  --quiet                no progress lines on standard error
A message time is the message size over the injection bandwidth. The seed is runtime.seed.
)";
}

}  // namespace simmpi::traffic
