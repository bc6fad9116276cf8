#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# simmpi-uq: uncertainty quantification of simmpi predictions (docs/uq.md). A study file names the
# uncertain platform keys with their distributions, the program and its figure:
#   simmpi-uq run study.toml            propagation: the figure's distribution, 90% interval, plots
#   simmpi-uq sensitivity study.toml    Sobol first-order and total indices with intervals
#   simmpi-uq compare study.toml A B    design B against A on the same samples
#   simmpi-uq calibrate study.toml      posterior of the keys given measurements (MCMC)
# Runs go to a local pool (default), an MPI job (--launcher mpi, under mpiexec) or a Slurm job
# array (--launcher slurm); the results CSV is the journal, so a stopped study resumes.
# The shebang names Debian's interpreter: the tool needs its python3-scipy, -emcee, -sklearn,
# -matplotlib and -mpi4py, which another python3 first on PATH may lack.
import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "python"),  # the source tree
                str(HERE.parent / "share" / "simmpi" / "python")]  # a build tree or a prefix
from simmpi_tool_util import ToolError, fail  # noqa: E402


def parse_args(argv):
    p = argparse.ArgumentParser(prog="simmpi-uq", description="Uncertainty quantification of "
                                "simmpi predictions: propagation, sensitivity, calibration and "
                                "comparisons (docs/uq.md).")
    sub = p.add_subparsers(dest="command", required=True)

    def study_command(name, help_text):
        c = sub.add_parser(name, help=help_text)
        c.add_argument("study", help="the study file (TOML)")
        c.add_argument("--launcher", choices=["local", "mpi", "slurm"], default="local",
                       help="where runs are made (default: the local cores)")
        c.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                       help="local runs at once (default: the number of cores)")
        c.add_argument("--slurm-option", action="append", default=[], metavar="OPT",
                       help="an sbatch option for the job array, e.g. --slurm-option=-pdebug "
                            "(repeatable)")
        return c

    study_command("run", "propagate the parameters' uncertainty to the figure")
    s = study_command("sensitivity", "Sobol indices: which parameter's uncertainty matters")
    s.add_argument("--base-samples", type=int, default=64,
                   help="N of Saltelli's design: N x (parameters + 2) runs (default 64)")
    c = study_command("compare", "design B against design A, on the same samples")
    c.add_argument("a", help="design A (a name in [designs] or a value of [sweep])")
    c.add_argument("b", help="design B")
    c.add_argument("--gain", default="0%", help="also report P(B's gain over A > GAIN), e.g. 2%%")
    k = study_command("calibrate", "infer the parameters from measurements ([calibration])")
    k.add_argument("--check-truth", metavar="KEY=VALUE", action="append", default=[],
                   help="a known true value to mark on the corner plot (synthetic data)")
    w = sub.add_parser("worker", help=argparse.SUPPRESS)
    w.add_argument("batch")
    w.add_argument("index")
    return p.parse_args(argv)


def make_launcher(args, out):
    if args.launcher == "mpi":
        from uq_launchers import MpiLauncher
        return MpiLauncher()
    if args.launcher == "slurm":
        from uq_launchers import SlurmLauncher
        return SlurmLauncher(f"{out}.slurm", args.slurm_option, __file__)
    from uq_launchers import LocalLauncher
    return LocalLauncher(args.jobs)


def main(argv):
    args = parse_args(argv)
    if args.command == "worker":
        from uq_launchers import slurm_worker
        return slurm_worker(args.batch, args.index)
    if args.launcher == "mpi":
        from uq_launchers import is_mpi_worker, mpi_worker
        if is_mpi_worker():
            return mpi_worker()
    import uq_commands
    import uq_study
    launcher = None
    try:
        study = uq_study.load(args.study)
        launcher = make_launcher(args, study.out)
        return getattr(uq_commands, args.command)(study, args, launcher)
    finally:
        if launcher:
            launcher.close()
        elif args.launcher == "mpi":
            from uq_launchers import MpiLauncher
            MpiLauncher().close()


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except ToolError as e:
        fail("simmpi-uq", e)
