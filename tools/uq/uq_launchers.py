# SPDX-License-Identifier: Apache-2.0
# Where a study's runs are made. Each launcher's map(runs, figure, cwd) yields one result per run
# (uq_journal.execute's dict) as runs end, in any order:
#   local  a pool of the machine's cores (the default)
#   mpi    the study is an MPI job (mpi4py): rank 0 hands out runs one at a time, the other ranks
#          make them; `mpiexec -n 64 simmpi-uq run study.toml --launcher mpi`
#   slurm  a Slurm job array, one task per run, each writing its result to a file that the
#          study gathers once the array has ended (sbatch --wait)
import json
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from uq_journal import execute
from uq_study import StudyError

TAG_WORK, TAG_STOP = 1, 2


class LocalLauncher:
    def __init__(self, jobs):
        self.jobs = max(1, jobs)

    def describe(self):
        return f"{self.jobs} local processes at a time"

    def map(self, runs, figure, cwd):
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futures = [pool.submit(execute, run, figure, cwd) for run in runs]
            for f in as_completed(futures):
                yield f.result()

    def close(self):
        pass


class MpiLauncher:
    """Rank 0's side; the other ranks run mpi_worker()."""

    def __init__(self):
        from mpi4py import MPI
        self.mpi, self.comm = MPI, MPI.COMM_WORLD
        self.workers = self.comm.Get_size() - 1
        started = max(int(os.environ.get(v, "1") or 1) for v in
                      ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS"))
        if not self.workers and started > 1:
            raise StudyError(f"mpiexec started {started} processes but mpi4py sees one: it is "
                             f"built against another MPI ({MPI.Get_library_version()[:20]}...) "
                             f"than this mpiexec; use that MPI's (Debian: mpiexec.openmpi)")

    def describe(self):
        return (f"{self.workers} MPI worker ranks" if self.workers
                else "rank 0 alone (an MPI job of one process)")

    def map(self, runs, figure, cwd):
        if not self.workers:
            for run in runs:
                yield execute(run, figure, cwd)
            return
        queue = list(reversed(runs))
        busy = 0
        for rank in range(1, self.workers + 1):
            if queue:
                self.comm.send((queue.pop(), figure, cwd), dest=rank, tag=TAG_WORK)
                busy += 1
        status = self.mpi.Status()
        while busy:
            result = self.comm.recv(source=self.mpi.ANY_SOURCE, tag=TAG_WORK, status=status)
            busy -= 1
            if queue:
                self.comm.send((queue.pop(), figure, cwd), dest=status.Get_source(), tag=TAG_WORK)
                busy += 1
            yield result

    def close(self):
        for rank in range(1, self.workers + 1):
            self.comm.send(None, dest=rank, tag=TAG_STOP)


def mpi_worker():
    """A worker rank: makes the runs rank 0 sends until it says stop."""
    from mpi4py import MPI
    comm, status = MPI.COMM_WORLD, MPI.Status()
    while True:
        task = comm.recv(source=0, tag=MPI.ANY_TAG, status=status)
        if status.Get_tag() == TAG_STOP:
            return 0
        run, figure, cwd = task
        comm.send(execute(run, figure, cwd), dest=0, tag=TAG_WORK)


def is_mpi_worker():
    from mpi4py import MPI
    return MPI.COMM_WORLD.Get_rank() != 0


class SlurmLauncher:
    """script: simmpi-uq's own path, which each array task runs as `script worker BATCH INDEX`."""

    def __init__(self, directory, options, script):
        self.directory, self.options, self.batches = Path(directory), options, 0
        self.script = Path(script).resolve()
        if not self.directory.parent.exists():
            raise StudyError(f"{self.directory.parent}: no such directory")

    def describe(self):
        extra = f" ({' '.join(self.options)})" if self.options else ""
        return f"a Slurm job array{extra}"

    def map(self, runs, figure, cwd):
        if not runs:
            return
        batch = self.directory / f"batch{os.getpid()}-{self.batches}"
        self.batches += 1
        batch.mkdir(parents=True, exist_ok=True)
        (batch / "tasks.json").write_text(json.dumps({"runs": runs, "figure": figure,
                                                      "cwd": str(cwd)}))
        script = batch / "task.sh"
        worker = [sys.executable, str(self.script)]
        script.write_text("#!/bin/sh\nexec " + " ".join(shlex.quote(a) for a in worker) +
                          f" worker {shlex.quote(str(batch))} \"$SLURM_ARRAY_TASK_ID\"\n")
        cmd = ["sbatch", "--parsable", "--wait", f"--array=0-{len(runs) - 1}",
               f"--output={batch}/%a.out", f"--chdir={cwd}", "--job-name=simmpi-uq",
               *self.options, str(script)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0 and not any((batch / f"{i}.json").exists() for i in range(len(runs))):
            raise StudyError(f"{' '.join(cmd)}: status {r.returncode}: "
                             f"{(r.stderr or r.stdout).strip()[-500:]}")
        for i, run in enumerate(runs):
            yield _slurm_result(batch, i, run)

    def close(self):
        pass


def _slurm_result(batch, i, run):
    try:
        return json.loads((batch / f"{i}.json").read_text())
    except (OSError, ValueError):
        log = batch / f"{i}.out"
        tail = log.read_text().strip().splitlines()[-1:] if log.exists() else ["no log"]
        return {"run": run["run"], "status": "failed",
                "error": f"Slurm task {i} wrote no result ({log}: {tail[0] if tail else ''})"}


def slurm_worker(batch, index):
    """One array task: makes run `index` of the batch, writes its result file."""
    batch = Path(batch)
    tasks = json.loads((batch / "tasks.json").read_text())
    run = tasks["runs"][int(index)]
    run["compute"] = tuple(run["compute"]) if run.get("compute") else None
    result = execute(run, tuple(tasks["figure"]), tasks["cwd"])
    tmp = batch / f"{index}.json.tmp"
    tmp.write_text(json.dumps(result))
    os.replace(tmp, batch / f"{index}.json")
    return 0
