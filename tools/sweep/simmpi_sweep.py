#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# simmpi-sweep: runs one simulated program over a grid of platform values, several runs at once
# on the machine's cores, and writes a CSV table and an SVG plot of the program's figure (HPL's
# Gflop/s when the program is simmpi-hpl, else the simulated time) against the varied values.
#   simmpi-sweep --vary network.link_bw=100Gbps,200Gbps,400Gbps -- ./app.sim -n 64
#   simmpi-sweep --vary network.link_bw=100Gbps,200Gbps --vary-option platform=frontera,pupmaya \
#       --relative -- simmpi-hpl --n 200000 --nb 384 --ranks 1024
#   simmpi-sweep --replot bw.csv --relative --out bw_relative     (plot a finished sweep again)
# The program's own code (runtime.host_time = measure, the default) is measured once per
# combination of command options, in the first run, and replayed from that compute profile in
# the others, so the runs differ only by the varied values, not by host noise.
import argparse
import csv
import itertools
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "share" / "simmpi" / "python"))
from simmpi_plot import line_plot  # noqa: E402
import simmpi_runs  # noqa: E402
from simmpi_runs import command_for, figures, last_error_line, with_compute  # noqa: E402
from simmpi_tool_util import ToolError, fail  # noqa: E402


def split_values(text):
    """Comma-separated values; commas inside brackets belong to the value ("[0bps, 200Gbps]")."""
    values, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            values.append(cur.strip())
            cur = ""
        else:
            cur += ch
    values.append(cur.strip())
    return [v for v in values if v]


def parse_axis(spec, what):
    if "=" not in spec or not spec.split("=", 1)[0]:
        raise ToolError(f"{what} {spec}: expected NAME=VALUE1,VALUE2,..., e.g. "
                        "network.link_bw=100Gbps,200Gbps")
    name, values = spec.split("=", 1)
    values = split_values(values)
    if not values:
        raise ToolError(f"{what} {spec}: no values")
    return name, values


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="simmpi-sweep", description="Run a simulated program over a grid of platform "
        "values and tabulate and plot its figure.",
        usage="simmpi-sweep --vary KEY=V1,V2,... [options] -- COMMAND [ARGS...]\n"
              "       simmpi-sweep --replot PREFIX.csv [--relative] [--metric M] [--out P]")
    p.add_argument("--vary", action="append", default=[], metavar="KEY=V1,V2",
                   help="a platform key and its values, passed as --set KEY=V (repeatable; "
                        "the first is the plot's x axis)")
    p.add_argument("--vary-option", action="append", default=[], metavar="OPT=V1,V2",
                   help="an option of the command and its values, passed as --OPT V (e.g. "
                        "platform=frontera,pupmaya)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="runs at once")
    p.add_argument("--out", default="sweep", help="output prefix: PREFIX.csv, PREFIX.svg")
    p.add_argument("--metric", choices=["auto", "gflops", "time"], default="auto")
    p.add_argument("--relative", action="store_true",
                   help="plot each series relative to its first point")
    p.add_argument("--title", help="the plot's title")
    p.add_argument("--measure-each", action="store_true",
                   help="measure the program's own code in every run instead of recording it "
                        "once and replaying it (runs then differ by host noise too)")
    p.add_argument("--replot", metavar="CSV",
                   help="plot the CSV of a finished sweep again instead of running anything")
    p.add_argument("command", nargs=argparse.REMAINDER)
    args = p.parse_args(argv)
    if args.command and args.command[0] == "--":
        args.command = args.command[1:]
    if args.replot:
        if args.command or args.vary or args.vary_option:
            raise ToolError("--replot plots a finished sweep: give no --vary and no command")
        return args
    if not args.command:
        raise ToolError("no command to run; put it after --, e.g. -- ./app.sim -n 64")
    if not args.vary and not args.vary_option:
        raise ToolError("nothing to vary; give --vary KEY=V1,V2,...")
    return args


def grid(args):
    axes = [("set",) + parse_axis(v, "--vary") for v in args.vary]
    for spec in args.vary_option:
        name, values = parse_axis(spec, "--vary-option")
        axes.append(("option", name if name.startswith("-") else "--" + name, values))
    points = []
    for combo in itertools.product(*[values for _, _, values in axes]):
        points.append([(kind, name, value) for (kind, name, _), value in zip(axes, combo)])
    return axes, points


def run_point(base, point, compute=None):
    """compute: ("record" or "replay", profile path) for the program's own code, or None."""
    cmd = command_for(base, point)
    r = simmpi_runs.run(cmd, compute)
    result = figures(r.stdout, r.stderr)
    result["status"] = r.returncode
    if r.returncode != 0 or not result.get("time_s"):
        print(f"simmpi-sweep: {' '.join(with_compute(cmd, compute))}: status {r.returncode}: "
              f"{last_error_line(r.stderr)}", file=sys.stderr)
    return result


def write_csv(path, axes, points, results, metrics):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([name for _, name, _ in axes] + metrics + ["wall_s", "peak_mib", "status"])
        for point, r in zip(points, results):
            w.writerow([v for _, _, v in point] + [r.get(m, "") for m in metrics] +
                       [r.get("wall_s", ""), r.get("peak_mib", ""), r["status"]])


def read_csv(path):
    """The axes, points and results of a sweep's CSV (write_csv's layout): the columns before
    the first figure are the varied keys and options."""
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise ToolError(f"--replot {path}: {e.strerror}")
    figures_at = [i for i, name in enumerate(rows[0] if rows else []) if name in ("gflops", "time_s")]
    if not figures_at or figures_at[0] == 0 or len(rows) < 2:
        raise ToolError(f"--replot {path}: not a sweep's CSV (expected the varied keys, then "
                        "gflops and/or time_s, wall_s, peak_mib, status, and at least one row)")
    header, n = rows[0], figures_at[0]
    axes = []
    for i, name in enumerate(header[:n]):
        values = list(dict.fromkeys(row[i] for row in rows[1:]))
        axes.append(("option" if name.startswith("-") else "set", name, values))
    points, results = [], []
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise ToolError(f"--replot {path}:{line}: {len(row)} fields, the header has {len(header)}")
        points.append([(kind, name, row[i]) for i, (kind, name, _) in enumerate(axes)])
        result = {"status": int(row[header.index("status")] or 0)} if "status" in header else {}
        for i in range(n, len(header)):
            if header[i] != "status" and row[i] != "":
                try:
                    result[header[i]] = float(row[i])
                except ValueError:
                    raise ToolError(f"--replot {path}:{line}: {header[i]} = {row[i]!r} is not a number")
        results.append(result)
    return axes, points, results


def series(axes, points, results, metric, relative):
    """{series label: [(x label, value)]}: x is the first axis, one series per other combo,
    named by its values (a single series is named by the figure)."""
    out = {}
    for point, r in zip(points, results):
        label = ", ".join(f"{name.lstrip('-')}={v}" for _, name, v in point[1:]) or metric
        out.setdefault(label, []).append((point[0][2], r.get(metric)))
    if relative:
        for label, pts in out.items():
            base = pts[0][1]
            out[label] = [(x, v / base if v and base else None) for x, v in pts]
    return out


def run_all(args, points):
    """Runs every point; unless --measure-each, the first run of each combination of command
    options records the program's own compute and the others replay it."""
    if args.measure_each:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            return list(pool.map(lambda p: run_point(args.command, p), points))
    results = [None] * len(points)
    groups = {}
    for i, point in enumerate(points):
        groups.setdefault(tuple(v for kind, _, v in point if kind == "option"), []).append(i)
    profiles = {}
    for g, (options, members) in enumerate(groups.items()):
        path = str(Path(f"{args.out}.compute{g}.prof").resolve())
        Path(path).unlink(missing_ok=True)
        results[members[0]] = run_point(args.command, points[members[0]], ("record", path))
        # No profile when the program's own code is not charged (runtime.host_time = ignore,
        # simmpi-hpl's model mode): then there is nothing to replay.
        profiles[options] = path if Path(path).exists() else None
    rest = [i for i in range(len(points)) if results[i] is None]

    def replay(i):
        profile = profiles[tuple(v for kind, _, v in points[i] if kind == "option")]
        return run_point(args.command, points[i], ("replay", profile) if profile else None)

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for i, r in zip(rest, pool.map(replay, rest)):
            results[i] = r
    if any(profiles.values()):
        print(f"simmpi-sweep: the program's own compute was measured once per command "
              f"({', '.join(p for p in profiles.values() if p)}) and replayed in the other runs "
              f"(--measure-each to measure every run)", file=sys.stderr)
    return results


def main(argv):
    args = parse_args(argv)
    if args.replot:
        axes, points, results = read_csv(args.replot)
        program = Path(args.replot).stem
    else:
        axes, points = grid(args)
        print(f"simmpi-sweep: {len(points)} runs, {args.jobs} at a time", file=sys.stderr)
        results = run_all(args, points)
        program = os.path.basename(args.command[0])
    metric = args.metric
    if metric == "auto":
        metric = "gflops" if any("gflops" in r for r in results) else "time"
    key = "gflops" if metric == "gflops" else "time_s"
    if not args.replot:
        metrics = ["gflops", "time_s"] if any("gflops" in r for r in results) else ["time_s"]
        write_csv(f"{args.out}.csv", axes, points, results, metrics)
    data = series(axes, points, results, key, args.relative)
    if args.relative:
        ylabel = {"gflops": "Gflop/s", "time_s": "simulated time"}[key]
        ylabel += f" relative to {axes[0][1]} = {axes[0][2][0]}"
    else:
        ylabel = {"gflops": "Gflop/s", "time_s": "simulated time (s)"}[key]
    title = args.title or f"{program}: {ylabel} against {axes[0][1]}"
    line_plot(f"{args.out}.svg", data, axes[0][1], ylabel, title)
    for label, pts in data.items():
        first = pts[0][1]
        for x, v in pts:
            change = f"  {100 * (v / first - 1):+.3f}%" if v and first and not args.relative else ""
            shown = "" if v is None else f"{v:.9g}"
            print(f"{label:<30} {axes[0][1]}={x:<16} {key}={shown}{change}")
    wrote = f"{args.out}.svg" if args.replot else f"{args.out}.csv and {args.out}.svg"
    print(f"simmpi-sweep: wrote {wrote}", file=sys.stderr)
    return 0 if all(r.get("status", 0) == 0 for r in results) else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except ToolError as e:
        fail("simmpi-sweep", e)
