// SPDX-License-Identifier: Apache-2.0
// runtime.host_time* from the configuration to the scheduler, and back into the summary.
#include "libsimmpi/launch/own_time_setup.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "hardware/compute/host_translation.hpp"
#include "libsimmpi/launch/launch_options.hpp"
#include "runtime/core/error.hpp"

namespace simmpi::mpi {
namespace {

using hardware::HostModel;
using runtime::ComputeProfile;

// FNV-1a over the program file: the compute profile names the exact program it fits.
std::string program_fingerprint() {
  std::ifstream in("/proc/self/exe", std::ios::binary);
  std::uint64_t h = 1469598103934665603ull;
  for (std::istreambuf_iterator<char> it(in), end; it != end; ++it) {
    h ^= static_cast<unsigned char>(*it);
    h *= 1099511628211ull;
  }
  return strprintf("%016llx", static_cast<unsigned long long>(h));
}

std::string arguments_text(const LaunchOptions& o) {
  std::string s;
  for (std::size_t i = 1; i < o.app_argv.size(); ++i)
    s += (i > 1 ? " " : "") + std::string(o.app_argv[i]);
  return s;
}

// The run's identity, written into a recorded profile and checked against a replayed one.
void set_identity(ComputeProfile& p, const LaunchOptions& o) {
  p.set_header("program", o.app_argv.empty() ? "" : o.app_argv[0]);
  p.set_header("program_fingerprint", program_fingerprint());
  p.set_header("arguments", arguments_text(o));
  p.set_header("ranks", std::to_string(o.ranks));
}

void set_host(ComputeProfile& p, const HostModel& h) {
  p.set_header("host", h.host);
  p.set_header("cpu", h.cpu);
  p.set_header("host_clock_hz", strprintf("%.9e", h.clock_hz));
  p.set_header("host_core_flops", strprintf("%.9e", h.core_flops));
  p.set_header("host_core_memory_Bps", strprintf("%.9e", h.core_memory_Bps));
}

// The host the profile was measured on: its figures translate the replayed bursts.
HostModel host_of(const ComputeProfile& p, const std::string& path) {
  auto need = [&](const char* key) -> const std::string& {
    const std::string* v = p.header(key);
    if (!v) throw ConfigError(path + ": compute profile without \"" + key + "\"; record it again");
    return *v;
  };
  HostModel h;
  h.host = need("host");
  h.cpu = need("cpu");
  h.clock_hz = std::atof(need("host_clock_hz").c_str());
  h.core_flops = std::atof(need("host_core_flops").c_str());
  h.core_memory_Bps = std::atof(need("host_core_memory_Bps").c_str());
  h.tsc_hz = 1e9;  // unused: nothing is measured while replaying
  return h;
}

void check_fits(const ComputeProfile& p, const LaunchOptions& o, const std::string& path) {
  ComputeProfile self;
  set_identity(self, o);
  for (const auto& [key, value] : self.header_entries()) {
    if (key == "program") continue;  // the same program may be run from another path
    const std::string* recorded = p.header(key);
    if (!recorded || *recorded != value)
      throw ConfigError(strprintf(
          "%s: the compute profile does not fit this run: it was recorded with %s %s, this run "
          "has %s%s. Record one for this run with --set runtime.host_time_record=FILE",
          path.c_str(), key == "program_fingerprint" ? "program" : key.c_str(),
          recorded ? ("\"" + *recorded + "\"").c_str() : "none",
          key == "program_fingerprint" ? "another build of the program " : "",
          ("\"" + value + "\"").c_str()));
  }
}

double given_scale(const runtime::Config& c) {
  const std::string& text = c.text("runtime.host_time_scale");
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v > 0) || v > 1e6)
    throw ConfigError(
        strprintf("runtime.host_time_scale = \"%s\" (%s): expected auto or a "
                  "positive number of simulated seconds per host second, e.g. 1.5",
                  text.c_str(), c.origin("runtime.host_time_scale").c_str()));
  return v;
}

hardware::HostTimeBound bound_of(const std::string& name) {
  if (name == "flops") return hardware::HostTimeBound::Flops;
  if (name == "memory") return hardware::HostTimeBound::Memory;
  return hardware::HostTimeBound::Clock;
}

std::string describe_ratio(const hardware::HostTranslation& t, hardware::HostTimeBound b,
                           const HostModel& host, const hardware::NodeSpec& node) {
  using hardware::HostTimeBound;
  std::string why;
  if (b == HostTimeBound::Clock)
    why = strprintf("host %.2f GHz / node %.2f GHz", host.clock_hz / 1e9, node.frequency_hz / 1e9);
  else if (b == HostTimeBound::Flops)
    why = strprintf("host %.1f / node %.1f Gflop/s per core", host.core_flops / 1e9,
                    node.vector_frequency_hz * node.flops_per_cycle / 1e9);
  else
    why = strprintf("host %.1f GB/s / node's per core %.1f GB/s", host.core_memory_Bps / 1e9,
                    host.core_memory_Bps / t.memory / 1e9);
  std::string others;
  for (HostTimeBound o : {HostTimeBound::Clock, HostTimeBound::Flops, HostTimeBound::Memory})
    if (o != b) others += strprintf(", %s x%.3f", hardware::bound_name(o), t.ratio(o));
  return strprintf("x%.3f (runtime.host_time_bound = %s: %s; other bounds would give%s)",
                   t.ratio(b), hardware::bound_name(b), why.c_str(), others.c_str() + 1);
}

}  // namespace

std::unique_ptr<runtime::OwnTime> make_own_time(const runtime::Config& c,
                                                const hardware::NodeSpec& node,
                                                const LaunchOptions& o, OwnTimeNote& note) {
  if (c.text("runtime.host_time") == "ignore") return nullptr;
  runtime::OwnTime::Options opt;
  const std::string replay = c.path("runtime.host_time_replay");
  const bool automatic = c.text("runtime.host_time_scale") == "auto";
  const double scale = automatic ? 0 : given_scale(c);
  HostModel host;
  if (!replay.empty()) {
    opt.replay = std::make_unique<ComputeProfile>(ComputeProfile::read(replay));
    check_fits(*opt.replay, o, replay);
    host = host_of(*opt.replay, replay);
    opt.replay_path = replay;
    note.replayed_from = replay + " (measured on " + host.host + ")";
  } else {
    host = HostModel::load_or_measure(c.text("runtime.host_calibration") == "refresh");
  }
  opt.tsc_hz = host.tsc_hz;
  if (automatic) {
    const auto t = hardware::HostTranslation::between(host, node, o.ranks);
    const auto b = bound_of(c.text("runtime.host_time_bound"));
    opt.scale = t.ratio(b);
    note.ratio_text = describe_ratio(t, b, host, node);
  } else {
    opt.scale = scale;
    note.ratio_text = strprintf("x%g (runtime.host_time_scale)", scale);
  }
  if (const std::string rec = c.path("runtime.host_time_record"); !rec.empty()) {
    opt.record = std::make_unique<ComputeProfile>();
    set_identity(*opt.record, o);
    set_host(*opt.record, host);
    opt.record_path = rec;
  }
  return std::make_unique<runtime::OwnTime>(std::move(opt));
}

void print_own_time_summary(runtime::Scheduler& sched, const OwnTimeNote& note) {
  const runtime::OwnTime* own = sched.own_time();
  if (!own) return;
  // The rank whose end is the run's end: its share of own code is the prediction's.
  int last = 0;
  for (int r = 1; r < sched.process_count(); ++r)
    if (sched.process(r).finish_time() > sched.process(last).finish_time()) last = r;
  const runtime::Process& p = sched.process(last);
  const double own_s = p.own_time().charged.seconds(), end_s = p.finish_time().seconds();
  std::fprintf(stderr,
               "simmpi: own code: rank %d, the last to finish, spent %s of its %s in its own "
               "code (%.1f%%), host time %s\n",
               last, p.own_time().charged.to_string().c_str(), p.finish_time().to_string().c_str(),
               end_s > 0 ? 100 * own_s / end_s : 0.0, note.ratio_text.c_str());
  if (own->replaying())
    std::fprintf(stderr, "simmpi: own code replayed from the compute profile %s\n",
                 note.replayed_from.c_str());
  else
    std::fprintf(stderr,
                 "simmpi: own code measured on this host: simulated times vary slightly from run "
                 "to run; record it once (--set runtime.host_time_record=FILE) and reuse it "
                 "(--set runtime.host_time_replay=FILE) for identical runs, or --set "
                 "runtime.host_time=ignore\n");
}

}  // namespace simmpi::mpi
