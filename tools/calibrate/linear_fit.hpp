// SPDX-License-Identifier: Apache-2.0
// The calibration's model fit: t = mu * x + theta (x = ops or bytes) by least squares on
// relative residuals ((prediction - t) / t), so small and large calls weigh alike, as a 10%
// accuracy target asks. theta is kept non-negative: a negative fit is redone through the origin.
#pragma once

#include <vector>

namespace simmpi::calibrate {

struct Sample {
  double x;  // ops or bytes
  double t;  // measured seconds
};

struct LinearFit {
  double mu = 0;     // seconds per op (or byte)
  double theta = 0;  // seconds per call
  double r2 = 0;     // coefficient of determination of t over the samples
  double max_rel_error = 0;
};

LinearFit fit_linear(const std::vector<Sample>& samples);
// 1 - SS_res / SS_tot of predictions against measured times.
double r_squared(const std::vector<double>& measured, const std::vector<double>& predicted);

}  // namespace simmpi::calibrate
