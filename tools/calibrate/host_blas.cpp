// SPDX-License-Identifier: Apache-2.0
// Timing harness over the host BLAS.
#include "tools/calibrate/host_blas.hpp"

#include <time.h>

#include <algorithm>
#include <random>

extern "C" {
void openblas_set_num_threads(int);
char* openblas_get_corename(void);
}

namespace simmpi::calibrate {
namespace {

double seconds(Clock c) {
  timespec ts{};
  clock_gettime(c == Clock::ThreadCpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

std::string init_host_blas() {
  openblas_set_num_threads(1);
  const char* core = openblas_get_corename();
  return core ? core : "unknown";
}

double best_time(const std::function<void()>& call, Clock clock, double budget_s, int min_reps,
                 const std::function<void()>& setup) {
  if (setup) setup();
  call();  // warm caches and the library's buffers
  double best = 1e300, spent = 0;
  for (int rep = 0; rep < 50 && (rep < min_reps || spent < budget_s); ++rep) {
    if (setup) setup();
    double t0 = seconds(clock);
    call();
    double t = seconds(clock) - t0;
    best = std::min(best, t);
    spent += t;
  }
  return best;
}

Operands make_operands(std::int64_t a, std::int64_t b, std::int64_t c, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  Operands o;
  for (auto [v, n] : {std::pair{&o.a, a}, {&o.b, b}, {&o.c, c}}) {
    v->resize(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)));
    for (double& x : *v) x = u(rng);
  }
  return o;
}

void make_diagonally_dominant(std::vector<double>& a, std::int64_t n, std::int64_t lda) {
  for (std::int64_t i = 0; i < n; ++i)
    a[static_cast<std::size_t>(i + i * lda)] += static_cast<double>(n);
}

}  // namespace simmpi::calibrate
