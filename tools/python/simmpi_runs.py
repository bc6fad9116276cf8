# SPDX-License-Identifier: Apache-2.0
# One simulated run as the study tools (simmpi-sweep, simmpi-uq) make it: platform values and
# command options put before the program's own arguments, the program's own compute recorded in
# one run and replayed in the others (runtime.host_time_record/replay), and the figures the
# simulator and simmpi-hpl print read back from its output.
import re
import subprocess


def command_for(base, point):
    """base with point's values: ("set", key, value) as --set key=value, ("option", --name,
    value) as --name value; put right after the program, since its own arguments may follow."""
    extra = []
    for kind, name, value in point:
        extra += ["--set", f"{name}={value}"] if kind == "set" else [name, value]
    return [base[0]] + extra + base[1:]


def with_compute(cmd, compute):
    """compute: ("record" or "replay", compute profile path) for the program's own code, or
    None to leave it as the program's configuration says."""
    if not compute:
        return cmd
    return cmd[:1] + ["--set", f"runtime.host_time_{compute[0]}={compute[1]}"] + cmd[1:]


def figures(stdout, stderr):
    """time_s, wall_s, peak_mib, and gflops when the program is simmpi-hpl, as far as printed."""
    out = {}
    m = re.search(r"simmpi-hpl: result .*time_s=(\S+) gflops=(\S+) .*wall_s=(\S+) "
                  r"peak_mib=(\S+)", stdout)
    if m:
        out.update(time_s=float(m.group(1)), gflops=float(m.group(2)),
                   wall_s=float(m.group(3)), peak_mib=float(m.group(4)))
        return out
    m = re.search(r"simmpi: \d+ ranks, simulated time (\S+) s", stderr)
    if m:
        out["time_s"] = float(m.group(1))
    m = re.search(r"simmpi: wall time (\S+) s, peak memory (\S+) MiB", stderr)
    if m:
        out.update(wall_s=float(m.group(1)), peak_mib=float(m.group(2)))
    return out


def last_error_line(stderr):
    """The line of a failed run's stderr that says why: its last non-empty one."""
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"


def run(cmd, compute=None, cwd=None):
    """Runs cmd (with the compute profile, if any); subprocess.CompletedProcess with text."""
    return subprocess.run(with_compute(cmd, compute), capture_output=True, text=True, cwd=cwd)
