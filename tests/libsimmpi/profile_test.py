#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The run's profile (report.profile) against programs whose figures are known by construction.

    profile_test.py PROFILE_CASES_SIM CASE

Runs profile_cases.sim on a one-switch platform whose costs are set here (the same as
tests/libsimmpi timing_closed_form), reads the JSON file, and checks it to the picosecond:
every figure is simulated time, so there is nothing to round. CASE is one of pingpong, ring,
imbalance, comms, rerun (byte-identical file and summary), bad_path (an unwritable file stops
the run before it starts).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from decimal import Decimal

O_S, O_R, LAT = 300_000, 200_000, 600_000  # ps: send and receive overheads, NIC + one hop
BW = 12.5e9  # bytes/s
PLATFORM = [
    "--set", "mpi.send_overhead=300ns", "--set", "mpi.recv_overhead=200ns",
    "--set", "network.nic_latency=500ns", "--set", "network.hop_latency=100ns",
    "--set", "network.link_bw=100Gbps", "--set", "mpi.eager_threshold=64KiB",
    "--set", "runtime.host_time=ignore",
]


def wire(nbytes):
    return round(nbytes / BW * 1e12)


ONE_WAY = O_S + LAT + wire(8) + O_R  # an eager 8-byte message to a waiting receiver


def ps(x):
    """A JSON time (exact decimal seconds) in picoseconds."""
    return int(Decimal(str(x)) * 10**12)


failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def equal(got, want, what):
    check(got == want, f"{what}: {got}, expected {want}")


def run(sim, ranks, args, out, extra=()):
    cmd = [sim, "-n", str(ranks), *PLATFORM, "--profile", "--set",
           f"report.profile_file={out}", *extra, "--", *args]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p


def profile_of(sim, ranks, args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "p.json")
        p = run(sim, ranks, args, out)
        if p.returncode != 0:
            sys.exit(f"{' '.join(p.args)} exited {p.returncode}:\n{p.stderr}")
        with open(out) as f:
            return json.load(f), p.stderr


def function(prof, name):
    for f in prof["functions"]:
        if f["name"] == name:
            return f
    failures.append(f"no {name} in the profile's functions")
    return {k: 0 for k in ("calls", "bytes", "time", "min", "max", "ranks", "blocked")}


def check_partition(prof):
    """Each rank's own code and MPI calls fill its whole life: own + mpi = end."""
    for r in prof["per_rank"]:
        equal(ps(r["own_code"]) + ps(r["mpi"]), ps(r["end"]), f"rank {r['rank']} own + mpi")
        check(0 <= ps(r["blocked"]) <= ps(r["mpi"]), f"rank {r['rank']} blocked within MPI")


def case_pingpong(sim):
    n, ranks = 10, 3
    prof, err = profile_of(sim, ranks, ["pingpong", str(n)])
    check_partition(prof)
    rt = 2 * ONE_WAY
    send, recv = function(prof, "MPI_Send"), function(prof, "MPI_Recv")
    # Rank 0 and rank 1 each send n times; an eager send costs its overhead and nothing else.
    equal(send["calls"], 2 * n, "MPI_Send calls")
    equal(send["bytes"], 2 * n * 8, "MPI_Send bytes")
    equal(send["ranks"], 2, "ranks calling MPI_Send")
    equal(ps(send["time"]), 2 * n * O_S, "MPI_Send time")
    equal(ps(send["blocked"]), 0, "MPI_Send blocked")
    # Rank 0 waits a round trip less its send each time; rank 1's first receive waits one way
    # from time zero, its others a round trip less its send.
    r0, r1 = n * (rt - O_S), ONE_WAY + (n - 1) * (rt - O_S)
    equal(ps(recv["time"]), r0 + r1, "MPI_Recv time")
    equal((ps(recv["max"]), recv["max_rank"]), (r0, 0), "MPI_Recv max over ranks")
    equal((ps(recv["min"]), recv["min_rank"]), (r1, 1), "MPI_Recv min over ranks")
    # Blocked: until the message is in, less the receive overhead paid once it is.
    equal(ps(recv["blocked"]), r0 + r1 - 2 * n * O_R, "MPI_Recv blocked")
    for r in prof["per_rank"]:
        equal(ps(r["own_code"]), 0, f"rank {r['rank']} own code (no computation)")
    check("simmpi: profile: 3 ranks" in err, "the summary on stderr:\n" + err)
    check(re.search(r"simmpi:   MPI_Recv +20 +160 ", err), "MPI_Recv's line:\n" + err)


def case_ring(sim):
    n, ranks = 5, 4
    prof, _ = profile_of(sim, ranks, ["ring", str(n)])
    check_partition(prof)
    f = function(prof, "MPI_Sendrecv")
    equal(f["calls"], ranks * n, "MPI_Sendrecv calls")
    equal(f["bytes"], ranks * n * 16, "MPI_Sendrecv bytes (8 sent and 8 received)")
    # Every rank's message leaves with its own and arrives one way later: no one waits longer.
    equal(ps(f["time"]), ranks * n * ONE_WAY, "MPI_Sendrecv time")
    equal((ps(f["min"]), ps(f["max"])), (n * ONE_WAY, n * ONE_WAY), "MPI_Sendrecv spread")
    world = [c for c in prof["communicators"] if c["name"] == "MPI_COMM_WORLD"]
    check(world and world[0]["size"] == ranks, "MPI_COMM_WORLD among the communicators")


def case_imbalance(sim):
    ranks = 4
    prof, err = profile_of(sim, ranks, ["imbalance"])
    check_partition(prof)
    ms = 10**9
    for r in prof["per_rank"]:
        equal(ps(r["own_code"]), (r["rank"] + 1) * ms, f"rank {r['rank']} own code")
    b = function(prof, "MPI_Barrier")
    # The last rank in waits least: everyone leaves the barrier together or close to it, so
    # rank 0 waits at least the 3 ms it is early and more than any other rank.
    equal(b["max_rank"], 0, "the rank longest in MPI_Barrier")
    equal(b["min_rank"], ranks - 1, "the rank shortest in MPI_Barrier")
    # Rank 0 enters at 1 ms and cannot leave before rank 3 enters at 4 ms; rank 3 leaves after
    # the barrier's messages, microseconds.
    check(ps(b["max"]) >= 3 * ms, f"rank 0 in MPI_Barrier {b['max']} s, at least 3 ms")
    check(ps(b["min"]) < 10**7, f"rank 3 in MPI_Barrier {b['min']} s, under 10 us")
    # Load balance: mean / max of own code = 2.5 ms / 4 ms.
    check("load balance 0.625 (mean / max)" in err, "load balance in the summary:\n" + err)
    check(re.search(r"max 0\.004000000 s \(rank 3\)", err), "the slowest rank named:\n" + err)


def case_comms(sim):
    ranks = 4
    prof, err = profile_of(sim, ranks, ["comms"])
    check_partition(prof)
    halves = [c for c in prof["communicators"] if c["name"] == "halves"]
    # Each half's members call MPI_Comm_set_name, MPI_Allreduce and MPI_Comm_free on it: two
    # communicators with the same name (two contexts), 2 members each.
    equal(len(halves), 2, "communicators named halves")
    equal(sorted(c["first_rank"] for c in halves), [0, 1], "the halves' rank 0 (world ranks)")
    for c in halves:
        equal((c["size"], c["calls"], c["bytes"]), (2, 6, 16),
              "a half's size, calls (3 per member) and bytes (the allreduce's 8 per member)")
    a = function(prof, "MPI_Allreduce")
    equal((a["calls"], a["bytes"]), (ranks, ranks * 8), "MPI_Allreduce calls and bytes")


def case_rerun(sim):
    with tempfile.TemporaryDirectory() as d:
        outs = []
        for i in range(2):
            out = os.path.join(d, f"p{i}.json")
            p = run(sim, 6, ["ring", "3"], out)
            summary = [l for l in p.stderr.splitlines()
                       if l.startswith("simmpi:   ") or "profile:" in l]
            with open(out, "rb") as f:
                outs.append((f.read(), [l.replace(f"p{i}.json", "") for l in summary]))
        check(outs[0] == outs[1], "a rerun gives another profile")


def case_bad_path(sim):
    p = run(sim, 2, ["ring", "1"], "/nonexistent/dir/p.json")
    equal(p.returncode, 2, "exit status with an unwritable profile file")
    check(re.search(r"report\.profile_file = \"/nonexistent/dir/p\.json\" \(--set\): cannot "
                    r"write it \(No such file or directory\)", p.stderr),
          "the message names the key and the path:\n" + p.stderr)
    check("simulated time" not in p.stderr, "the run started anyway:\n" + p.stderr)


def critical_path_of(sim, ranks, args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "c.json")
        cmd = [sim, "-n", str(ranks), *PLATFORM, "--critical-path", "--set",
               f"report.critical_path_file={out}", "--", *args]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            sys.exit(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr}")
        with open(out) as f:
            return json.load(f), p.stderr


def case_critical_chain(sim):
    """Rank r receives from r - 1, computes (r + 1) ms, sends to r + 1: the path is every rank's
    compute, each send's and receive's overhead and each message's flight, nothing waited."""
    ranks, ms = 4, 10**9
    cp, err = critical_path_of(sim, ranks, ["chain"])
    hops = ranks - 1
    equal(ps(cp["length"]), ranks * (ranks + 1) // 2 * ms + hops * ONE_WAY, "length")
    equal(ps(cp["compute"]), ranks * (ranks + 1) // 2 * ms, "compute")
    equal(ps(cp["overhead"]), hops * (O_S + O_R), "overheads")
    equal(ps(cp["network"]), hops * (ONE_WAY - O_S - O_R), "network")
    equal(ps(cp["waiting"]), 0, "waiting")
    # Each flight explained by the machine model: NIC + hop latency and 8 bytes at 100 Gb/s,
    # nothing shared with another flow.
    equal(ps(cp["network_latency"]), hops * LAT, "network latency")
    equal(ps(cp["network_transfer"]), hops * wire(8), "network transfer")
    equal(ps(cp["network_contention"]), 0, "network contention")
    for s in cp["stretches"]:
        if s["kind"] == "network":
            equal((ps(s["latency"]), ps(s["transfer"]), ps(s["contention"])),
                  (LAT, wire(8), 0), f"the parts of {s}")
    kinds = [(s["kind"], s["rank"], s["from_rank"], s["call"]) for s in cp["stretches"]]
    want = []
    for r in range(ranks):
        if r > 0:
            want += [("network", r, r - 1, "MPI_Recv"), ("overhead", r, r, "MPI_Recv")]
        want.append(("compute", r, r, ""))
        if r + 1 < ranks:
            want.append(("overhead", r, r, "MPI_Send"))
    equal(kinds, want, "the stretches in order")
    t = 0
    for s in cp["stretches"]:
        equal(ps(s["begin"]), t, f"a stretch begins where the one before ended: {s}")
        t = ps(s["end"])
    check("simmpi: critical path: 0.010003301920 s in 13 stretches: compute 100.0%" in err,
          "the summary:\n" + err)
    check("simmpi:   network: latency 0.0%, transfer at full bandwidth 0.0%, contention and "
          "protocol 0.0%" in err, "the network's parts in the summary:\n" + err)


def case_critical_imbalance(sim):
    """The last rank into the barrier decides its end: its 4 ms of compute lead the path."""
    cp, _ = critical_path_of(sim, 4, ["imbalance"])
    first = cp["stretches"][0]
    equal((first["kind"], first["rank"], ps(first["end"])), ("compute", 3, 4 * 10**9),
          "the path starts with rank 3's compute")
    equal(ps(cp["waiting"]), 0, "nothing waited on the path (the barrier's messages explain it)")
    prof, _ = profile_of(sim, 4, ["imbalance"])
    equal(ps(cp["length"]), max(ps(r["end"]) for r in prof["per_rank"]),
          "the path is as long as the run")


def stretches(cp):
    return [(s["kind"], s["rank"], s["thread"], s["from_rank"], s["from_thread"], s["call"],
             ps(s["end"]) - ps(s["begin"])) for s in cp["stretches"]]


def case_critical_threads(sim):
    """The path runs through the program threads: rank 1's main fiber ends 1 ms after joining its
    thread, which computed 3 ms after receiving from rank 0's thread, which computed 2 ms after
    its creator started it."""
    ms = 10**9
    cp, err = critical_path_of(sim, 2, ["threads"])
    got = [s for s in stretches(cp) if s[6] > 0]
    equal(got, [("compute", 0, 1, 0, 1, "", 2 * ms),
                ("overhead", 0, 1, 0, 1, "MPI_Send", O_S),
                ("network", 1, 1, 0, 1, "MPI_Recv", ONE_WAY - O_S - O_R),
                ("overhead", 1, 1, 1, 1, "MPI_Recv", O_R),
                ("compute", 1, 1, 1, 1, "", 3 * ms),
                ("compute", 1, 0, 1, 0, "", 1 * ms)], "the stretches")
    equal(ps(cp["length"]), 6 * ms + ONE_WAY, "length")
    equal(ps(cp["waiting"]), 0, "waiting")
    check("rank 0 thread 1 -> rank 1 thread 1, 8 bytes, into MPI_Recv" in err,
          "the threads named in the summary:\n" + err)


def case_critical_poll(sim):
    """Rank 1 polls in simmpi_poll_rounds until rank 0's message arrives, computes, receives: the
    path follows the message whose arrival ended the polling, nothing is left waiting."""
    ms = 10**9
    cp, _ = critical_path_of(sim, 2, ["poll"])
    equal(ps(cp["waiting"]), 0, "waiting")
    net = [s for s in cp["stretches"] if s["kind"] == "network"]
    equal([(s["rank"], s["from_rank"], s["call"], ps(s["begin"]), ps(s["end"])) for s in net],
          [(1, 0, "simmpi_poll_rounds", 2 * ms + O_S, 2 * ms + O_S + LAT)],
          "the message that ended the polling (until its envelope arrived, which a probe sees)")
    first = cp["stretches"][0]
    equal((first["kind"], first["rank"], ps(first["end"])), ("compute", 0, 2 * ms),
          "the path starts with rank 0's compute")
    prof, _ = profile_of(sim, 2, ["poll"])
    equal(ps(cp["length"]), max(ps(r["end"]) for r in prof["per_rank"]),
          "the path is as long as the run")


def run_on_terminal(cmd):
    """Runs `cmd` with stdout and stderr on a pseudo-terminal; returns what it wrote."""
    import pty
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(cmd[0], cmd)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode(errors="replace")


def case_progress(sim):
    # Enough events for the progress hook (every 65,536 events) to fire, shown from the start.
    cmd = [sim, "-n", "64", *PLATFORM, "--set", "report.progress_after=0s", "--", "ring", "2000"]
    status, out = run_on_terminal(cmd)
    equal(status, 0, "exit status on a terminal")
    check(re.search(r"\rsimmpi: simulated \d+\.\d{12} s, \d+\.\d\d M events/s, \d+ of 64 "
                    r"ranks done\x1b\[K", out), "a progress line on the terminal:\n" + repr(out))
    # Erased before the summary, which starts on a clean line.
    check(re.search(r"\r\x1b\[Ksimmpi: 64 ranks, simulated time", out),
          "the line erased before the summary:\n" + repr(out[-400:]))
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    check("\r" not in p.stderr and "events/s" not in p.stderr,
          "a progress line in redirected output:\n" + repr(p.stderr))


CASES = {"pingpong": case_pingpong, "ring": case_ring, "imbalance": case_imbalance,
         "comms": case_comms, "rerun": case_rerun, "bad_path": case_bad_path,
         "progress": case_progress, "critical_chain": case_critical_chain,
         "critical_imbalance": case_critical_imbalance, "critical_threads": case_critical_threads,
         "critical_poll": case_critical_poll}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        sys.exit(__doc__)
    CASES[sys.argv[2]](sys.argv[1])
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print(f"profile {sys.argv[2]}: OK")
