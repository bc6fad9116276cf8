# SPDX-License-Identifier: Apache-2.0
# A study file (TOML): which platform keys are uncertain and how, the program and its figure, the
# designs to compare and the calibration's measurements (docs/uq.md has the full format). Every
# field is checked before any run starts, and a mistake is one message naming the file, the line
# and the field.
import csv
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import uq_distributions
from simmpi_tool_util import ToolError
from simmpi_units import parse_quantity

DESIGNS = ("mc", "lhs", "sobol")
FIGURES = {"time": ("time_s", "lower"), "gflops": ("gflops", "higher")}
KEY_LINE = re.compile(r"^(\S+) \(([^,]+), default (.*)\)$")
QUANTITIES = ("time", "bandwidth", "size", "frequency", "flop rate")


class StudyError(ToolError):
    pass


class Study:
    """The checked study: see load()."""

    def __init__(self, path, text, data):
        self.path, self.text, self.data = Path(path), text, data
        self.dir = self.path.resolve().parent

    def error(self, field, message):
        """A StudyError naming this file, the line where `field` is written, and the field."""
        return StudyError(f"{self.path}:{self.line_of(field)}: {field}: {message}")

    def line_of(self, field):
        """The line that writes `field` (a dotted path such as parameters.network.link_bw): the
        first line naming its last part after the line naming its table, else 1."""
        parts = field.split(".")
        lines = self.text.splitlines()
        table_line = 0
        for i, line in enumerate(lines):
            if re.match(rf"^\s*\[{re.escape(parts[0])}\]", line):
                table_line = i
                break
        for tail in (field, ".".join(parts[1:]), parts[-1]):
            for i in range(table_line, len(lines)):
                if tail and re.search(rf"(^|[\s{{,.\"]){re.escape(tail)}\"?\s*=", lines[i]):
                    return i + 1
        return table_line + 1


def flatten(table, specs=False, prefix=""):
    """{'network': {'link_bw': X}} -> {'network.link_bw': X}, stopping at a leaf: a value that is
    not a table, or with specs, a table that holds no table (a parameter's distribution)."""
    out = {}
    for k, v in table.items():
        name = f"{prefix}{k}"
        is_spec = specs and isinstance(v, dict) and not any(isinstance(x, dict)
                                                            for x in v.values())
        if isinstance(v, dict) and not is_spec:
            out.update(flatten(v, specs, name + "."))
        else:
            out[name] = v
    return out


def platform_keys(command, study):
    """{key: kind} as the program's --help-config lists them (simmpi-hpl: its built binary's)."""
    program = command[0]
    if Path(program).name == "simmpi-hpl":
        r = subprocess.run(command + ["--build-only"], capture_output=True, text=True)
        if r.returncode != 0:
            raise study.error("study.command", f"simmpi-hpl --build-only failed: {r.stderr[-400:]}")
        program = r.stdout.strip().splitlines()[-1]
    try:
        r = subprocess.run([program, "--help-config"], capture_output=True, text=True)
    except OSError as e:
        raise study.error("study.command", f"cannot run {program}: {e.strerror}")
    keys = {}
    for line in r.stdout.splitlines():
        m = KEY_LINE.match(line)
        if m:
            keys[m.group(1)] = m.group(2)
    if not keys:
        raise study.error("study.command", f"{program} --help-config listed no platform keys; "
                                           f"is it a simmpi program (built with simmpicc)?")
    return keys


def resolve_command(study, command, field):
    if not isinstance(command, list) or not command or not all(
            isinstance(a, (str, int, float)) for a in command):
        raise study.error(field, "expected the program and its arguments as a list of strings, "
                                 "e.g. [\"./app.sim\", \"-n\", \"8\"]")
    command = [str(a) for a in command]
    local = study.dir / command[0]
    if "/" in command[0] and local.exists():
        command[0] = str(local.resolve())
    elif "/" not in command[0] and not local.exists() and shutil.which(command[0]):
        command[0] = shutil.which(command[0])
    elif local.exists():
        command[0] = str(local.resolve())
    if not Path(command[0]).exists():
        raise study.error(field, f"no program {command[0]} (relative to {study.dir} or on PATH)")
    return command


def value_parser(study, keys, key, field):
    """parse(text, what) -> the value of `key` in its base unit, errors naming `field`."""
    kind = keys[key]

    def parse(text, what):
        if kind in QUANTITIES:
            try:
                return parse_quantity(text, kind)
            except ValueError as e:
                raise study.error(field, f"{what}: {e} ({key} is a {kind})")
        if kind in ("integer", "number") and isinstance(text, (int, float)):
            return float(text)
        raise study.error(field, f"{what}: {text!r} is not a {kind}, which {key} takes")
    return parse


def check_key(study, keys, key, field):
    if key not in keys:
        close = sorted(keys, key=lambda k: _distance(k, key))[0]
        raise study.error(field, f"no platform key {key}; did you mean {close}? "
                                 f"(the program's --help-config lists them)")
    if keys[key] not in QUANTITIES + ("integer", "number"):
        raise study.error(field, f"{key} is a {keys[key]}, not a quantity that can be uncertain")


def _distance(a, b):
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


class Parameter:
    def __init__(self, key, kind, distribution):
        self.key, self.kind, self.distribution = key, kind, distribution


def load(path):
    """Reads and checks a study file; a StudyError names the first mistake."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as e:
        raise StudyError(f"{path}: cannot read: {e.strerror}")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise StudyError(f"{path}: {e}")
    study = Study(path, text, data)
    unknown = sorted(set(data) - {"study", "parameters", "designs", "sweep", "calibration"})
    if unknown:
        raise study.error(unknown[0], "unknown table; expected study, parameters, designs, "
                                      "sweep or calibration")
    s = data.get("study")
    if not isinstance(s, dict):
        raise StudyError(f"{path}:1: study: missing [study] table (command, figure, samples)")
    _load_settings(study, s)
    study.keys = platform_keys(study.command, study)
    study.parameters = _load_parameters(study, data.get("parameters", {}))
    study.designs = _load_designs(study, data.get("designs"), data.get("sweep"))
    study.posterior = _load_posterior(study, s.get("posterior"), s.get("posterior_keys"))
    if not study.parameters and study.posterior is None:
        raise StudyError(f"{path}:1: parameters: no uncertain key; add e.g. [parameters] "
                         f"network.link_bw = {{ normal = [\"100Gbps\", \"3%\"] }}")
    study.calibration = data.get("calibration")
    return study


def _load_settings(study, s):
    allowed = {"command", "figure", "better", "design", "samples", "seed", "compute",
               "posterior", "posterior_keys", "out"}
    for k in s:
        if k not in allowed:
            raise study.error(f"study.{k}", f"unknown field; expected {', '.join(sorted(allowed))}")
    study.command = resolve_command(study, s.get("command"), "study.command")
    study.figure_name, study.figure_regex, study.better = _figure(study, s.get("figure", "time"),
                                                                  "study.figure")
    if "better" in s:
        if s["better"] not in ("lower", "higher"):
            raise study.error("study.better", "expected \"lower\" or \"higher\"")
        study.better = s["better"]
    study.design = s.get("design", "lhs")
    if study.design not in DESIGNS:
        raise study.error("study.design", f"\"{study.design}\" is not one of {', '.join(DESIGNS)}")
    study.samples = _positive_int(study, s.get("samples", 64), "study.samples")
    study.seed = s.get("seed", 1)
    if not isinstance(study.seed, int) or study.seed < 0:
        raise study.error("study.seed", "expected a non-negative integer")
    study.compute = s.get("compute", "replay")
    if study.compute not in ("replay", "measure"):
        raise study.error("study.compute", "expected \"replay\" (measure the program's own code "
                                           "once, replay it in every run) or \"measure\"")
    study.out = study.dir / s.get("out", study.path.stem)
    try:
        study.out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise study.error("study.out", f"cannot create {study.out.parent}: {e.strerror}")


def _positive_int(study, value, field):
    if not isinstance(value, int) or value < 1:
        raise study.error(field, f"expected a positive integer, got {value!r}")
    return value


def _figure(study, figure, field):
    """(column name, compiled regex or None, which is better) for the figure of interest."""
    if isinstance(figure, str) and figure in FIGURES:
        name, better = FIGURES[figure]
        return name, None, better
    if isinstance(figure, dict) and "regex" in figure:
        try:
            regex = re.compile(figure["regex"], re.MULTILINE)
        except re.error as e:
            raise study.error(field, f"regex {figure['regex']!r}: {e}")
        if regex.groups != 1:
            raise study.error(field, f"regex {figure['regex']!r} must have exactly one group "
                                     f"(the number), it has {regex.groups}")
        return figure.get("name", "figure"), regex, "lower"
    raise study.error(field, f"{figure!r}: expected \"time\" (simulated time), \"gflops\" "
                             f"(simmpi-hpl) or {{ regex = \"...(number)...\", name = \"...\" }}")


def _load_parameters(study, table):
    params = []
    for key, spec in flatten(table, specs=True).items():
        field = f"parameters.{key}"
        check_key(study, study.keys, key, field)
        if not isinstance(spec, dict):
            raise study.error(field, f"expected a distribution, e.g. {{ normal = "
                                     f"{uq_distributions.EXAMPLES['normal']} }}")
        try:
            dist = uq_distributions.make(spec, value_parser(study, study.keys, key, field))
        except uq_distributions.DistributionError as e:
            raise study.error(field, str(e))
        params.append(Parameter(key, study.keys[key], dist))
    return params


def _load_designs(study, designs, sweep):
    """[(name, [(key, value text)])]: the fixed settings each sample is run under; one design,
    "base", with nothing set when the study names none."""
    if designs is not None and sweep is not None:
        raise study.error("sweep", "give [designs] or [sweep], not both")
    out = []
    if sweep is not None:
        key, values = sweep.get("key"), sweep.get("values")
        if not isinstance(key, str) or not isinstance(values, list) or not values:
            raise study.error("sweep", "expected key = \"network.link_bw\" and values = "
                                       "[\"100Gbps\", \"200Gbps\"]")
        study.sweep_key = key
        out = [(str(v), {key: v}) for v in values]
        field_of = {str(v): "sweep.values" for v in values}
    else:
        study.sweep_key = None
        for name, settings in (designs or {}).items():
            if not isinstance(settings, dict):
                raise study.error(f"designs.{name}", "expected a table of keys and values")
            out.append((name, flatten(settings)))
        field_of = {name: f"designs.{name}" for name, _ in out}
    uncertain = {p.key for p in study.parameters}
    checked = []
    for name, settings in out:
        for key, value in settings.items():
            if key not in study.keys:
                check_key(study, study.keys, key, field_of[name])
            if key in uncertain:
                raise study.error(field_of[name], f"{key} is uncertain in [parameters]; a design "
                                                  f"cannot also fix it")
            kind = study.keys[key]
            if kind in QUANTITIES:
                value_parser(study, study.keys, key, field_of[name])(value, key)
        checked.append((name, [(k, str(v)) for k, v in settings.items()]))
    return checked or [("base", [])]


def _load_posterior(study, posterior, wanted):
    """Joint draws of calibrated keys (simmpi-uq calibrate's .posterior.csv), all its columns or
    those study.posterior_keys names; None without study.posterior."""
    if posterior is None:
        if wanted is not None:
            raise study.error("study.posterior_keys", "needs study.posterior")
        return None
    path = study.dir / posterior
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise study.error("study.posterior", f"cannot read {path}: {e.strerror}")
    if len(rows) < 2:
        raise study.error("study.posterior", f"{path} has no draws")
    keys = rows[0]
    if wanted is None:
        wanted = keys
    if not isinstance(wanted, list) or not wanted or any(k not in keys for k in wanted):
        raise study.error("study.posterior_keys", f"expected a list of {path}'s columns "
                                                  f"({', '.join(keys)})")
    fixed = {k for _, settings in study.designs for k, _ in settings}
    uncertain = {p.key for p in study.parameters}
    for k in wanted:
        check_key(study, study.keys, k, "study.posterior")
        if k in uncertain:
            raise study.error("study.posterior", f"{k} is both in {path} and in [parameters]")
        if k in fixed:
            raise study.error("study.posterior", f"{k} is drawn from {path} and fixed by a "
                                                 f"design; leave it out with study.posterior_keys")
    columns = [keys.index(k) for k in wanted]
    try:
        draws = [[float(row[c]) for c in columns] for row in rows[1:]]
    except (ValueError, IndexError):
        raise study.error("study.posterior", f"{path}: a value is missing or not a number")
    return wanted, draws
