# SPDX-License-Identifier: Apache-2.0
# What a study's figures say: their distribution with a check that the 90% interval has settled,
# Sobol sensitivity indices with bootstrap intervals, and the paired comparison of two designs.
import numpy as np

BOOTSTRAP = 1000


def summary(values, seed=0, tolerance=0.05):
    """mean, sd, the 5/50/95th percentiles, and the convergence of the 90% interval: the
    bootstrap standard error of its ends, relative to its width; converged when both are within
    `tolerance`, else about how many samples would get there (errors shrink as 1/sqrt(n))."""
    x = np.asarray([v for v in values if np.isfinite(v)])
    if len(x) < 2:
        return {"n": len(x)}
    p5, p50, p95 = np.percentile(x, [5, 50, 95])
    rng = np.random.default_rng(seed)
    boots = np.percentile(x[rng.integers(0, len(x), (BOOTSTRAP, len(x)))], [5, 95], axis=1)
    width = p95 - p5
    se = float(max(boots[0].std(), boots[1].std()))
    relative = se / width if width > 0 else 0.0
    needed = int(np.ceil(len(x) * (relative / tolerance) ** 2)) if relative > tolerance else len(x)
    return {"n": len(x), "mean": float(x.mean()), "sd": float(x.std(ddof=1)), "p5": float(p5),
            "p50": float(p50), "p95": float(p95), "interval_se": se,
            "interval_relative_se": relative, "converged": relative <= tolerance,
            "samples_needed": needed, "tolerance": tolerance}


def convergence_text(s):
    if s.get("n", 0) < 2:
        return "too few successful runs to judge"
    if s["converged"]:
        return (f"converged: the 90% interval's ends move by {100 * s['interval_relative_se']:.1f}% "
                f"of its width (bootstrap s.e.), within {100 * s['tolerance']:.0f}%; more samples "
                f"would not change it materially")
    return (f"not converged: the 90% interval's ends move by "
            f"{100 * s['interval_relative_se']:.1f}% of its width (bootstrap s.e.); about "
            f"{s['samples_needed']} samples would bring that within {100 * s['tolerance']:.0f}%")


def sobol_indices(f_a, f_b, f_ab, seed=0, confidence=0.9):
    """First-order (Saltelli 2010, eq. (b) of table 2) and total (Jansen 1999) Sobol indices from
    f(A), f(B) (n each) and f(A_B^i) (d x n), with bootstrap intervals over the n rows.
    Rows where any run failed are left out. Returns (first, total, first_ci, total_ci, n)."""
    f_a, f_b, f_ab = np.asarray(f_a), np.asarray(f_b), np.asarray(f_ab)
    ok = np.isfinite(f_a) & np.isfinite(f_b) & np.all(np.isfinite(f_ab), axis=0)
    f_a, f_b, f_ab = f_a[ok], f_b[ok], f_ab[:, ok]

    def estimate(idx):
        # Centred: the same expectation, far less variance when the mean dwarfs the spread.
        centre = np.mean(np.concatenate([f_a[idx], f_b[idx]]))
        a, b, ab = f_a[idx] - centre, f_b[idx] - centre, f_ab[:, idx] - centre
        var = np.var(np.concatenate([a, b]))
        if var == 0:
            return np.zeros(len(ab)), np.zeros(len(ab))
        first = np.mean(b * (ab - a), axis=1) / var
        total = 0.5 * np.mean((a - ab) ** 2, axis=1) / var
        return first, total

    n = len(f_a)
    first, total = estimate(np.arange(n))
    rng = np.random.default_rng(seed)
    boots = [estimate(rng.integers(0, n, n)) for _ in range(BOOTSTRAP)]
    lo, hi = 100 * (1 - confidence) / 2, 100 * (1 + confidence) / 2
    first_ci = np.percentile([b[0] for b in boots], [lo, hi], axis=0).T
    total_ci = np.percentile([b[1] for b in boots], [lo, hi], axis=0).T
    return first, total, first_ci, total_ci, n


def compare(f_a, f_b, better, threshold=0.0, confidence=0.9):
    """Design B against A on the same samples (common random numbers): the relative gain of B per
    sample (positive: B better, whichever way `better` says), P(B beats A), P(gain > threshold)
    and the central `confidence` interval of the gain and of the difference B - A."""
    f_a, f_b = np.asarray(f_a), np.asarray(f_b)
    ok = np.isfinite(f_a) & np.isfinite(f_b)
    a, b = f_a[ok], f_b[ok]
    gain = (b - a) / a if better == "higher" else (a - b) / b
    lo, hi = 100 * (1 - confidence) / 2, 100 * (1 + confidence) / 2
    return {"n": int(ok.sum()), "p_better": float(np.mean(gain > 0)),
            "p_gain_above": float(np.mean(gain > threshold)), "threshold": threshold,
            "gain_interval": tuple(np.percentile(gain, [lo, hi])),
            "gain_median": float(np.median(gain)),
            "difference_interval": tuple(np.percentile(b - a, [lo, hi])),
            "confidence": confidence}
