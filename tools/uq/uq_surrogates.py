# SPDX-License-Identifier: Apache-2.0
# Cheap stand-ins for the simulator inside an MCMC chain: one per measurement row, fitted to the
# logarithm of the figure over design runs spread across the parameters' prior box, in the box's
# unit coordinates (log-scaled for positive keys, where figures are nearly polynomial).
#   poly  least-squares polynomial (the highest degree up to 4 with two runs per coefficient)
#   gp    Gaussian process (scikit-learn; RBF plus a noise term): for figures no polynomial fits
import itertools
import warnings

import numpy as np


class Box:
    """The region the surrogates know: each parameter's central 99.9% (uniform and truncated:
    their support), mapped to [0, 1] (through the logarithm when the lower end is positive)."""

    def __init__(self, parameters):
        self.low, self.high, self.log = [], [], []
        for p in parameters:
            lo, hi = (float(x) for x in p.distribution.interval(0.999))
            self.low.append(lo)
            self.high.append(hi)
            self.log.append(lo > 0)
        self.low, self.high, self.log = map(np.asarray, (self.low, self.high, self.log))

    def to_value(self, u):
        u = np.asarray(u)
        with np.errstate(divide="ignore", invalid="ignore"):
            logged = self.low * (self.high / self.low) ** u
        return np.where(self.log, logged, self.low + u * (self.high - self.low))

    def to_unit(self, value):
        value = np.asarray(value, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            logged = np.log(value / self.low) / np.log(self.high / self.low)
        return np.where(self.log, logged, (value - self.low) / (self.high - self.low))

    def log_jacobian(self, u):
        """log |d value / d u|: the prior density in u is the key's density times this."""
        with np.errstate(divide="ignore", invalid="ignore"):
            span = np.where(self.log, np.log(self.high / self.low) * self.to_value(u),
                            self.high - self.low)
        return np.sum(np.log(span), axis=-1)


def _features(u, degree):
    """Every monomial of u's columns up to `degree`, the constant first."""
    u = np.atleast_2d(u)
    columns = [np.ones(len(u))]
    for k in range(1, degree + 1):
        for combo in itertools.combinations_with_replacement(range(u.shape[1]), k):
            column = u[:, combo[0]]
            for i in combo[1:]:
                column = column * u[:, i]
            columns.append(column)
    return np.column_stack(columns)


class PolySurrogate:
    def __init__(self, u, y):
        self.degree = 1
        while self.degree < 4 and len(u) >= 2 * _features(u[:1], self.degree + 1).shape[1]:
            self.degree += 1
        self.coef, *_ = np.linalg.lstsq(_features(u, self.degree), y, rcond=None)

    def predict(self, u):
        return _features(u, self.degree) @ self.coef


class GpSurrogate:
    def __init__(self, u, y):
        from sklearn.exceptions import ConvergenceWarning
        from sklearn.gaussian_process import GaussianProcessRegressor
        from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel
        d = u.shape[1]
        kernel = ConstantKernel(1.0) * RBF(length_scale=np.full(d, 0.5)) + \
            WhiteKernel(1e-6, noise_level_bounds=(1e-12, 1e-1))
        self.gp = GaussianProcessRegressor(kernel, normalize_y=True, n_restarts_optimizer=2,
                                           random_state=0)
        with warnings.catch_warnings():  # an optimum at a bound is fine: the runs are exact
            warnings.simplefilter("ignore", ConvergenceWarning)
            self.gp.fit(u, y)

    def predict(self, u):
        return self.gp.predict(np.atleast_2d(u))


KINDS = {"poly": PolySurrogate, "gp": GpSurrogate}


def fit(kind, u, y, check_u, check_y):
    """The surrogate fitted on (u, y), and its largest error on the check runs (in log units,
    about the relative error)."""
    s = KINDS[kind](u, y)
    error = float(np.max(np.abs(s.predict(check_u) - check_y))) if len(check_u) else float("nan")
    return s, error


def predict_all(surrogates, u):
    """Every surrogate at the points u: points x surrogates. Polynomials of one degree share
    their monomials (one matrix product: the MCMC's inner loop)."""
    if surrogates and all(isinstance(s, PolySurrogate) for s in surrogates) and \
            len({s.degree for s in surrogates}) == 1:
        coef = np.column_stack([s.coef for s in surrogates])
        return _features(u, surrogates[0].degree) @ coef
    return np.column_stack([s.predict(u) for s in surrogates])
