# SPDX-License-Identifier: Apache-2.0
# Sampling designs on the unit hypercube (Monte Carlo, Latin hypercube, scrambled Sobol from
# scipy.stats.qmc), Saltelli's matrices for Sobol indices, and the runs a study makes: each sample
# mapped through the parameters' quantile functions, run under every design with the same values
# and the same runtime.seed (common random numbers).
import numpy as np
from scipy.stats import qmc

from simmpi_units import format_base


def unit_samples(design, n, d, seed):
    """n points in [0, 1)^d; the same design, n, d and seed give the same points."""
    if design == "mc":
        return np.random.default_rng(seed).random((n, d))
    if design == "lhs":
        return qmc.LatinHypercube(d=d, seed=seed).random(n)
    sobol = qmc.Sobol(d=d, scramble=True, seed=seed)
    m = int(np.ceil(np.log2(max(n, 2))))
    return sobol.random_base2(m)[:n]  # a prefix of a 2^m net keeps most of its balance


def saltelli(n, d, seed):
    """(A, B, AB): two independent n x d Sobol matrices and, for each i, A with column i from B
    (Saltelli 2010, Comput. Phys. Commun. 181:259)."""
    ab = unit_samples("sobol", n, 2 * d, seed)
    a, b = ab[:, :d], ab[:, d:]
    mixed = np.repeat(a[None, :, :], d, axis=0)
    for i in range(d):
        mixed[i, :, i] = b[:, i]
    return a, b, mixed


def dimensions(study):
    """One per uncertain parameter, plus one choosing a draw of the calibration posterior."""
    return len(study.parameters) + (study.posterior is not None)


def values_at(study, u):
    """{key: value in base units} for one point u of the unit hypercube."""
    out = {}
    for p, x in zip(study.parameters, u):
        v = float(p.distribution.ppf(x))
        out[p.key] = round(v) if p.kind in ("integer", "size") else v
    if study.posterior is not None:
        keys, draws = study.posterior
        row = draws[min(int(u[-1] * len(draws)), len(draws) - 1)]
        out.update(zip(keys, row))
    return out


def setting(study, key, value):
    kind = study.keys[key]
    if kind == "integer":
        return str(int(round(value)))
    if kind == "number":
        return f"{value:.17g}"
    return format_base(value, kind)


def make_runs(study, points, designs=None):
    """The runs for sample points (rows of the unit hypercube) under each design: dicts with
    run (index), design, sample, seed, values and sets (the --set pairs)."""
    runs = []
    for name, fixed in designs or study.designs:
        for j, u in enumerate(points):
            values = values_at(study, u)
            sets = [(k, setting(study, k, v)) for k, v in values.items()] + list(fixed)
            sets.append(("runtime.seed", str(study.seed * 1000003 + j + 1)))
            runs.append({"run": len(runs), "design": name, "sample": j, "values": values,
                         "sets": sets, "command": study.command})
    return runs


def propagation_runs(study):
    return make_runs(study, unit_samples(study.design, study.samples, dimensions(study),
                                         study.seed))


def sensitivity_runs(study, n):
    """Runs for A, B and each A_B^i (in that order, n each) under the study's first design."""
    a, b, mixed = saltelli(n, dimensions(study), study.seed)
    points = np.vstack([a, b] + list(mixed))
    return make_runs(study, points, study.designs[:1])
