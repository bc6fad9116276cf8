// SPDX-License-Identifier: Apache-2.0
// simmpi-traffic: offered-load curves of synthetic traffic on the configured network (see
// traffic_run.hpp for the model, docs/traffic.md for a walk-through). The CSV depends only on
// the inputs; host times go to standard error.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "libsimmpi/launch/platform_presets.hpp"
#include "runtime/config/config.hpp"
#include "runtime/core/error.hpp"
#include "tools/traffic/traffic_options.hpp"
#include "tools/traffic/traffic_run.hpp"

namespace simmpi::traffic {
namespace {

namespace fs = std::filesystem;

runtime::Config load_config(const TrafficOptions& o) {
  runtime::Config c;
  if (!o.platform.empty()) c.load_file(mpi::find_platform_file(o.platform));
  for (const std::string& s : o.sets) c.set(s);
  return c;
}

std::string number(double v) {
  if (std::isnan(v)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string csv_line(const LoadResult& r) {
  return number(r.offered) + "," + number(r.accepted) + "," + number(r.accepted_Bps) + "," +
         number(r.mean_latency_s) + "," + number(r.p99_latency_s) + "," +
         std::to_string(r.measured) + "\n";
}

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// The Python that runs the plot: SIMMPI_PYTHON, else Debian's (python3-matplotlib is installed
// for /usr/bin/python3, whatever python3 comes first on the PATH), else python3 on the PATH.
std::string plot_python() {
  if (const char* p = std::getenv("SIMMPI_PYTHON"); p && *p) return p;
  if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

// Runs the plot script beside the installed tools: <prefix>/share/simmpi/python.
void plot(const std::string& csv, const std::string& svg, const std::string& title) {
  fs::path exe = fs::read_symlink("/proc/self/exe");
  fs::path script = exe.parent_path().parent_path() / "share/simmpi/python/simmpi_traffic_plot.py";
  std::string python = plot_python();
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    execlp(python.c_str(), python.c_str(), script.c_str(), csv.c_str(), svg.c_str(), title.c_str(),
           static_cast<char*>(nullptr));
    std::perror(("simmpi-traffic: " + python).c_str());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw ConfigError("--svg " + svg + ": the plot script " + script.string() + " failed under " +
                      python +
                      " (it needs matplotlib: Debian python3-matplotlib; SIMMPI_PYTHON "
                      "names another Python)");
}

// Host cost on standard error (never in the CSV, which depends only on the inputs).
void report_progress(const LoadResult& r) {
  std::fprintf(stderr,
               "simmpi-traffic: load %.3g: accepted %.4g, latency mean %.4g us p99 %.4g us "
               "(%llu messages); %llu flow events in %.3f s of host time (%.3f s CPU), %.3g per "
               "second, %.3g per CPU second, peak memory %.1f MiB\n",
               r.offered, r.accepted, r.mean_latency_s * 1e6, r.p99_latency_s * 1e6,
               static_cast<unsigned long long>(r.measured),
               static_cast<unsigned long long>(r.flow_events), r.wall_s, r.cpu_s,
               static_cast<double>(r.flow_events) / r.wall_s,
               static_cast<double>(r.flow_events) / r.cpu_s, peak_rss_mib());
}

std::string describe(const runtime::Config& c, const TrafficOptions& o, const TrafficRun& run) {
  return strprintf(
      "%s traffic on network.topology = %s: %d sending endpoints, %llu-byte messages, "
      "injection %.4g GB/s, %s injection, at most %d outstanding per source",
      pattern_name(o.pattern), c.text("network.topology").c_str(), run.sending_sources(),
      static_cast<unsigned long long>(o.settings.message_bytes), run.injection_Bps() / 1e9,
      o.settings.injection == InjectionKind::Poisson ? "poisson" : "bursty",
      o.settings.outstanding);
}

int run_curve(const TrafficOptions& options) {
  runtime::Config config = load_config(options);
  Endpoints ends = configured_endpoints(config);
  auto seed = static_cast<std::uint64_t>(config.integer("runtime.seed"));
  Pattern pattern(options.pattern, NetworkShape::from_config(config, ends.nodes), seed,
                  options.hot_fraction, options.hot_node);
  TrafficSettings settings = options.settings;
  double message_s = static_cast<double>(settings.message_bytes) / ends.injection_Bps;
  if (!options.warmup_given)
    settings.warmup = runtime::SimTime::from_seconds(options.warmup_messages * message_s);
  if (!options.window_given)
    settings.window = runtime::SimTime::from_seconds(options.window_messages * message_s);
  if (settings.window.ps() <= 0)
    throw ConfigError("--window: the measurement window must be longer than 0");

  // The CSV goes out a line per load as each finishes, so a long curve shows as it goes.
  std::string csv_path = options.csv_path;
  if (csv_path.empty() && !options.svg_path.empty())
    csv_path = fs::path(options.svg_path).replace_extension(".csv").string();
  std::ofstream file;
  if (!csv_path.empty()) {
    file.open(csv_path);
    if (!file) throw ConfigError("--csv " + csv_path + ": cannot write the file");
  }
  std::ostream& out = csv_path.empty() ? std::cout : file;
  out << "offered_load,accepted_load,accepted_Bps,mean_latency_s,p99_latency_s,messages\n"
      << std::flush;
  std::string title;
  for (double load : options.loads) {
    TrafficRun run(config, pattern, settings, load);
    if (title.empty()) {
      title = describe(config, options, run);
      if (!options.quiet)
        std::fprintf(stderr, "simmpi-traffic: %s; warm-up %s, window %s\n", title.c_str(),
                     settings.warmup.to_string().c_str(), settings.window.to_string().c_str());
    }
    LoadResult r = run.run();
    out << csv_line(r) << std::flush;
    if (!out) throw ConfigError("--csv " + csv_path + ": cannot write the file");
    if (!options.quiet) report_progress(r);
    // network.stats: each load writes the same files, so the last load's are what remains.
    for (const std::string& f : r.stats_files)
      std::fprintf(stderr, "simmpi-traffic: load %.3g: network statistics in %s\n", load,
                   f.c_str());
  }
  if (!options.svg_path.empty()) plot(csv_path, options.svg_path, title);
  return 0;
}

}  // namespace
}  // namespace simmpi::traffic

int main(int argc, char** argv) {
  using namespace simmpi::traffic;
  try {
    TrafficOptions options = parse_traffic_options(argc, argv);
    if (options.help) {
      std::fputs(traffic_usage(), stdout);
      return 0;
    }
    return run_curve(options);
  } catch (const simmpi::ConfigError& e) {
    std::fprintf(stderr, "simmpi-traffic: error: %s\n", e.what());
    return 2;
  }
}
