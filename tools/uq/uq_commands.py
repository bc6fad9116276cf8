# SPDX-License-Identifier: Apache-2.0
# simmpi-uq's subcommands (run, sensitivity, compare, calibrate): each makes its runs through the
# launcher into its results CSV, then reports and plots what they say.
import sys

import numpy as np

import uq_designs
import uq_plots
import uq_statistics
from simmpi_units import BASE_UNIT
from uq_journal import Journal, run_study
from uq_study import StudyError

LABELS = {"time_s": "simulated time (s)", "gflops": "Gflop/s"}


def journal_for(study, suffix=""):
    keys = [p.key for p in study.parameters] + (study.posterior[0] if study.posterior else [])
    units = {k: BASE_UNIT.get(study.keys[k], "1") for k in keys}
    return Journal(f"{study.out}{suffix}.csv", keys, units, study.figure_name)


def make_runs(study, runs, journal, launcher):
    figure = (study.figure_name, study.figure_regex.pattern if study.figure_regex else None)
    try:
        return run_study(runs, journal, launcher, figure, study.dir, study.compute, study.out)
    except StudyError as e:
        if "never printed the figure" in str(e):
            raise study.error("study.figure", str(e))
        raise


def by_design(study, runs, journal):
    return {name: np.asarray(journal.figures([r for r in runs if r["design"] == name]))
            for name, _ in study.designs}


def run(study, args, launcher):
    runs = uq_designs.propagation_runs(study)
    journal = journal_for(study)
    failed = make_runs(study, runs, journal, launcher)
    label = LABELS.get(study.figure_name, study.figure_name)
    figures = by_design(study, runs, journal)
    summaries = []
    for name, values in figures.items():
        s = uq_statistics.summary(values, seed=study.seed)
        summaries.append(s)
        print(f"{name}: {study.figure_name} " + _summary_text(s))
        print(f"{name}: {uq_statistics.convergence_text(s)}")
        if s.get("n", 0) >= 2:
            suffix = f".{_file_part(name)}" if len(figures) > 1 else ""
            uq_plots.histogram(f"{study.out}{suffix}.hist.png", values, s, label,
                               f"{study.path.name}: {name}")
    if study.sweep_key and all(s.get("n", 0) >= 2 for s in summaries):
        uq_plots.bands(f"{study.out}.bands.png", list(figures), summaries, study.sweep_key,
                       label, f"{study.path.name}: median and 90% interval")
    print(f"simmpi-uq: wrote {journal.path} and the plots {study.out}.*.png", file=sys.stderr)
    return 1 if failed else 0


def _summary_text(s):
    if s.get("n", 0) < 2:
        return f"n={s.get('n', 0)}: too few successful runs"
    return (f"n={s['n']} mean={s['mean']:.6g} sd={s['sd']:.3g} "
            f"90% interval [{s['p5']:.6g}, {s['p95']:.6g}] median={s['p50']:.6g}")


def _file_part(name):
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in name)


def sensitivity(study, args, launcher):
    n = args.base_samples
    runs = uq_designs.sensitivity_runs(study, n)
    journal = journal_for(study, ".sensitivity")
    failed = make_runs(study, runs, journal, launcher)
    f = np.asarray(journal.figures(runs))
    d = uq_designs.dimensions(study)
    first, total, first_ci, total_ci, used = uq_statistics.sobol_indices(
        f[:n], f[n:2 * n], f[2 * n:].reshape(d, n), seed=study.seed)
    names = [p.key for p in study.parameters] + (["posterior draw"] if study.posterior else [])
    print(f"Sobol indices of {study.figure_name} ({used} of {n} base samples, "
          f"{len(runs)} runs; 90% bootstrap intervals):")
    for i, name in enumerate(names):
        print(f"  {name:<32} first {first[i]:6.3f} [{first_ci[i, 0]:6.3f}, {first_ci[i, 1]:6.3f}]"
              f"  total {total[i]:6.3f} [{total_ci[i, 0]:6.3f}, {total_ci[i, 1]:6.3f}]")
    uq_plots.sensitivity(f"{study.out}.sensitivity.png", names, first, total, first_ci, total_ci,
                         f"{study.path.name}: Sobol indices of {study.figure_name}")
    print(f"simmpi-uq: wrote {journal.path} and {study.out}.sensitivity.png", file=sys.stderr)
    return 1 if failed else 0


def compare(study, args, launcher):
    names = [name for name, _ in study.designs]
    for which in (args.a, args.b):
        if which not in names:
            raise StudyError(f"{study.path}: no design {which}; the study has {', '.join(names)}")
    try:
        threshold = float(args.gain.rstrip("%")) / (100 if args.gain.endswith("%") else 1)
    except ValueError:
        raise StudyError(f"--gain {args.gain}: expected a number or a percentage, e.g. 2%")
    runs = uq_designs.propagation_runs(study)
    journal = journal_for(study)
    failed = make_runs(study, runs, journal, launcher)
    figures = by_design(study, runs, journal)
    c = uq_statistics.compare(figures[args.a], figures[args.b], study.better, threshold)
    print(f"{args.b} against {args.a} ({study.figure_name}, {study.better} is better; {c['n']} "
          f"paired samples, common random numbers):")
    print(f"  P({args.b} beats {args.a}) = {c['p_better']:.3f}")
    print(f"  P(gain > {100 * threshold:g}%) = {c['p_gain_above']:.3f}")
    lo, hi = c["gain_interval"]
    print(f"  gain: median {100 * c['gain_median']:+.2f}%, 90% interval "
          f"[{100 * lo:+.2f}%, {100 * hi:+.2f}%]")
    lo, hi = c["difference_interval"]
    print(f"  {study.figure_name}({args.b}) - {study.figure_name}({args.a}): 90% interval "
          f"[{lo:.6g}, {hi:.6g}]")
    return 1 if failed else 0


def calibrate(study, args, launcher):
    import uq_calibration
    return uq_calibration.calibrate(study, args, launcher, make_runs)
