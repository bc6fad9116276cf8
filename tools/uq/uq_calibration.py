# SPDX-License-Identifier: Apache-2.0
# Calibration: the posterior of the study's uncertain keys (their distributions are the priors)
# given measurements from a real machine, one CSV row per benchmark run. Each row's command is
# the study's [calibration] command with {column} filled from the row; the simulator is run at
# design points over the prior box, a surrogate per row stands in for it inside an emcee chain
# (log figure = log surrogate + noise, normal or, where measurements have outliers, Student's t
# with 4 degrees of freedom; the noise's scale inferred or given), and the posterior is
# checked against held-out rows (posterior predictive coverage) and written as draws that a
# study's study.posterior feeds to propagation.
import csv
import json
import math
import re
import sys
import time

import numpy as np

import uq_designs
import uq_plots
import uq_surrogates
from simmpi_units import BASE_UNIT, format_human
from uq_journal import Journal
from uq_study import StudyError, resolve_command

FIELDS = {"measurements": None, "command": None, "measured": "time_s", "error": "fit",
          "surrogate": "poly", "design_runs": 24, "check_runs": 8, "holdout": 0.25,
          "walkers": 32, "steps": 2000, "outliers": "none"}
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
SIGMA_RANGE = (math.log(1e-3), math.log(1.0))  # the inferred noise: 0.1% to 100%, log-uniform
ROBUST_NU = 4  # Student's t: heavy enough tails that one disturbed measurement does not dominate


def settings(study):
    cal = study.calibration
    if not isinstance(cal, dict):
        raise StudyError(f"{study.path}:1: calibration: missing [calibration] table (measurements, "
                         f"command, measured)")
    for k in cal:
        if k not in FIELDS:
            raise study.error(f"calibration.{k}", f"unknown field; expected "
                                                  f"{', '.join(sorted(FIELDS))}")
    s = {k: cal.get(k, default) for k, default in FIELDS.items()}
    for k in ("measurements", "command"):
        if s[k] is None:
            raise study.error("calibration", f"missing calibration.{k}")
    template = [str(a) for a in s["command"]] if isinstance(s["command"], list) else s["command"]
    if isinstance(template, list) and template:
        template[0] = resolve_command(study, template[:1], "calibration.command")[0]
    else:
        resolve_command(study, template, "calibration.command")
    s["command"] = template
    if s["surrogate"] not in uq_surrogates.KINDS:
        raise study.error("calibration.surrogate", f"expected one of "
                                                   f"{', '.join(uq_surrogates.KINDS)}")
    s["sigma"] = _noise(study, s["error"])
    if s["outliers"] not in ("none", "robust"):
        raise study.error("calibration.outliers", "expected \"none\" (normal errors) or "
                                                  "\"robust\" (Student's t, 4 degrees of freedom)")
    s["nu"] = ROBUST_NU if s["outliers"] == "robust" else None
    for k in ("design_runs", "check_runs", "walkers", "steps"):
        if not isinstance(s[k], int) or s[k] < (0 if k == "check_runs" else 1):
            raise study.error(f"calibration.{k}", f"expected a positive integer, got {s[k]!r}")
    if not isinstance(s["holdout"], (int, float)) or not 0 <= s["holdout"] < 1:
        raise study.error("calibration.holdout", "expected a fraction in [0, 1)")
    return s


def _noise(study, error):
    """None: the noise's scale is inferred; else the given relative error, in log units."""
    if error == "fit":
        return None
    if isinstance(error, str) and error.endswith("%"):
        try:
            if float(error[:-1]) > 0:
                return math.log1p(float(error[:-1]) / 100)
        except ValueError:
            pass
    raise study.error("calibration.error", f"{error!r}: expected \"fit\" (inferred) or the "
                                           f"measurements' relative error, e.g. \"3%\"")


def read_measurements(study, s):
    """[(csv line, {column: text})], checked: every column the command names, and the measured
    one holding a positive number."""
    path = study.dir / s["measurements"]
    needed = sorted({m for a in s["command"] for m in PLACEHOLDER.findall(a)} | {s["measured"]})
    try:
        with open(path, newline="") as f:
            lines = [line for line in f]
    except OSError as e:
        raise study.error("calibration.measurements", f"cannot read {path}: {e.strerror}")
    data = [(i + 1, line) for i, line in enumerate(lines) if line.strip()
            and not line.lstrip().startswith("#")]
    if not data:
        raise StudyError(f"{path}:1: no header and no measurements")
    header = next(csv.reader([data[0][1]]))
    missing = [c for c in needed if c not in header]
    if missing:
        raise StudyError(f"{path}:{data[0][0]}: missing column {', '.join(missing)} (the "
                         f"calibration command and measured field need {', '.join(needed)})")
    rows = []
    for number, line in data[1:]:
        row = dict(zip(header, next(csv.reader([line]))))
        try:
            ok = float(row.get(s["measured"], "")) > 0
        except ValueError:
            ok = False
        if not ok:
            raise StudyError(f"{path}:{number}: {s['measured']}: {row.get(s['measured'])!r} is "
                             f"not a positive number")
        rows.append((number, row))
    if len(rows) < 2:
        raise StudyError(f"{path}: {len(rows)} measurement; calibration needs at least 2")
    return rows


def design(study, s, rows, box):
    """The runs the surrogates are fitted to (design_runs per row) and checked on (check_runs):
    the same Latin hypercube points for every row."""
    n = s["design_runs"] + s["check_runs"]
    points = uq_designs.unit_samples("lhs", n, len(study.parameters), study.seed)
    runs = []
    for r, (_, row) in enumerate(rows):
        command = [PLACEHOLDER.sub(lambda m: row[m.group(1)], a) for a in s["command"]]
        for j, u in enumerate(points):
            values = dict(zip([p.key for p in study.parameters], map(float, box.to_value(u))))
            sets = [(k, uq_designs.setting(study, k, v)) for k, v in values.items()]
            sets.append(("runtime.seed", str(study.seed * 1000003 + j + 1)))
            runs.append({"run": len(runs), "design": f"row{r + 1}", "sample": j,
                         "values": values, "sets": sets, "command": command})
    return points, runs


def log_posterior(theta, surrogates, log_y, study, box, sigma, nu=None):
    """theta: walkers x (parameters in box units [+ log sigma]); vectorized for emcee. nu: the
    noise is Student's t with nu degrees of freedom (None: normal)."""
    d = len(study.parameters)
    u = theta[:, :d]
    inside = np.all((u >= 0) & (u <= 1), axis=1)
    uc = np.clip(u, 0, 1)
    values = box.to_value(uc)
    prior = box.log_jacobian(uc) + sum(p.distribution.logpdf(values[:, i])
                                       for i, p in enumerate(study.parameters))
    if sigma is None:
        log_sigma = theta[:, d]
        inside &= (log_sigma >= SIGMA_RANGE[0]) & (log_sigma <= SIGMA_RANGE[1])
        sig = np.exp(log_sigma)
    else:
        sig = np.full(len(theta), sigma)
    pred = uq_surrogates.predict_all(surrogates, uc)
    resid = (log_y[None, :] - pred) / sig[:, None]
    if nu is None:
        ll = -0.5 * np.sum(resid ** 2, axis=1)
    else:
        ll = -0.5 * (nu + 1) * np.sum(np.log1p(resid ** 2 / nu), axis=1)
    ll -= len(log_y) * np.log(sig)
    return np.where(inside, prior + ll, -np.inf)


def sample_posterior(surrogates, log_y, study, box, sigma, walkers, steps, seed, nu=None):
    """Posterior draws: rows of (box units [, log sigma]) after burn-in, thinned."""
    import emcee
    d = len(study.parameters)
    ndim = d + (sigma is None)
    walkers = max(walkers, 2 * ndim + 2)
    rng = np.random.default_rng(seed)
    start = box.to_unit(np.column_stack([p.distribution.ppf(rng.uniform(0.2, 0.8, walkers))
                                         for p in study.parameters]))
    if sigma is None:
        start = np.column_stack([start, np.log(0.05) + 0.1 * rng.standard_normal(walkers)])
    sampler = emcee.EnsembleSampler(walkers, ndim, log_posterior, vectorize=True,
                                    args=(surrogates, log_y, study, box, sigma, nu))
    sampler.random_state = np.random.RandomState(seed).get_state()
    sampler.run_mcmc(start, steps)
    chain = sampler.get_chain(discard=steps // 2, flat=True,
                              thin=max(1, steps * walkers // 2 // 4000))
    return chain, float(np.mean(sampler.acceptance_fraction))


def coverage(chain, surrogates, log_y, d, sigma, seed, nu=None, mass=0.9):
    """How many of the rows' measurements fall in their posterior predictive `mass` interval."""
    if not len(surrogates):
        return 0, 0
    rng = np.random.default_rng(seed)
    draws = chain[rng.integers(0, len(chain), min(len(chain), 2000))]
    sig = np.exp(draws[:, d]) if sigma is None else np.full(len(draws), sigma)
    inside = 0
    for sm, y in zip(surrogates, log_y):
        noise = rng.standard_normal(len(draws)) if nu is None else rng.standard_t(nu, len(draws))
        pred = sm.predict(draws[:, :d]) + sig * noise
        lo, hi = np.percentile(pred, [50 * (1 - mass), 50 * (1 + mass)])
        inside += lo <= y <= hi
    return int(inside), len(surrogates)


def fit_surrogates(study, s, f, points):
    """One surrogate per row (f: rows x design points), and the largest check error."""
    n = s["design_runs"]
    surrogates, worst = [], 0.0
    for r, y in enumerate(f):
        ok = np.isfinite(y) & (y > 0)
        fit_ok, check_ok = ok[:n], ok[n:]
        if fit_ok.sum() < len(study.parameters) + 2:
            raise StudyError(f"calibration: row {r + 1}: only {fit_ok.sum()} of {n} design runs "
                             f"succeeded; see the error column of {study.out}.calibration.csv")
        sm, err = uq_surrogates.fit(s["surrogate"], points[:n][fit_ok], np.log(y[:n][fit_ok]),
                                    points[n:][check_ok], np.log(y[n:][check_ok]))
        surrogates.append(sm)
        worst = max(worst, err) if np.isfinite(err) else worst
    return surrogates, worst


def calibrate(study, args, launcher, make_runs):
    s = settings(study)
    if study.posterior is not None:
        raise study.error("study.posterior", "calibration takes its priors from [parameters]; "
                                             "leave study.posterior to the studies it feeds")
    rows = read_measurements(study, s)
    box = uq_surrogates.Box(study.parameters)
    points, runs = design(study, s, rows, box)
    keys = [p.key for p in study.parameters]
    journal = Journal(f"{study.out}.calibration.csv", keys,
                      {k: BASE_UNIT.get(study.keys[k], "1") for k in keys}, study.figure_name)
    start = time.time()
    failed = make_runs(study, runs, journal, launcher)
    simulated, start = time.time() - start, time.time()
    f = np.asarray(journal.figures(runs)).reshape(len(rows), len(points))
    surrogates, surrogate_error = fit_surrogates(study, s, f, points)
    log_y = np.log([float(row[s["measured"]]) for _, row in rows])
    order = np.random.default_rng(study.seed).permutation(len(rows))
    test = sorted(order[:int(round(s["holdout"] * len(rows)))].tolist())
    train = [r for r in range(len(rows)) if r not in test]
    chain, report = _infer(study, s, box, surrogates, log_y, train, test)
    report.update(surrogate=s["surrogate"], surrogate_max_log_error=surrogate_error,
                  held_out_rows=[rows[r][0] for r in test], simulation_s=simulated,
                  inference_s=time.time() - start, failed_runs=failed)
    print(f"calibration of {', '.join(keys)} against {len(train)} measurements "
          f"({len(test)} held out), {len(runs)} simulations:")
    values = _print_report(study, s, keys, box, chain, report)
    _write_outputs(study, keys, values, chain, report, _truths(study, args.check_truth, keys))
    return 1 if failed else 0


def _infer(study, s, box, surrogates, log_y, train, test):
    """The chain over the training rows and its predictive coverage of both sets of rows."""
    fitted = [surrogates[r] for r in train]
    chain, acceptance = sample_posterior(fitted, log_y[train], study, box, s["sigma"],
                                         s["walkers"], s["steps"], study.seed, s["nu"])
    d = len(study.parameters)
    report = {"keys": {}, "acceptance": acceptance, "draws": len(chain),
              "coverage_train": coverage(chain, fitted, log_y[train], d, s["sigma"],
                                         study.seed, s["nu"]),
              "coverage_heldout": coverage(chain, [surrogates[r] for r in test], log_y[test], d,
                                           s["sigma"], study.seed, s["nu"])}
    return chain, report


def _print_report(study, s, keys, box, chain, report):
    """Prints the credible intervals and checks, fills report's; returns the draws' values."""
    d = len(keys)
    values = box.to_value(chain[:, :d])
    for i, k in enumerate(keys):
        lo, med, hi = np.percentile(values[:, i], [5, 50, 95])
        report["keys"][k] = {"p5": lo, "p50": med, "p95": hi}
        kind = study.keys[k]
        print(f"  {k:<28} median {format_human(med, kind)}, 90% credible interval "
              f"[{format_human(lo, kind)}, {format_human(hi, kind)}]")
    if s["sigma"] is None:
        lo, med, hi = np.expm1(np.exp(np.percentile(chain[:, d], [5, 50, 95])))
        report["noise"] = {"p5": lo, "p50": med, "p95": hi}
        print(f"  {'measurement error (fitted)':<28} median {100 * med:.2f}%, 90% credible "
              f"interval [{100 * lo:.2f}%, {100 * hi:.2f}%]")
    print(f"  surrogate ({s['surrogate']}): largest error on check runs "
          f"{100 * math.expm1(report['surrogate_max_log_error']):.2f}%")
    (a, n), (b, m) = report["coverage_train"], report["coverage_heldout"]
    print(f"  posterior predictive 90% intervals hold {a} of {n} fitted and {b} of {m} held-out "
          f"measurements")
    print(f"  time: simulations {report['simulation_s']:.1f} s, surrogates and MCMC "
          f"{report['inference_s']:.1f} s (acceptance {report['acceptance']:.2f})")
    return values


def _truths(study, given, keys):
    """--check-truth KEY=VALUE: known values (synthetic data) to mark on the corner plot."""
    from simmpi_units import parse_quantity
    truths = {}
    for item in given:
        key, _, text = item.partition("=")
        if key not in keys:
            raise StudyError(f"--check-truth {item}: {key} is not calibrated here")
        try:
            truths[key] = parse_quantity(text, study.keys[key])
        except ValueError as e:
            raise StudyError(f"--check-truth {item}: {e}")
    return [truths.get(k, np.nan) for k in keys] if truths else None


def _write_outputs(study, keys, values, chain, report, truths):
    out = study.out
    with open(f"{out}.posterior.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(keys)
        for row in values:
            w.writerow([repr(float(v)) for v in row])
    with open(f"{out}.calibration.json", "w") as f:
        json.dump(report, f, indent=1, default=float)
    names = [f"{k} [{BASE_UNIT.get(study.keys[k], '')}]" for k in keys]
    draws = values
    if report.get("noise"):
        names.append("measurement error (log units)")
        draws = np.column_stack([values, np.exp(chain[:, len(keys)])])
        truths = truths + [np.nan] if truths else None
    uq_plots.corner(f"{out}.corner.png", names, draws, truths)
    print(f"simmpi-uq: wrote {out}.posterior.csv (draws; study.posterior = "
          f"\"{out.name}.posterior.csv\" propagates them), {out}.calibration.json and "
          f"{out}.corner.png", file=sys.stderr)
