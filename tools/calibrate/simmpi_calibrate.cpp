// SPDX-License-Identifier: Apache-2.0
// simmpi-calibrate: measures DGEMM, DTRSM, DGEMV, DAXPY, DSWAP, DCOPY, memcpy and LU's row
// interchanges (dlaswp, HPL's loop) with the host's real BLAS on one core, fits t = mu * x + theta
// per kernel and size class (x = ops for dense kernels, bytes for memory-bound ones), prints R^2
// of every fit, and writes
//   - a compute profile (efficiency = 1 / (mu * reference peak), overhead = theta), and
//   - a platform file describing this host as a node, naming that profile,
// then checks the model: DGEMM and DTRSM shapes measured afresh against the simulator's own
// prediction (runtime Config -> hardware ComputeModel, the path a simulation takes).
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>

#include "hardware/compute/compute_model.hpp"
#include "hardware/compute/host_model.hpp"
#include "runtime/config/config.hpp"
#include "runtime/config/units.hpp"
#include "runtime/core/error.hpp"
#include "tools/calibrate/benchmarks.hpp"
#include "tools/calibrate/linear_fit.hpp"

namespace simmpi::calibrate {
namespace {

using hardware::ComputeTask;

struct Options {
  std::string profile = "simmpi-profile.toml";
  std::string platform = "simmpi-host.toml";
  Clock clock = Clock::ThreadCpu;
  bool quick = false;
  bool validate = true;
  int rounds = 3;              // passes over all cases; each case keeps its best time
  double frequency_hz = 0;     // 0: read /proc/cpuinfo
  double flops_per_cycle = 0;  // 0: from the CPU flags
};

const char* kUsage =
    "usage: simmpi-calibrate [--profile=FILE] [--platform-out=FILE] [--clock=cpu|wall]\n"
    "                        [--frequency=2.3GHz] [--flops-per-cycle=32] [--rounds=3] [--quick]\n"
    "                        [--no-validate]\n"
    "Measures the host BLAS (one thread) and writes a compute profile and a platform file that\n"
    "names it (defaults: simmpi-profile.toml, simmpi-host.toml); then prints measured against\n"
    "predicted DGEMM and DTRSM times. --clock=cpu (default) times with the thread's CPU clock,\n"
    "which other processes on the machine do not inflate; each case keeps its best time over\n"
    "--rounds passes, so a passing burst of load on the machine does not bias a subset.\n";

bool starts(const char* a, const char* p, std::string* rest) {
  std::size_t n = std::strlen(p);
  if (std::strncmp(a, p, n) != 0) return false;
  *rest = a + n;
  return true;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string v, why;
    const char* a = argv[i];
    if (starts(a, "--profile=", &v))
      o.profile = v;
    else if (starts(a, "--platform-out=", &v))
      o.platform = v;
    else if (!std::strcmp(a, "--clock=wall"))
      o.clock = Clock::Wall;
    else if (!std::strcmp(a, "--clock=cpu"))
      o.clock = Clock::ThreadCpu;
    else if (!std::strcmp(a, "--quick"))
      o.quick = true;
    else if (!std::strcmp(a, "--no-validate"))
      o.validate = false;
    else if (starts(a, "--flops-per-cycle=", &v))
      o.flops_per_cycle = std::atof(v.c_str());
    else if (starts(a, "--rounds=", &v))
      o.rounds = std::max(1, std::atoi(v.c_str()));
    else if (starts(a, "--frequency=", &v)) {
      auto f = runtime::parse_quantity(v, runtime::Quantity::Frequency, &why);
      if (!f) throw ConfigError("--frequency=" + v + ": " + why);
      o.frequency_hz = *f;
    } else {
      std::fputs(kUsage, std::strcmp(a, "--help") ? stderr : stdout);
      std::exit(std::strcmp(a, "--help") ? 2 : 0);
    }
  }
  return o;
}

// "model name" and the other fields of the first processor in /proc/cpuinfo.
std::map<std::string, std::string> cpuinfo() {
  std::map<std::string, std::string> info;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line) && !line.empty()) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(0, line.find_last_not_of(" \t", colon - 1) + 1);
    info[key] = colon + 2 <= line.size() ? line.substr(colon + 2) : "";
  }
  return info;
}

struct KernelResult {
  std::string name;  // "dgemm"
  std::vector<hardware::EfficiencyClass> classes;
  double r2 = 0;
  double max_rel_error = 0;  // worst measurement against its class's fit
};

// Fits each size class of one kernel; `reference` is the peak (flop/s) or bandwidth (B/s)
// efficiencies are expressed against.
KernelResult fit_kernel(const KernelPlan& plan, const std::vector<double>& times,
                        double reference) {
  bool by_bytes = hardware::bound_of(plan.kernel) == hardware::Bound::Memory;
  std::string name = hardware::kernel_name(plan.kernel, hardware::Precision::Double);
  KernelResult r;
  r.name = name;
  std::vector<double> measured, predicted;
  std::int64_t lower = 0;
  for (std::size_t c = 0; c <= plan.class_bounds.size(); ++c) {
    std::int64_t up_to = c < plan.class_bounds.size() ? plan.class_bounds[c] : 0;
    std::vector<Sample> s;
    for (std::size_t i = 0; i < plan.cases.size(); ++i) {
      std::int64_t size = plan.cases[i].task.size();
      if (size > lower && (up_to == 0 || size <= up_to))
        s.push_back({by_bytes ? plan.cases[i].task.bytes : plan.cases[i].task.ops, times[i]});
    }
    std::string range = up_to ? "<= " + std::to_string(up_to) : "> " + std::to_string(lower);
    lower = up_to;
    if (s.empty()) continue;
    LinearFit f = fit_linear(s);
    r.max_rel_error = std::max(r.max_rel_error, f.max_rel_error);
    r.classes.push_back({up_to, 1 / (f.mu * reference), f.theta, f.r2, static_cast<int>(s.size())});
    for (const Sample& x : s) measured.push_back(x.t), predicted.push_back(f.mu * x.x + f.theta);
    std::printf(
        "  fit %-9s size %-10s n=%-3zu efficiency %.4f  overhead %8.3f us  R^2 %.6f  "
        "max error %.1f%%\n",
        name.c_str(), range.c_str(), s.size(), r.classes.back().efficiency, f.theta * 1e6, f.r2,
        100 * f.max_rel_error);
  }
  if (!r.classes.empty()) r.classes.back().up_to = 0;
  r.r2 = r_squared(measured, predicted);
  std::printf("  R^2 %-9s %.6f over %zu measurements\n", name.c_str(), r.r2, measured.size());
  return r;
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

// How far a kernel's model can be trusted: its fit (every training measurement against the
// line of its size class) and, for the kernels validated, fresh shapes against the simulator's
// prediction. Thresholds: a model within 10% is what the roofline promises; within 25% it
// still ranks designs but its absolute times are rough; beyond, the timings were disturbed or
// one straight line per size class does not describe the kernel.
struct Verdict {
  std::string kernel;
  double fit_error = 0;  // fraction
  double r2 = 0;
  double validation_error = -1;  // fraction; -1: not validated
};

void print_verdicts(const std::vector<Verdict>& verdicts) {
  std::printf(
      "\nverdict per kernel (fit: training measurements against their fitted line; "
      "validation: fresh shapes against the simulator):\n");
  int trusted = 0;
  for (const Verdict& v : verdicts) {
    double worst = std::max(v.fit_error, v.validation_error);
    const char* word = worst <= 0.10 ? "trustworthy" : worst <= 0.25 ? "rough" : "not trustworthy";
    trusted += worst <= 0.10;
    std::string why = fmt("fit within %.1f%%", 100 * v.fit_error) + fmt(" (R^2 %.4f)", v.r2);
    if (v.validation_error >= 0) why += fmt(", validation within %.1f%%", 100 * v.validation_error);
    if (worst > 0.10) {
      why += v.validation_error > v.fit_error
                 ? "; the shapes it was not trained on are off: the kernel's speed depends on "
                   "more than its size (its shape or the cache), which one line per size class "
                   "does not capture"
                 : "; the measurements scatter around the line: rerun on a quiet machine "
                   "(other load inflates some timings) or with more --rounds";
    }
    std::printf("  %-8s %-16s %s\n", v.kernel.c_str(), word, why.c_str());
  }
  std::printf("%d of %zu kernels trustworthy (within 10%%)%s\n", trusted, verdicts.size(),
              trusted == static_cast<int>(verdicts.size())
                  ? ""
                  : "; predictions dominated by the others carry their error");
}

void write_platform(const Options& o, int cores, double freq, double fpc, double core_bw,
                    double node_bw) {
  std::string profile = o.profile;
  auto dir = [](const std::string& p) {
    auto s = p.rfind('/');
    return s == std::string::npos ? std::string() : p.substr(0, s + 1);
  };
  if (profile[0] != '/' && dir(profile) == dir(o.platform))
    profile = profile.substr(dir(profile).size());
  std::ofstream out(o.platform);
  out << "# This host as a simmpi node, written by simmpi-calibrate: one rank per core, the\n"
      << "# setting the profile was measured in.\n[node]\nsockets = 1\ncores_per_socket = " << cores
      << "\nfrequency = \"" << fmt("%.7gGHz", freq / 1e9) << "\"\navx512_frequency = \""
      << fmt("%.7gGHz", freq / 1e9) << "\"\nflops_per_cycle = " << fmt("%.7g", fpc)
      << "\nmemory_bw = \"" << fmt("%.7gGB/s", node_bw / 1e9) << "\"\ncore_memory_bw = \""
      << fmt("%.7gGB/s", core_bw / 1e9) << "\"\nranks_per_node = " << cores
      << "\ncores_per_rank = 1\n\n[blas]\nprofile = \"" << profile << "\"\n";
  if (!out) throw ConfigError("cannot write " + o.platform);
}

// Best time of each case over o.rounds passes.
std::vector<double> measure_all(std::vector<Benchmark>& cases, const Options& o) {
  std::vector<double> best(cases.size(), 1e300);
  for (int r = 0; r < o.rounds; ++r)
    for (std::size_t i = 0; i < cases.size(); ++i)
      best[i] = std::min(best[i], cases[i].measure(o.clock));
  return best;
}

// Measures the validation shapes afresh and compares them with the model the platform file
// gives; returns the largest relative error of each kernel validated (a fraction).
std::map<std::string, double> validate(const Options& o) {
  runtime::Config config;
  config.load_file(o.platform);
  hardware::ComputeModel model(config);
  std::printf(
      "\n| kernel | shape | measured (s) | predicted (s) | error %% |\n"
      "|---|---|---|---|---|\n");
  std::map<std::string, double> worst;
  std::vector<Benchmark> set = validation_set(o.quick);
  std::vector<double> measured = measure_all(set, o);
  for (std::size_t i = 0; i < set.size(); ++i) {
    const Benchmark& b = set[i];
    double t = measured[i], p = model.cpu().seconds(b.task);
    double err = 100 * (p - t) / t;
    std::string kernel = b.label.substr(0, b.label.find(' '));
    worst[kernel] = std::max(worst[kernel], std::fabs(err) / 100);
    std::printf("| %s | %s | %.6f | %.6f | %+.1f |\n", kernel.c_str(),
                b.label.substr(kernel.size() + 1).c_str(), t, p, err);
  }
  return worst;
}

int run(const Options& o) {
  // Fewer preemptions by other work on the machine: raise our priority where allowed.
  bool raised = setpriority(PRIO_PROCESS, 0, -10) == 0;
  auto info = cpuinfo();
  std::string core = init_host_blas();
  // The host's core as a simulated program's own code is translated from (the cached host
  // model, runtime.host_time_scale = auto): with these figures in the platform, a program's own
  // code on this host's platform is charged exactly its measured host time.
  const hardware::HostModel host = hardware::HostModel::load_or_measure(false);
  double freq = o.frequency_hz > 0 ? o.frequency_hz : host.clock_hz;
  double fpc = o.flops_per_cycle > 0 ? o.flops_per_cycle : host.core_flops / host.clock_hz;
  int cores = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  std::printf(
      "host: %s, %d cores, %.4g GHz, %g flops/cycle; BLAS: OpenBLAS (%s kernels), 1 "
      "thread; clock: %s; best of %d rounds; priority %s\n",
      info["model name"].c_str(), cores, freq / 1e9, fpc, core.c_str(),
      o.clock == Clock::ThreadCpu ? "thread CPU time" : "wall", o.rounds,
      raised ? "raised (nice -10)" : "unchanged");
  std::fflush(stdout);
  std::vector<KernelPlan> plans = training_plan(o.quick);
  std::vector<std::vector<double>> times(plans.size());
  for (std::size_t p = 0; p < plans.size(); ++p) times[p] = measure_all(plans[p].cases, o);
  for (std::size_t p = 0; p < plans.size(); ++p)
    for (std::size_t i = 0; i < plans[p].cases.size(); ++i)
      std::printf("  %-28s %12.3f us\n", plans[p].cases[i].label.c_str(), times[p][i] * 1e6);
  // The reference bandwidth: the host model's triad (the largest memcpy measures the same
  // within a few percent; one figure keeps the platform and the host model consistent).
  double core_bw = host.core_memory_Bps;
  double peak = freq * fpc;
  hardware::EfficiencyProfile profile;
  profile.description = info["model name"] + ", OpenBLAS " + core + " kernels, 1 thread, " +
                        (o.clock == Clock::ThreadCpu ? "thread CPU time" : "wall time");
  profile.reference_peak_flops = peak;
  profile.reference_memory_Bps = core_bw;
  std::printf("\nfits (reference: %.4g Gflop/s per core, %.4g GB/s per core):\n", peak / 1e9,
              core_bw / 1e9);
  std::vector<Verdict> verdicts;
  for (std::size_t p = 0; p < plans.size(); ++p) {
    bool by_bytes = hardware::bound_of(plans[p].kernel) == hardware::Bound::Memory;
    KernelResult r = fit_kernel(plans[p], times[p], by_bytes ? core_bw : peak);
    profile.set(hardware::Device::Cpu, {plans[p].kernel, hardware::Precision::Double}, r.classes);
    verdicts.push_back({r.name, r.max_rel_error, r.r2});
  }
  std::ofstream(o.profile) << profile.to_toml();
  // What the cores draw together (less than cores x one core's on most hosts): ranks of a full
  // node share it, so streaming code loses to its neighbours as natively
  // (runtime.host_time_bound = memory).
  // Bounded by what one core draws alone (a busy host can make the joint figure smaller) and by
  // the sum of all cores alone.
  const double node_bw =
      std::clamp(hardware::HostModel::measure_node_memory_Bps(cores), core_bw, cores * core_bw);
  std::printf("memory bandwidth: %.4g GB/s one core alone, %.4g GB/s all %d cores at once\n",
              core_bw / 1e9, node_bw / 1e9, cores);
  write_platform(o, cores, freq, fpc, core_bw, node_bw);
  std::printf("\nwrote %s and %s (use: ./app.sim --platform %s)\n", o.profile.c_str(),
              o.platform.c_str(), o.platform.c_str());
  if (o.validate) {
    std::map<std::string, double> validated = validate(o);
    for (Verdict& v : verdicts)
      if (auto it = validated.find(v.kernel); it != validated.end())
        v.validation_error = it->second;
  }
  print_verdicts(verdicts);
  return 0;
}

}  // namespace
}  // namespace simmpi::calibrate

int main(int argc, char** argv) {
  try {
    return simmpi::calibrate::run(simmpi::calibrate::parse(argc, argv));
  } catch (const simmpi::ConfigError& e) {
    std::fprintf(stderr, "simmpi-calibrate: %s\n", e.what());
    return 2;
  }
}
