// SPDX-License-Identifier: Apache-2.0
// Weighted least squares with Eigen.
#include "tools/calibrate/linear_fit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace simmpi::calibrate {

double r_squared(const std::vector<double>& measured, const std::vector<double>& predicted) {
  double mean = 0;
  for (double t : measured) mean += t;
  mean /= static_cast<double>(measured.size());
  double ss_res = 0, ss_tot = 0;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    ss_res += (predicted[i] - measured[i]) * (predicted[i] - measured[i]);
    ss_tot += (measured[i] - mean) * (measured[i] - mean);
  }
  return ss_tot > 0 ? 1 - ss_res / ss_tot : 1;
}

LinearFit fit_linear(const std::vector<Sample>& samples) {
  auto n = static_cast<Eigen::Index>(samples.size());
  // Row i: [x_i / t_i, 1 / t_i] * [mu, theta] ~ 1.
  Eigen::MatrixXd a(n, 2);
  Eigen::VectorXd ones = Eigen::VectorXd::Ones(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    a(i, 0) = samples[static_cast<std::size_t>(i)].x / samples[static_cast<std::size_t>(i)].t;
    a(i, 1) = 1 / samples[static_cast<std::size_t>(i)].t;
  }
  LinearFit f;
  Eigen::Vector2d coef = a.colPivHouseholderQr().solve(ones);
  f.mu = coef(0), f.theta = coef(1);
  if (n < 2 || !(f.theta >= 0)) {
    Eigen::VectorXd col = a.col(0);
    f.mu = col.dot(ones) / col.squaredNorm();
    f.theta = 0;
  }
  std::vector<double> measured, predicted;
  for (const Sample& s : samples) {
    measured.push_back(s.t);
    predicted.push_back(f.mu * s.x + f.theta);
    f.max_rel_error = std::max(f.max_rel_error, std::fabs(predicted.back() - s.t) / s.t);
  }
  f.r2 = r_squared(measured, predicted);
  return f;
}

}  // namespace simmpi::calibrate
