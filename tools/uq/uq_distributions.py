# SPDX-License-Identifier: Apache-2.0
# The distributions a study gives its uncertain platform keys, in the keys' own units:
#   { normal = ["100Gbps", "3%"] }        mean and standard deviation (absolute, or % of the mean)
#   { uniform = ["400ns", "600ns"] }      lower and upper bound
#   { lognormal = ["100ns", "10%"] }      median and the standard deviation of the logarithm
#                                         (0.1 or "10%": about 10% spread either way)
#   { normal = [...], truncate = ["90Gbps", "110Gbps"] }   any of these cut to [low, high]
# Each maps a point u of the unit interval to a value (its quantile function), so Monte Carlo,
# Latin hypercube and Sobol designs all sample through the same map.
import math

import numpy as np
from scipy import stats

KINDS = ("normal", "uniform", "lognormal")


class DistributionError(ValueError):
    """Impossible or malformed parameters; the message names what is wrong."""


class Distribution:
    def __init__(self, kind, frozen, low=None, high=None, text=""):
        self.kind, self.frozen, self.text = kind, frozen, text
        self.low, self.high = low, high
        self.cdf_low = frozen.cdf(low) if low is not None else 0.0
        self.cdf_high = frozen.cdf(high) if high is not None else 1.0

    def ppf(self, u):
        """The value at quantile u (array or number) of the (truncated) distribution."""
        return self.frozen.ppf(self.cdf_low + u * (self.cdf_high - self.cdf_low))

    def logpdf(self, x):
        """Log density at x (a number or an array; a prior in calibration), -inf outside the
        support."""
        x = np.asarray(x, dtype=float)
        inside = np.ones_like(x, dtype=bool)
        if self.low is not None:
            inside &= x >= self.low
        if self.high is not None:
            inside &= x <= self.high
        density = self.frozen.logpdf(x) - math.log(self.cdf_high - self.cdf_low)
        return np.where(inside, density, -np.inf)

    def interval(self, mass):
        """The central interval holding `mass` of the probability."""
        return self.ppf((1 - mass) / 2), self.ppf((1 + mass) / 2)


def _spread(text, centre, parse, what):
    """An absolute spread in base units, or a percentage of `centre`."""
    if isinstance(text, str) and text.strip().endswith("%"):
        return float(text.strip()[:-1]) / 100 * centre
    return parse(text, what)


def make(spec, parse):
    """spec: the key's table from the study file; parse(text, what): a value in the key's base
    unit (or DistributionError). Checks that the parameters are possible."""
    kinds = [k for k in KINDS if k in spec]
    extra = sorted(set(spec) - set(KINDS) - {"truncate"})
    if len(kinds) != 1 or extra:
        raise DistributionError(
            f"expected exactly one of {', '.join(KINDS)} (and optionally truncate), got "
            f"{', '.join(sorted(spec)) or 'nothing'}")
    kind = kinds[0]
    args = spec[kind]
    if not isinstance(args, list) or len(args) != 2:
        raise DistributionError(f"{kind} takes two values, e.g. {kind} = "
                                f"{EXAMPLES[kind]}; got {args!r}")
    frozen = _frozen(kind, args, parse)
    low = high = None
    if "truncate" in spec:
        bounds = spec["truncate"]
        if not isinstance(bounds, list) or len(bounds) != 2:
            raise DistributionError(f"truncate takes [low, high]; got {bounds!r}")
        low, high = parse(bounds[0], "truncate's low"), parse(bounds[1], "truncate's high")
        if not low < high:
            raise DistributionError(f"truncate: low {bounds[0]} must be below high {bounds[1]}")
        if frozen.cdf(high) - frozen.cdf(low) < 1e-9:
            raise DistributionError(f"truncate [{bounds[0]}, {bounds[1]}] holds none of the "
                                    f"{kind} distribution's probability")
    d = Distribution(kind, frozen, low, high, f"{kind} {args}")
    if d.ppf(1e-6) < 0:
        raise DistributionError(f"{kind} {args} gives negative values (more than one in a "
                                f"million draws), which the key cannot take; narrow it or add "
                                f"truncate = [low, high]")
    return d


EXAMPLES = {"normal": '["100Gbps", "3%"]', "uniform": '["400ns", "600ns"]',
            "lognormal": '["100ns", "10%"]'}


def _frozen(kind, args, parse):
    if kind == "uniform":
        low, high = parse(args[0], "uniform's low"), parse(args[1], "uniform's high")
        if not low < high:
            raise DistributionError(f"uniform: low {args[0]} must be below high {args[1]}")
        return stats.uniform(loc=low, scale=high - low)
    if kind == "normal":
        mean = parse(args[0], "normal's mean")
        sd = _spread(args[1], mean, parse, "normal's standard deviation")
        if not sd > 0:
            raise DistributionError(f"normal: the standard deviation {args[1]} must be positive")
        return stats.norm(loc=mean, scale=sd)
    median = parse(args[0], "lognormal's median")
    if not median > 0:
        raise DistributionError(f"lognormal: the median {args[0]} must be positive")
    sigma = args[1]
    if isinstance(sigma, str) and sigma.strip().endswith("%"):
        sigma = float(sigma.strip()[:-1]) / 100
    if not isinstance(sigma, (int, float)) or not sigma > 0:
        raise DistributionError(f"lognormal: the log's standard deviation {args[1]!r} must be a "
                                f"positive number or percentage, e.g. \"10%\"")
    return stats.lognorm(s=sigma, scale=median)
