# SPDX-License-Identifier: Apache-2.0
# A study's runs, made through a launcher and written to its results CSV as each one ends: the CSV
# is the journal, so a study that is stopped and started again skips the runs it holds (those that
# succeeded under the same command and values: each row carries a fingerprint of its run). A run
# that fails is written with its error, and the study goes on.
import csv
import hashlib
import json
import os
import re
import sys
from pathlib import Path

import simmpi_runs
from uq_study import StudyError

FIXED = ["run", "design", "sample", "seed"]
TAIL = ["time_s", "wall_s", "status", "error", "fingerprint"]


def fingerprint(run, figure):
    text = json.dumps([run["command"], run["sets"], figure], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def execute(run, figure, cwd):
    """Makes one run; figure: (column name, regex text or None). The result dict has the
    figure's value (None when not printed), time_s, wall_s, status ("ok", "failed") and error."""
    cmd = simmpi_runs.command_for(run["command"], [("set", k, v) for k, v in run["sets"]])
    try:
        r = simmpi_runs.run(cmd, run.get("compute"), cwd=cwd)
    except OSError as e:
        return {"run": run["run"], figure[0]: None, "status": "failed", "error": str(e)}
    found = simmpi_runs.figures(r.stdout, r.stderr)
    result = {"run": run["run"], "time_s": found.get("time_s"), "wall_s": found.get("wall_s")}
    value = found.get(figure[0]) if figure[1] is None else _match(figure[1], r.stdout, r.stderr)
    result[figure[0]] = value
    if r.returncode != 0:
        result.update(status="failed", error=f"exit status {r.returncode}: "
                                             f"{simmpi_runs.last_error_line(r.stderr)}")
    elif value is None:
        result.update(status="failed", error="the program did not print the figure",
                      missing_figure=True)
    else:
        result.update(status="ok", error="")
    return result


def _match(regex, stdout, stderr):
    for text in (stdout, stderr):
        m = re.search(regex, text, re.MULTILINE)
        if m:
            try:
                return float(m.group(1))
            except ValueError:
                return None
    return None


class Journal:
    """The results CSV of one study: columns run, design, sample, seed, each uncertain key (in
    its base unit), the figure, time_s, wall_s, status, error, fingerprint."""

    def __init__(self, path, keys, units, figure):
        self.path, self.keys, self.figure = Path(path), keys, figure
        self.header = FIXED + [f"{k}[{units[k]}]" for k in keys] + [figure] + \
            [c for c in TAIL if c != figure]
        self.rows = {}
        if self.path.exists():
            self._read()

    def _read(self):
        text = self.path.read_text()
        if text and not text.endswith("\n"):  # a study killed while writing a row
            self.path.write_text(text[:text.rfind("\n") + 1])
        with open(self.path, newline="") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames != self.header:
                raise StudyError(f"{self.path}: its columns ({', '.join(reader.fieldnames or [])})"
                                 f" are not this study's; move it away or set study.out")
            for row in reader:
                self.rows[int(row["run"])] = row

    def done(self, run, figure_spec):
        row = self.rows.get(run["run"])
        if row is None or row["status"] != "ok":
            return False
        if row["fingerprint"] != fingerprint(run, figure_spec):
            raise StudyError(f"{self.path}: run {run['run']} was made with other values or "
                             f"another command than this study's; move the file away or set "
                             f"study.out")
        return True

    def record(self, run, result, figure_spec):
        row = {"run": run["run"], "design": run["design"], "sample": run["sample"],
               "seed": dict(run["sets"]).get("runtime.seed", "")}
        for k, col in zip(self.keys, self.header[len(FIXED):]):
            row[col] = repr(run["values"][k]) if k in run["values"] else ""
        for c in [self.figure] + TAIL:
            v = result.get(c)
            row[c] = "" if v is None else (repr(v) if isinstance(v, float) else v)
        row["fingerprint"] = fingerprint(run, figure_spec)
        row = {c: row[c] for c in self.header}
        new = not self.path.exists()
        with open(self.path, "a", newline="") as f:
            w = csv.DictWriter(f, self.header)
            if new:
                w.writeheader()
            w.writerow(row)
        self.rows[run["run"]] = {c: str(v) for c, v in row.items()}

    def finish(self):
        """Rewrites the file in run order, one row per run (the last attempt), atomically."""
        tmp = self.path.with_suffix(".csv.tmp")
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, self.header)
            w.writeheader()
            for i in sorted(self.rows):
                w.writerow(self.rows[i])
        os.replace(tmp, self.path)

    def figures(self, runs):
        """The figure of each run in runs (NaN where it failed)."""
        out = []
        for run in runs:
            row = self.rows.get(run["run"])
            out.append(float(row[self.figure]) if row and row["status"] == "ok" else float("nan"))
        return out


def run_study(runs, journal, launcher, figure_spec, cwd, compute, profile_prefix):
    """Makes the runs the journal lacks; compute "replay": the first pending run of each command
    records the program's own compute, the others replay it. Returns the number of failures."""
    pending = [r for r in runs if not journal.done(r, figure_spec)]
    skipped = len(runs) - len(pending)
    print(f"simmpi-uq: {len(runs)} runs, {skipped} already in {journal.path}, {len(pending)} to "
          f"make with {launcher.describe()}", file=sys.stderr)
    first, rest = _phases(pending, compute, profile_prefix, journal)
    failed = _make(first, journal, launcher, figure_spec, cwd, check_figure=True)
    for run in rest:
        profile = run.get("compute")
        if profile and not Path(profile[1]).exists():
            run["compute"] = None  # the program's own code is not charged: nothing to replay
    failed += _make(rest, journal, launcher, figure_spec, cwd)
    journal.finish()
    if failed:
        print(f"simmpi-uq: {failed} of {len(pending)} runs failed (their errors are in "
              f"{journal.path}, column error)", file=sys.stderr)
    return failed


def _phases(pending, compute, prefix, journal):
    if compute != "replay":
        return pending[:1], pending[1:]
    groups = {}
    for run in pending:
        groups.setdefault(json.dumps(run["command"]), []).append(run)
    first, rest = [], []
    for g, (key, members) in enumerate(sorted(groups.items())):
        path = str(Path(f"{prefix}.compute{g}.prof").resolve())
        if Path(path).exists():
            rest += [dict(r, compute=("replay", path)) for r in members]
        else:
            first.append(dict(members[0], compute=("record", path)))
            rest += [dict(r, compute=("replay", path)) for r in members[1:]]
    return first, rest


def _make(runs, journal, launcher, figure_spec, cwd, check_figure=False):
    by_index = {r["run"]: r for r in runs}
    failed = 0
    for result in launcher.map(runs, figure_spec, cwd):
        run = by_index[result["run"]]
        if check_figure and result.get("missing_figure"):
            what = figure_spec[1] or figure_spec[0]
            raise StudyError(f"the program never printed the figure ({what}) in run "
                             f"{run['run']}: {' '.join(run['command'])}; fix study.figure")
        journal.record(run, result, figure_spec)
        if result["status"] != "ok":
            failed += 1
            values = ", ".join(f"{k}={v}" for k, v in run["sets"])
            print(f"simmpi-uq: run {run['run']} ({values}) failed: {result['error']}",
                  file=sys.stderr)
    return failed
