// SPDX-License-Identifier: Apache-2.0
// The host's real BLAS (OpenBLAS, linked directly: this tool does not link SimBLAS) and the
// timing of one call. Times are the calling thread's CPU time by default, so other processes
// sharing the cores do not inflate them; BLAS runs single-threaded, as one rank per core.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace simmpi::calibrate {

// Pins OpenBLAS to one thread and returns its kernel family ("Haswell", "SkylakeX", ...).
std::string init_host_blas();

enum class Clock { ThreadCpu, Wall };

// Best (smallest) time of `call` over repetitions: at least `min_reps`, more until `budget_s`
// of measuring is spent (at most 50). `setup` runs before each repetition, untimed.
double best_time(const std::function<void()>& call, Clock clock, double budget_s, int min_reps,
                 const std::function<void()>& setup = {});

// Operands of one benchmark, filled with seeded values in [-0.5, 0.5): a diagonally dominant
// triangle for trsm so the solve stays finite.
struct Operands {
  std::vector<double> a, b, c;
};
Operands make_operands(std::int64_t a_elems, std::int64_t b_elems, std::int64_t c_elems,
                       std::uint64_t seed);
void make_diagonally_dominant(std::vector<double>& a, std::int64_t n, std::int64_t lda);

// The real BLAS's Fortran entry points.
extern "C" {
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*,
            const double*, const int*, const double*, const int*, const double*, double*,
            const int*);
void dtrsm_(const char*, const char*, const char*, const char*, const int*, const int*,
            const double*, const double*, const int*, double*, const int*);
void dgemv_(const char*, const int*, const int*, const double*, const double*, const int*,
            const double*, const int*, const double*, double*, const int*);
void daxpy_(const int*, const double*, const double*, const int*, double*, const int*);
void dswap_(const int*, double*, const int*, double*, const int*);
void dcopy_(const int*, const double*, const int*, double*, const int*);
}

}  // namespace simmpi::calibrate
