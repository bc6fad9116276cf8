#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# simmpi-hpl: obtains HPL, builds it with simmpicc and SimBLAS, writes its input file from a few
# options, runs it on a simulated platform and prints N, NB, P x Q, the predicted time and
# Gflop/s, and the wall time and peak memory of the simulation. HPL's files are never changed:
# the build uses compiler flags, link-time symbol wrapping and simmpi's own glue (share/simmpi/hpl).
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "share" / "simmpi" / "python"))
import simmpi_hpl_input as hplin  # noqa: E402
import simmpi_hpl_source as hplsrc  # noqa: E402
from simmpi_tool_util import ToolError, cache_dir, find_platform, fail  # noqa: E402

PREFIX = Path(__file__).resolve().parent.parent
GLUE = PREFIX / "share" / "simmpi" / "hpl"
CFLAGS = ["-O2", "-DHPL_CALL_CBLAS"]
# HPL functions replaced at link time by the glue in hpl_model.c (--wrap=SYM sends HPL's calls to
# __wrap_SYM): its copy and row-swap loops, matrix generation and norms are charged as
# memory-bound kernels and skipped in model mode; see hpl_model.c for the rest.
WRAPPED = ["HPL_dlaswp00N", "HPL_dlaswp10N", "HPL_dlaswp01N", "HPL_dlaswp01T", "HPL_dlaswp02N",
           "HPL_dlaswp03N", "HPL_dlaswp03T", "HPL_dlaswp04N", "HPL_dlaswp04T", "HPL_dlaswp05N",
           "HPL_dlaswp05T", "HPL_dlaswp06N", "HPL_dlaswp06T", "HPL_dlacpy", "HPL_dlatcpy",
           "HPL_pdmatgen", "HPL_pdlange", "HPL_dlocmax", "HPL_pdpanel_init", "HPL_pdpanel_free",
           "cblas_dcopy", "HPL_pdfact", "HPL_pdmxswp", "HPL_pipid", "HPL_plindx1", "HPL_dlocswpN",
           "HPL_dlocswpT", "HPL_pdupdateTT", "MPI_Iprobe", "HPL_rollT", "HPL_equil",
           "HPL_bcast_blong", "HPL_bcast_blonM", "HPL_packL"]
# Options that switch a model of tools/hpl/hpl_model.c, and the environment variable it reads.
GLUE_SWITCHES = {"explicit_fact": "SIMMPI_HPL_EXPLICIT_FACT",
                 "explicit_update": "SIMMPI_HPL_EXPLICIT_UPDATE",
                 "explicit_pack": "SIMMPI_HPL_EXPLICIT_PACK",
                 "model_swap": "SIMMPI_HPL_MODEL_SWAP",
                 "model_bcast": "SIMMPI_HPL_MODEL_BCAST",
                 "progress": "SIMMPI_HPL_PROGRESS"}
USAGE_EPILOG = """
The sources: --source takes HPL 2.x (e.g. the official hpl-2.3.tar.gz, which has its own main)
or hpcc (whose hpl/ directory is HPL 2.x with an HPL_main entry point), as a tarball or a
directory; by default Debian's hpcc source package is fetched with apt-get into the cache
($SIMMPI_CACHE_DIR, else ~/.cache/simmpi). Builds are cached there too.

Model mode (the default) computes nothing: BLAS calls and HPL's own copy loops are charged by
the platform's roofline, allocations of --fold-threshold bytes or more are folded (their pages
are shared, so a full-size run fits in memory), and HPL's residual check is meaningless and
reported as not checked. Model mode also leaves HPL's own code between library calls
uncharged (runtime.host_time = ignore): the loops that matter are charged by the model, and the
host time of what remains (bookkeeping on folded data, loops skipped) is not what HPL's code
costs. Execute mode computes for real, charges HPL's own code as measured (the simulator's
default) and HPL checks its residual.

Examples:
  simmpi-hpl --mode execute --n 1000 --nb 64 --p 2 --q 2
  simmpi-hpl --platform frontera --n 8835840 --nb 384 --p 88 --q 91
"""


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="simmpi-hpl", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Build HPL for simmpi, run it on a simulated machine, print its figures.",
        epilog=USAGE_EPILOG)
    p.add_argument("--source", help="HPL or hpcc sources: a tarball or a directory")
    hplin.add_arguments(p)
    p.add_argument("--ranks", type=int, help="MPI ranks (default P x Q)")
    p.add_argument("--mode", choices=["model", "execute"], default="model",
                   help="model: charge time, compute nothing (default); execute: compute")
    p.add_argument("--platform", help="platform file, or the name of a preset (e.g. frontera)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override one platform key (repeatable)")
    # 64 KiB: HPL's integer pivot data stays below it (a few KiB at NB = 384); with 1 MiB the
    # buffers of HPL's solve and check at the end of a run (most likely its vectors of N/P
    # doubles, up to ~850 KB per rank) were real memory: ~585 MiB more at 4,248 ranks.
    p.add_argument("--fold-threshold", default="64KiB",
                   help="model mode: fold allocations of at least this size (default 64KiB; "
                        "0B: never)")
    p.add_argument("--explicit-fact", action="store_true",
                   help="model mode: simulate HPL's panel factorization call by call (every "
                        "pivot exchange) instead of charging it as a whole; slower, for checking "
                        "the model")
    p.add_argument("--explicit-update", action="store_true",
                   help="model mode: simulate every chunk and probe of HPL's trailing update "
                        "instead of its fruitless probes in one go; slower, for checking the model")
    p.add_argument("--explicit-pack", action="store_true",
                   help="model mode: describe each panel message with HPL's own datatype (one "
                        "entry per column) instead of an equally long one of two entries; "
                        "slower, for checking the model")
    p.add_argument("--model-swap", action="store_true",
                   help="model mode, experimental: each rank sends its two neighbours what HPL's "
                        "row-swap ring would, in one exchange, instead of the ring's P - 1 steps "
                        "(far fewer events at large P; -0.5%% to +1.6%% at the TOP500 proxies, up "
                        "to 15%% off at small N/P: see docs/hpl.md)")
    p.add_argument("--model-bcast", action="store_true",
                   help="model mode, experimental: HPL's long broadcasts (--bcast long, longM) "
                        "send each neighbour in one exchange what their roll of Q - 1 steps "
                        "would (far fewer events at large Q; see docs/hpl.md)")
    p.add_argument("--detailed-timing", action="store_true",
                   help="build HPL with -DHPL_DETAILED_TIMING: HPL prints the time of its "
                        "phases (rfact, pfact, mxswp, update, laswp, up tr sv)")
    p.add_argument("--progress", action="store_true",
                   help="say when each twentieth of HPL's panels starts, with the wall time so "
                        "far and an estimate of the rest (the simulation is unchanged)")
    p.add_argument("--build-dir", help="where to build (default: in the cache)")
    p.add_argument("--run-dir", help="where to run (default: a fresh temporary directory)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel compilations")
    p.add_argument("--build-only", action="store_true", help="build, print the binary's path")
    p.add_argument("--print-dat", action="store_true", help="print the input file and exit")
    p.add_argument("--print-source", action="store_true",
                   help="fetch the sources, print their HPL directory and flavour (hpl or "
                        "hpcc), and exit")
    p.add_argument("--verbose", action="store_true", help="show commands and HPL's output")
    return p.parse_args(argv)


def checked_inputs(args):
    """Everything that can be checked before sources are fetched or anything built."""
    if args.ranks is not None and args.ranks < 1:
        raise ToolError(f"--ranks {args.ranks}: the number of ranks must be at least 1")
    for s in args.set:
        key = s.split("=", 1)[0]
        if "=" not in s or not key:
            raise ToolError(f"--set {s}: expected key=value, e.g. --set network.link_bw=200Gbps")
        if key in ("blas.mode", "runtime.fold_threshold"):
            raise ToolError(f"--set {s}: use --mode or --fold-threshold for this key")
    platform = find_platform(args.platform) if args.platform else None
    dat = hplin.input_from_args(args)
    ranks = args.ranks if args.ranks is not None else dat.max_grid()
    dat.check(ranks)
    long_bcasts = [hplin.BCASTS.index("long"), hplin.BCASTS.index("longM")]
    if args.model_bcast and not any(b in long_bcasts for b in dat.bcasts):
        used = ", ".join(hplin.BCASTS[b] for b in dat.bcasts)
        raise ToolError(f"--model-bcast models HPL's long broadcasts (long, longM), but the input "
                        f"uses {used}: add --bcast longM")
    return platform, dat, ranks


def glue_sources(flavour):
    files = [GLUE / "hpl_model.c", GLUE / "hpl_ptimer.c"]
    if flavour == "hpcc":
        files.append(GLUE / "hpcc_main.c")
    return files


# HPL's files that the glue replaces (hpl_ptimer.c: HPL's timers with their state off the globals).
REPLACED = ["testing/ptimer/HPL_ptimer.c"]


def hpl_sources(root):
    # Not testing/timer: nothing calls its timers, and HPL's own build only archives them.
    dirs = ["src/*", "testing/matgen", "testing/pmatgen", "testing/ptest", "testing/ptimer"]
    files = []
    for d in dirs:
        files += sorted(f for f in root.glob(d + "/*.c")
                        if f.relative_to(root).as_posix() not in REPLACED)
    return files


def cflags(args):
    return CFLAGS + (["-DHPL_DETAILED_TIMING"] if args.detailed_timing else [])


def build_key(src, compiler, args, prefix=None):
    """Names a build: the sources, the flags, and the simmpi installation it is compiled against
    (its headers, and its path, which the executable's RUNPATH names: two installations sharing
    one cache must not run each other's library)."""
    prefix = Path(prefix or PREFIX).resolve()
    h = hashlib.sha1()
    h.update(str(src.root.resolve()).encode())
    h.update(str(prefix).encode())
    h.update(" ".join(cflags(args) + WRAPPED).encode())
    for f in glue_sources(src.flavour) + [compiler] + sorted((prefix / "include").glob("*.h")):
        h.update(Path(f).read_bytes())
    return h.hexdigest()[:12]


def compile_one(cmd, verbose):
    if verbose:
        print(" ".join(map(str, cmd)), file=sys.stderr)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise ToolError(f"compiling {cmd[-3]} failed:\n{r.stderr.strip()}")


def build(src, build_dir, flags, jobs, verbose):
    """Compiles HPL and simmpi's glue with simmpicc into build_dir; returns the executable."""
    cc = PREFIX / "bin" / "simmpicc"
    inc = ["-I", str(src.root / "include")]
    objdir = build_dir / "obj"
    objdir.mkdir(parents=True, exist_ok=True)
    todo, objs = [], []
    for f in hpl_sources(src.root) + glue_sources(src.flavour):
        obj = objdir / (f.stem + ".o")
        objs.append(obj)
        if not obj.exists() or obj.stat().st_mtime < f.stat().st_mtime:
            todo.append([str(cc)] + flags + inc + ["-c", str(f), "-o", str(obj)])
    exe = build_dir / "xhpl.sim"
    if todo or not exe.exists():
        print(f"simmpi-hpl: building {src.label} in {build_dir} ({len(todo)} files to compile)",
              file=sys.stderr)
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            for fut in [pool.submit(compile_one, c, verbose) for c in todo]:
                fut.result()
        wraps = [f"-Wl,--wrap={s}" for s in WRAPPED]
        compile_one([str(cc), "-o", str(exe)] + [str(o) for o in objs] + wraps + ["-lm"],
                    verbose)
    return exe


def locked_build(src, args):
    import fcntl
    cc = PREFIX / "bin" / "simmpicc"
    build_dir = Path(args.build_dir) if args.build_dir else \
        cache_dir() / "hpl" / f"{src.label}-{build_key(src, cc, args)}"
    build_dir.mkdir(parents=True, exist_ok=True)
    with open(build_dir / ".lock", "w") as lock:  # concurrent runs (simmpi-sweep) build once
        fcntl.flock(lock, fcntl.LOCK_EX)
        return build(src, build_dir, cflags(args), args.jobs, args.verbose)


def platform_options(platform, args):
    """The simulator options that describe the machine: --platform and the user's --set."""
    cmd = ["--platform", str(platform)] if platform else []
    for s in args.set:
        cmd += ["--set", s]
    return cmd


def machine_ranks(exe, platform, args):
    """nodes x ranks per node of the platform, or None for one without a size (a crossbar)."""
    r = subprocess.run([str(exe), "--print-machine"] + platform_options(platform, args),
                       capture_output=True, text=True)
    m = re.search(r"nodes=(\d+) ranks_per_node=(\d+) ranks=(\d+)", r.stdout)
    if r.returncode != 0 or not m:
        raise ToolError(f"cannot read the platform's size: {r.stderr.strip() or r.stdout.strip()}")
    nodes, per_node, ranks = map(int, m.groups())
    return (ranks, nodes, per_node) if nodes else None


def simulator_command(exe, ranks, platform, args):
    cmd = [str(exe), "-n", str(ranks)] + platform_options(platform, args)
    cmd += ["--set", f"blas.mode={args.mode}"]
    if args.mode == "model":
        cmd += ["--set", f"runtime.fold_threshold={args.fold_threshold}",
                "--set", "runtime.host_time=ignore"]
    # HPL runs in a scratch directory (its HPL.dat and output file); what the user asks the
    # simulator to write (network statistics, profiles, timelines) lands where the user is,
    # unless the user chose a directory.
    if not any(s.startswith("runtime.directory=") for s in args.set):
        cmd += ["--set", f"runtime.directory={os.getcwd()}"]
    return cmd


def run(exe, src, dat, ranks, platform, args):
    """Runs HPL in a run directory; returns (HPL's output text, simulator stderr, status)."""
    run_dir = Path(args.run_dir) if args.run_dir else \
        Path(tempfile.mkdtemp(prefix="run-", dir=exe.parent))
    run_dir.mkdir(parents=True, exist_ok=True)
    infile, outfile = ("hpccinf.txt", "hpccoutf.txt") if src.flavour == "hpcc" else \
        ("HPL.dat", dat.output_file())
    (run_dir / infile).write_text(dat.text())
    if outfile:
        (run_dir / outfile).unlink(missing_ok=True)
    cmd = simulator_command(exe, ranks, platform, args)
    if args.verbose:
        print(f"simmpi-hpl: in {run_dir}: {' '.join(cmd)}", file=sys.stderr)
    env = dict(os.environ)
    env.update({var: "1" for option, var in GLUE_SWITCHES.items() if getattr(args, option)})
    # The simulator's stderr is read as it comes so that --set runtime.heartbeat=... lines show
    # during the run; its stdout goes to a file, so neither pipe can fill up and stall it.
    with open(run_dir / "simulator.out", "w+") as out:
        proc = subprocess.Popen(cmd, cwd=run_dir, stdout=out, stderr=subprocess.PIPE, text=True,
                                env=env)
        stderr = []
        started = time.monotonic()
        for line in proc.stderr:
            stderr.append(line)
            if line.startswith("simmpi: heartbeat:"):
                print(line, end="", file=sys.stderr, flush=True)
            progress = re.match(r"simmpi-hpl: progress: panel (\d+) of (\d+)", line)
            if progress:
                print_progress(*map(int, progress.groups()), time.monotonic() - started)
        status = proc.wait()
        out.seek(0)
        stdout = out.read()
    text = stdout + ((run_dir / outfile).read_text() if outfile and
                     (run_dir / outfile).exists() else "")
    if not args.run_dir:
        shutil.rmtree(run_dir, ignore_errors=True)
    return text, "".join(stderr), status


def print_progress(panel, panels, wall_s):
    """One --progress line: the panels before this one took wall_s; the rest, at that rate (the
    host time per panel changes little over a run; an estimate all the same)."""
    def duration(s):
        if s < 120:
            return f"{s:.0f} s"
        return f"{s / 60:.0f} min" if s < 7200 else f"{s / 3600:.1f} h"
    done = panel - 1
    rest = f", about {duration(wall_s / done * (panels - done))} to go" if done else ""
    print(f"simmpi-hpl: panel {panel} of {panels} ({100 * done // panels}% done), "
          f"{duration(wall_s)} of wall time{rest}", file=sys.stderr, flush=True)


# The simulator's lines that report what the user asked for (--profile, --critical-path,
# --timeline, network.stats, runtime.report_switches: with the files they wrote) or warn.
REPORT_LINE = re.compile(r"simmpi:( {3}| profile:| critical path:| timeline:| network statistics"
                         r"| warning:| \d+ switches to ranks)")


def simulator_summary(stderr):
    s = {}
    m = re.search(r"simmpi: (\d+) ranks, simulated time (\S+) s, (\d+) events", stderr)
    if m:
        s["events"] = int(m.group(3))
    m = re.search(r"simmpi: wall time (\S+) s, peak memory (\S+) MiB", stderr)
    if m:
        s["wall_s"], s["peak_mib"] = float(m.group(1)), float(m.group(2))
    return s


def report(tests, summary, mode, ranks, platform_name, src):
    print(f"simmpi-hpl: {src.label}, {ranks} ranks on platform {platform_name}, {mode} mode")
    print(f"{'N':>10} {'NB':>5} {'P x Q':>11} {'predicted time (s)':>19} {'Gflop/s':>12}"
          f"   residual check")
    for t in tests:
        check = f"{t.check} ({t.residual:g})" if t.check != "none" else "not checked"
        if mode == "model":
            check = "not checked (model mode computes no data)"
        print(f"{t.n:>10} {t.nb:>5} {t.p:>5} x {t.q:<3} {t.time_s:>19.9g} {t.gflops:>12.7g}"
              f"   {check}")
    if summary:
        print(f"simmpi-hpl: {summary.get('events', 0)} events; wall time "
              f"{summary.get('wall_s', 0):.2f} s, peak memory {summary.get('peak_mib', 0):.1f} MiB")
    if summary.get("events") and len(tests) == 1:
        # What a run costs per unit of HPL's work, whatever its size: HPL's main loop runs once
        # per panel of NB columns on every rank (the whole run's events and wall time, setup and
        # check included, so small runs look dearer).
        t = tests[0]
        panels = -(-t.n // t.nb)
        rank_panels = panels * ranks
        events, wall = summary["events"], summary.get("wall_s", 0.0)
        print(f"simmpi-hpl: {panels} panels x {ranks} ranks: "
              f"{events / rank_panels:.1f} events and {1e6 * wall / rank_panels:.1f} us of wall "
              f"time per rank and panel ({1e6 * wall / events:.2f} us per event)")
    for t in tests:
        check = t.check if mode == "execute" else "unchecked"
        print(f"simmpi-hpl: result n={t.n} nb={t.nb} p={t.p} q={t.q} time_s={t.time_s:.9g} "
              f"gflops={t.gflops:.7g} check={check} wall_s={summary.get('wall_s', 0):.2f} "
              f"peak_mib={summary.get('peak_mib', 0):.1f}")


def main(argv):
    args = parse_args(argv)
    grid_given = args.dat or args.p is not None or args.ranks is not None
    platform, dat, ranks = checked_inputs(args)
    if args.print_dat:
        print(dat.text(), end="")
        return 0
    src = hplsrc.obtain(args.source, args.verbose)
    if args.print_source:
        print(src.root, src.flavour)
        return 0
    exe = locked_build(src, args)
    if args.build_only:
        print(exe)
        return 0
    if not grid_given:
        # Without --p/--q or --ranks, the whole machine, as a TOP500 run uses it.
        size = machine_ranks(exe, platform, args)
        if size:
            args.ranks, args.p, args.q = size[0], None, None
            dat = hplin.input_from_args(args)
            ranks = args.ranks
            dat.check(ranks)
            p, q = dat.grids[0]
            print(f"simmpi-hpl: no --p/--q: the platform's {size[1]} nodes x {size[2]} ranks per "
                  f"node = {ranks} ranks, grid P x Q = {p} x {q}", file=sys.stderr)
    text, stderr, status = run(exe, src, dat, ranks, platform, args)
    if args.verbose:
        print(text, file=sys.stderr)
    tests = hplin.parse_results(text)
    if status != 0 or not tests:
        sys.stderr.write(stderr[-4000:])
        raise ToolError(f"the simulation ended with status {status} and "
                        f"{'no' if not tests else len(tests)} HPL result(s); "
                        "rerun with --verbose to see HPL's output", status or 1)
    report(tests, simulator_summary(stderr), args.mode, ranks,
           args.platform or "default", src)
    if args.detailed_timing and not args.verbose:  # HPL's phase times, asked for
        for line in text.splitlines():
            if "aggregated wall time" in line:
                print(line)
    for line in stderr.splitlines():  # what the user asked the simulator for, and its warnings
        if REPORT_LINE.match(line):
            print(line, file=sys.stderr)
    failed = args.mode == "execute" and any(t.check == "FAILED" for t in tests)
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except ToolError as e:
        fail("simmpi-hpl", e)
