// SPDX-License-Identifier: Apache-2.0
// SIMMPI_COMPUTE and SIMMPI_SLEEP: application code charged through the node model.
#include <simmpi_compute.h>

#include <cmath>

#include "hardware/compute/compute_model.hpp"
#include "libsimblas/core/blas_args.hpp"
#include "libsimblas/core/charge.hpp"
#include "runtime/core/error.hpp"
#include "runtime/sched/scheduler.hpp"

extern "C" {

void simmpi_compute(double flops, double bytes) {
  if (!(flops >= 0) || !(bytes >= 0) || !std::isfinite(flops) || !std::isfinite(bytes))
    simmpi::blas::bad_argument(
        "SIMMPI_COMPUTE",
        simmpi::strprintf("flops = %g and bytes = %g must be finite and >= 0", flops, bytes)
            .c_str());
  simmpi::hardware::ComputeTask t;
  t.kernel = simmpi::hardware::Kernel::Generic;
  t.ops = flops;
  t.bytes = bytes;
  (void)simmpi::blas::charge(t);  // time only: nothing to compute
}

int simmpi_compute_kernel(const char* kernel, double flops, double bytes, long m, long n, long k) {
  auto id = simmpi::hardware::parse_kernel_name(kernel ? kernel : "");
  if (!id)
    simmpi::blas::bad_argument(
        "simmpi_compute_kernel",
        simmpi::strprintf("kernel \"%s\" is not one of %s", kernel ? kernel : "(null)",
                          simmpi::hardware::kernel_name_list().c_str())
            .c_str());
  if (!(flops >= 0) || !(bytes >= 0) || !std::isfinite(flops) || !std::isfinite(bytes))
    simmpi::blas::bad_argument(
        "simmpi_compute_kernel",
        simmpi::strprintf("flops = %g and bytes = %g must be finite and >= 0", flops, bytes)
            .c_str());
  simmpi::hardware::ComputeTask t;
  t.kernel = id->kernel;
  t.precision = id->precision;
  t.ops = flops;
  t.bytes = bytes;
  t.dims = {m, n, k};
  return simmpi::blas::charge(t) ? 1 : 0;
}

void simmpi_compute_defer_begin(void) {
  if (!simmpi::blas::defer_begin())
    simmpi::blas::bad_argument("simmpi_compute_defer_begin",
                               "called again before simmpi_compute_defer_end (they do not nest)");
}

double simmpi_compute_deferred(void) {
  return simmpi::blas::deferred().seconds();
}

double simmpi_compute_defer_end(void) {
  return simmpi::blas::defer_end().seconds();
}

int simmpi_compute_executes(void) {
  return simmpi::blas::computes_results() ? 1 : 0;
}

void simmpi_sleep(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds))
    simmpi::blas::bad_argument(
        "SIMMPI_SLEEP", simmpi::strprintf("seconds = %g must be finite and >= 0", seconds).c_str());
  if (!simmpi::blas::running_model()) return;
  const auto t = simmpi::runtime::SimTime::from_seconds(seconds);
  simmpi::blas::tell_compute(nullptr, t);
  simmpi::runtime::Scheduler::instance()->sleep_lazily(t);
}

}  // extern "C"
