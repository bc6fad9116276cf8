// SPDX-License-Identifier: Apache-2.0
// Measuring this host's core (clock, peak, memory bandwidth) and caching the figures.
#include "hardware/compute/host_model.hpp"

#include <immintrin.h>
#include <sys/wait.h>
#include <toml++/toml.h>
#include <unistd.h>
#include <x86intrin.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <vector>

#include "runtime/core/error.hpp"
#include "runtime/core/host_clock.hpp"

namespace simmpi::hardware {
namespace {

double cpu_seconds() {
  return static_cast<double>(runtime::host_clock_ns(CLOCK_THREAD_CPUTIME_ID)) * 1e-9;
}

// The least CPU time of `rounds` runs of `kernel`: the run least disturbed by the host.
template <class F>
double best_seconds(int rounds, F&& kernel) {
  double best = 1e300;
  for (int i = 0; i < rounds; ++i) {
    const double t0 = cpu_seconds();
    kernel();
    best = std::min(best, cpu_seconds() - t0);
  }
  return best;
}

// Eight dependent additions per iteration: eight cycles on any core that retires one integer
// add per cycle (every x86-64 core since the Pentium); the loop's own counter runs beside them.
__attribute__((noinline)) std::uint64_t add_chain(std::uint64_t iterations) {
  std::uint64_t x = 0;
  for (std::uint64_t i = 0; i < iterations; ++i)
    asm volatile(
        "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
        "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
        : "+r"(x));
  return x;
}

// Twelve independent multiply-add chains hide the FMA latency (4-5 cycles on two pipes).
constexpr int kChains = 12;

__attribute__((target("avx512f"), noinline)) double fma_avx512(long n) {
  __m512d a[kChains];
  for (auto& v : a) v = _mm512_set1_pd(1.0);
  const __m512d m = _mm512_set1_pd(1.0000001), c = _mm512_set1_pd(1e-9);
  for (long i = 0; i < n; ++i)
    for (auto& v : a) v = _mm512_fmadd_pd(v, m, c);
  alignas(64) double out[8];
  double s = 0;
  for (auto& v : a) {
    _mm512_store_pd(out, v);
    for (double x : out) s += x;
  }
  return s;
}

__attribute__((target("avx2,fma"), noinline)) double fma_avx2(long n) {
  __m256d a[kChains];
  for (auto& v : a) v = _mm256_set1_pd(1.0);
  const __m256d m = _mm256_set1_pd(1.0000001), c = _mm256_set1_pd(1e-9);
  for (long i = 0; i < n; ++i)
    for (auto& v : a) v = _mm256_fmadd_pd(v, m, c);
  alignas(32) double out[4];
  double s = 0;
  for (auto& v : a) _mm256_store_pd(out, v), s += out[0] + out[1] + out[2] + out[3];
  return s;
}

__attribute__((noinline)) double mul_add_sse2(long n) {
  __m128d a[kChains];
  for (auto& v : a) v = _mm_set1_pd(1.0);
  const __m128d m = _mm_set1_pd(1.0000001), c = _mm_set1_pd(1e-9);
  for (long i = 0; i < n; ++i)
    for (auto& v : a) v = _mm_add_pd(_mm_mul_pd(v, m), c);
  alignas(16) double out[2];
  double s = 0;
  for (auto& v : a) _mm_store_pd(out, v), s += out[0] + out[1];
  return s;
}

double measure_core_flops() {
  const long n = 2000000;
  volatile double sink = 0;
  double flops_per_iteration;
  double t;
  if (__builtin_cpu_supports("avx512f")) {
    flops_per_iteration = kChains * 8 * 2;
    t = best_seconds(3, [&] { sink = fma_avx512(n); });
  } else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    flops_per_iteration = kChains * 4 * 2;
    t = best_seconds(3, [&] { sink = fma_avx2(n); });
  } else {
    flops_per_iteration = kChains * 2 * 2;
    t = best_seconds(3, [&] { sink = mul_add_sse2(n); });
  }
  (void)sink;
  return flops_per_iteration * static_cast<double>(n) / t;
}

// The triad's arrays: 3 x 32 MiB, beyond any last-level cache.
struct TriadArrays {
  static constexpr std::size_t n = std::size_t{4} << 20;
  std::unique_ptr<double[]> a{new double[n]}, b{new double[n]}, c{new double[n]};
  TriadArrays() {
    for (std::size_t i = 0; i < n; ++i) a[i] = 0, b[i] = 1, c[i] = 2;
  }
  void run() {
    double* __restrict pa = a.get();
    const double* __restrict pb = b.get();
    const double* __restrict pc = c.get();
    for (std::size_t i = 0; i < n; ++i) pa[i] = pb[i] + 3.0 * pc[i];
    asm volatile("" : : "r"(pa) : "memory");
  }
  static constexpr double bytes = 24.0 * static_cast<double>(n);  // two reads and a write
};

double measure_core_memory_Bps() {
  TriadArrays t;
  return TriadArrays::bytes / best_seconds(4, [&] { t.run(); });
}

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      return colon == std::string::npos ? "" : line.substr(line.find_first_not_of(" ", colon + 1));
    }
  return "unknown";
}

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name[0] ? name : "localhost";
}

std::string cache_dir() {
  if (const char* d = std::getenv("SIMMPI_CACHE_DIR"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return std::string(d) + "/simmpi";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.cache/simmpi";
}

// Writes the cache atomically (concurrent runs may race to write it); a failure only warns:
// the run goes on with the figures just measured.
void save(const HostModel& m, const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  const std::string tmp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(tmp);
    out << m.to_toml();
    if (!out.flush()) {
      std::fprintf(stderr,
                   "simmpi: warning: cannot write the host calibration %s (%s); it will "
                   "be measured again next run\n",
                   path.c_str(), std::strerror(errno));
      return;
    }
  }
  std::filesystem::rename(tmp, path, ec);
}

// HostModel::measure() in a child process, so that the bandwidth test's 96 MiB never count in
// the run's peak memory; in this process if no child can be made.
HostModel measure_apart() {
  int fds[2];
  if (pipe(fds) != 0) return HostModel::measure();
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]), close(fds[1]);
    return HostModel::measure();
  }
  if (pid == 0) {
    close(fds[0]);
    const std::string text = HostModel::measure().to_toml();
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t n = write(fds[1], text.data() + done, text.size() - done);
      if (n <= 0) _exit(1);
      done += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;)
    text.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return HostModel::measure();
  return HostModel::from_toml(text, "the host calibration's child process");
}

}  // namespace

double HostModel::measure_node_memory_Bps(int cores) {
  // Each child initializes its arrays, says it is ready, waits for the start (the parent closes
  // `go`), streams for kSeconds of wall time and reports its bytes per second: all run over the
  // same interval, so their sum is what the host delivers to `cores` streams at once.
  constexpr double kSeconds = 0.5;
  int ready[2], go[2], result[2];
  if (pipe(ready) != 0 || pipe(go) != 0 || pipe(result) != 0)
    throw ConfigError(std::string("cannot measure the node's memory bandwidth: pipe: ") +
                      std::strerror(errno));
  std::vector<pid_t> children;
  for (int i = 0; i < cores; ++i) {
    const pid_t pid = fork();
    if (pid < 0) break;
    if (pid == 0) {
      close(ready[0]), close(go[1]), close(result[0]);
      TriadArrays t;
      t.run();
      char c = 1;
      if (write(ready[1], &c, 1) != 1) _exit(1);
      while (read(go[0], &c, 1) > 0) {
      }
      const std::int64_t t0 = runtime::host_clock_ns(CLOCK_MONOTONIC);
      std::int64_t now = t0;
      long passes = 0;
      for (; now - t0 < static_cast<std::int64_t>(kSeconds * 1e9); ++passes) {
        t.run();
        now = runtime::host_clock_ns(CLOCK_MONOTONIC);
      }
      const double Bps =
          TriadArrays::bytes * static_cast<double>(passes) / (static_cast<double>(now - t0) * 1e-9);
      _exit(write(result[1], &Bps, sizeof Bps) == sizeof Bps ? 0 : 1);
    }
    children.push_back(pid);
  }
  close(ready[1]), close(go[0]), close(result[1]);
  for (std::size_t i = 0; i < children.size(); ++i) {
    char c;
    if (read(ready[0], &c, 1) != 1) break;
  }
  close(go[1]);  // start
  double total = 0;
  int reported = 0;
  for (double Bps; read(result[0], &Bps, sizeof Bps) == sizeof Bps; ++reported) total += Bps;
  close(ready[0]), close(result[0]);
  for (pid_t pid : children) waitpid(pid, nullptr, 0);
  if (reported != cores)
    throw ConfigError("cannot measure the node's memory bandwidth: " + std::to_string(reported) +
                      " of " + std::to_string(cores) + " streaming processes reported");
  return total;
}

double HostModel::measure_tsc_hz() {
  const std::int64_t w0 = runtime::host_clock_ns(CLOCK_MONOTONIC);
  const std::uint64_t t0 = __rdtsc();
  std::int64_t w1;
  do w1 = runtime::host_clock_ns(CLOCK_MONOTONIC);
  while (w1 - w0 < 5000000);
  return static_cast<double>(__rdtsc() - t0) / (static_cast<double>(w1 - w0) * 1e-9);
}

HostModel HostModel::measure() {
  HostModel m;
  m.host = host_name();
  m.cpu = cpu_model_name();
  m.tsc_hz = measure_tsc_hz();
  const std::uint64_t iterations = 4000000;
  volatile std::uint64_t sink = 0;
  m.clock_hz = 8.0 * static_cast<double>(iterations) /
               best_seconds(5, [&] { sink = add_chain(iterations); });
  m.core_flops = measure_core_flops();
  m.core_memory_Bps = measure_core_memory_Bps();
  return m;
}

std::string HostModel::cache_path() {
  return cache_dir() + "/host-" + host_name() + ".toml";
}

HostModel HostModel::load_or_measure(bool refresh) {
  const std::string path = cache_path();
  if (!refresh) {
    std::ifstream in(path);
    if (in) {
      std::stringstream text;
      text << in.rdbuf();
      HostModel m = from_toml(text.str(), path);
      m.tsc_hz = measure_tsc_hz();
      if (m.host != host_name() || m.cpu != cpu_model_name())
        throw ConfigError(strprintf(
            "%s: this host calibration describes host \"%s\" (%s), not this one (\"%s\", %s); "
            "it is not reused. Delete it, or set SIMMPI_CACHE_DIR to a directory of this host's "
            "own",
            path.c_str(), m.host.c_str(), m.cpu.c_str(), host_name().c_str(),
            cpu_model_name().c_str()));
      return m;
    }
  }
  HostModel m = measure_apart();
  m.tsc_hz = measure_tsc_hz();
  save(m, path);
  return m;
}

std::string HostModel::to_toml() const {
  return strprintf(
      "# This host's core as simmpi measured it (hardware/compute/host_model.cpp), to translate\n"
      "# the host time of programs' own code to a simulated CPU. Delete this file, or run with\n"
      "# --set runtime.host_calibration=refresh, to measure again.\n"
      "host = \"%s\"\ncpu = \"%s\"\nclock_hz = %.6e\ncore_flops = %.6e\n"
      "core_memory_Bps = %.6e\n",
      host.c_str(), cpu.c_str(), clock_hz, core_flops, core_memory_Bps);
}

HostModel HostModel::from_toml(const std::string& text, const std::string& source) {
  toml::table t;
  try {
    t = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw ConfigError(
        strprintf("%s: corrupt host calibration (%s, line %u); delete it to "
                  "measure the host again",
                  source.c_str(), std::string(e.description()).c_str(), e.source().begin.line));
  }
  auto text_of = [&](const char* key) {
    auto v = t[key].value<std::string>();
    if (!v)
      throw ConfigError(
          strprintf("%s: corrupt host calibration: no text \"%s\"; delete it to "
                    "measure the host again",
                    source.c_str(), key));
    return *v;
  };
  auto positive = [&](const char* key) {
    auto v = t[key].value<double>();
    if (!v || !(*v > 0))
      throw ConfigError(
          strprintf("%s: corrupt host calibration: \"%s\" is %s, expected a "
                    "positive number; delete it to measure the host again",
                    source.c_str(), key, v ? "not positive" : "missing"));
    return *v;
  };
  HostModel m;
  m.host = text_of("host");
  m.cpu = text_of("cpu");
  m.clock_hz = positive("clock_hz");
  m.core_flops = positive("core_flops");
  m.core_memory_Bps = positive("core_memory_Bps");
  return m;
}

}  // namespace simmpi::hardware
