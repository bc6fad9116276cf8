#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The run's timeline (report.timeline = chrome) against programs whose events are known.

    timeline_test.py PROFILE_CASES_SIM CASE

Runs profile_cases.sim (tests/libsimmpi/programs/profile_cases.c) on the platform of
profile_test.py and reads the Chrome trace-event file: it must be JSON that chrome://tracing and
ui.perfetto.dev take (traceEvents with X slices, M names, s/f flows), with the slices' times to
the picosecond (microseconds with up to six decimals). CASE is one of pingpong, arrows, imbalance, placement,
ranks, window, min_own_code, rerun, bad_scope, gzip, limit; otf2, otf2_min_own_code and
otf2_exists write an OTF2 archive instead
(report.timeline = otf2) and read it back with otf2-print (Debian's otf2-tools).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from decimal import Decimal

# The platform, its closed forms and the failure list are profile_test.py's (same programs).
from profile_test import LAT, O_R, O_S, ONE_WAY, PLATFORM, check, equal, failures  # noqa: E402


def ps(us):
    """A trace time (microseconds, up to six decimals as written) in picoseconds."""
    return int(Decimal(us) * 10**6)


def run(sim, ranks, args, out, extra=()):
    cmd = [sim, "-n", str(ranks), *PLATFORM, "--timeline", "--set",
           f"report.timeline_file={out}", *extra, "--", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def timeline_of(sim, ranks, args, extra=()):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "t.json")
        p = run(sim, ranks, args, out, extra)
        if p.returncode != 0:
            sys.exit(f"{' '.join(p.args)} exited {p.returncode}:\n{p.stderr}")
        with open(out) as f:
            text = f.read()
        # Times as written, not as floats: parse_float keeps them exact.
        return json.loads(text, parse_float=Decimal)["traceEvents"], p.stderr, text


def slices(events, name=None, tid=None):
    return [e for e in events if e["ph"] == "X" and (name is None or e["name"] == name)
            and (tid is None or e["tid"] == tid)]


def enclosing(events, e):
    """The slice of e's lane that contains e's time."""
    t = ps(e["ts"])
    for s in slices(events, tid=e["tid"]):
        if s["pid"] == e["pid"] and ps(s["ts"]) <= t <= ps(s["ts"]) + ps(s["dur"]):
            return s
    return None


def arrows(events):
    """The message arrows as both viewers import them: flow events ("s", then "f" with "bp":"e")
    in time order (Perfetto's nanoseconds, ties in file order), each end bound to the slice of
    its lane enclosing it; an end met before its start, or a start whose id is open, is lost.
    Returns {id: (start event, its slice, end event, its slice)} and the lost ends."""
    order = sorted(((ps(e["ts"]) + 500) // 1000, i) for i, e in enumerate(events)
                   if e["ph"] in ("s", "f"))
    started, done, lost = {}, {}, []
    for _, i in order:
        e = events[i]
        key = (e.get("cat"), e["name"], e["id"])  # catapult's key; Perfetto's is the same
        if e["ph"] == "s":
            if key in started or key in done:
                lost.append(e)
            started[key] = (e, enclosing(events, e))
        elif key not in started or e.get("bp") != "e":
            lost.append(e)
        else:
            s, a = started.pop(key)
            done[key] = (s, a, e, enclosing(events, e))
    lost += [s for s, _ in started.values()]
    return {i: v for (_, _, i), v in done.items()}, lost


def check_arrows(events, what):
    """Every arrow of `events` survives the import, from a send to a receive of another lane,
    ids unique; returns the arrows."""
    found, lost = arrows(events)
    equal(lost, [], f"{what}: flow events the viewers drop")
    # The category lets chrome://tracing's "Flow events" list show the two kinds apart.
    equal({(e["name"], e.get("cat")) for e in events if e["ph"] in ("s", "f")} -
          {("message", "message"), ("collective message", "collective")}, set(),
          f"{what}: flow events of another name or category")
    check(len(found) == len({(s["name"], s["id"]) for s in events if s["ph"] == "s"}),
          f"{what}: one arrow per message")
    for i, (s, a, f, b) in found.items():
        check(a and b and a is not b and (a["pid"], a["tid"]) != (b["pid"], b["tid"]),
              f"{what}: message {i} from a slice of one lane to one of another: {s} {f}")
        check(ps(s["ts"]) < ps(f["ts"]), f"{what}: message {i}'s end after its start: {s} {f}")
    return found


def case_pingpong(sim):
    n = 3
    ev, err, _ = timeline_of(sim, 2, ["pingpong", str(n)])
    names = {(e["pid"], e.get("tid")): e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] in ("thread_name", "process_name")}
    equal(names.get((0, 0)), "rank 0", "rank 0's row")
    equal(names.get((1, None)), "node 1", "the second node")
    for rank in (0, 1):
        equal(len(slices(ev, "MPI_Send", rank)), n, f"rank {rank}'s MPI_Send slices")
        equal(len(slices(ev, "MPI_Recv", rank)), n, f"rank {rank}'s MPI_Recv slices")
    # Rank 1's first receive: from time zero until the message is in, one way later.
    first = min(slices(ev, "MPI_Recv", 1), key=lambda s: ps(s["ts"]))
    equal((ps(first["ts"]), ps(first["dur"])), (0, ONE_WAY), "rank 1's first MPI_Recv")
    equal((first["args"]["bytes"], first["args"]["peer"], first["args"]["tag"],
           first["args"]["comm"]), (8, 0, 7, "MPI_COMM_WORLD"), "its arguments")
    equal(ps(first["args"]["blocked_us"]), ONE_WAY - O_R, "its blocked time")
    found = check_arrows(ev, "ping-pong")
    messages = {i: v for i, v in found.items() if v[0]["name"] == "message"}
    equal(len(messages), 2 * n, "messages sent")
    for i, (s, a, f, b) in messages.items():
        equal((a and a["name"], b and b["name"]), ("MPI_Send", "MPI_Recv"),
              f"message {i}'s arrow from its send to its receive")
    check(re.search(r"simmpi: timeline: .*t\.json, \d+ events", err), "the summary line:\n" + err)
    equal([e for e in ev if e["ph"] == "C"], [], "no link tracks without network.stats")


def case_links(sim):
    """With network.stats on, the busiest links' utilization over time are counter tracks of a
    process after the nodes; every link the ping-pong used carried something, nothing over 1."""
    with tempfile.TemporaryDirectory() as d:
        ev, _, _ = timeline_of(sim, 2, ["pingpong", "3"],
                               ["--set", "network.stats=true", "--set",
                                f"network.stats_prefix={d}/"])
    names = {e["pid"]: e["args"]["name"] for e in ev
             if e["ph"] == "M" and e["name"] == "process_name"}
    equal(names.get(2), "network (busiest links)", "the links' process after nodes 0 and 1")
    counters = [e for e in ev if e["ph"] == "C"]
    check(counters and all(e["pid"] == 2 and e["name"].startswith("link ") for e in counters),
          f"counter events of the links' process: {counters[:3]}")
    tracks = {}
    for e in counters:
        tracks.setdefault(e["name"], []).append(e["args"]["utilization"])
    check(len(tracks) >= 2, f"a track per busy link: {sorted(tracks)}")
    for name, values in tracks.items():
        check(0 < max(values) <= 1, f"{name}: utilization within (0, 1]: {max(values)}")


def case_arrows(sim):
    """Every program's arrows survive both viewers' import: blocking and combined calls,
    persistent requests, a collective's own messages, a chain, program threads, a message found
    by polling."""
    for ranks, args in [(2, ["pingpong", "4"]), (6, ["ring", "3"]), (4, ["persistent", "3"]),
                        (4, ["imbalance"]),
                        (4, ["comms"]), (4, ["chain"]), (2, ["threads"]), (2, ["poll"])]:
        ev, _, _ = timeline_of(sim, ranks, args)
        check(arrows(ev)[0], f"{args[0]}: arrows")
        check_arrows(ev, args[0])
        if args[0] == "comms":  # calls on a named communicator between calls on the world's
            for name, comm in [("MPI_Comm_split", "MPI_COMM_WORLD"), ("MPI_Allreduce", "halves"),
                               ("MPI_Comm_free", "halves")]:
                equal({s["args"].get("comm") for s in slices(ev, name)}, {comm},
                      f"the communicator of {name}")


def case_imbalance(sim):
    ev, _, _ = timeline_of(sim, 4, ["imbalance"])
    for rank in range(4):
        own = [s for s in slices(ev, "own code", rank) if ps(s["dur"]) >= 10**9]
        equal([(ps(s["ts"]), ps(s["dur"])) for s in own], [(0, (rank + 1) * 10**9)],
              f"rank {rank}'s own code ((rank + 1) ms from zero)")
        b = slices(ev, "MPI_Barrier", rank)
        equal(len(b), 1, f"rank {rank}'s barrier")
        if b:
            equal(ps(b[0]["ts"]), (rank + 1) * 10**9, f"rank {rank} enters the barrier")


def case_placement(sim):
    ev, _, _ = timeline_of(sim, 4, ["ring", "1"], ["--set", "node.ranks_per_node=2"])
    pids = {e["tid"]: e["pid"] for e in slices(ev)}
    equal(pids, {0: 0, 1: 0, 2: 1, 3: 1}, "ranks on their nodes (two per node)")


def case_ranks(sim):
    ev, _, _ = timeline_of(sim, 4, ["ring", "2"], ["--set", "report.timeline_ranks=1-2"])
    equal(sorted({e["tid"] for e in slices(ev)}), [1, 2], "only ranks 1 and 2")
    # Rank 1 sends to 2 (shown both ends), receives from 0 (not shown): one arrow per round.
    equal(len([e for e in ev if e["ph"] == "s"]), 2, "arrows between shown ranks only")
    equal(len([e for e in ev if e["ph"] == "f"]), 2, "arrows between shown ranks only")
    check_arrows(ev, "ring of ranks 1-2")


def case_window(sim):
    ev, _, _ = timeline_of(sim, 4, ["imbalance"],
                           ["--set", "report.timeline_window=1.5ms..2.5ms"])
    for s in slices(ev):
        check(ps(s["ts"]) + ps(s["dur"]) >= 1500 * 10**6 and ps(s["ts"]) <= 2500 * 10**6,
              f"a slice outside the window: {s}")
    # Own code is cut to the window: ranks 1-3 compute through 1.5 ms; rank 1 stops at 2 ms.
    own1 = slices(ev, "own code", 1)
    equal([(ps(s["ts"]), ps(s["dur"])) for s in own1], [(1500 * 10**6, 500 * 10**6)],
          "rank 1's own code within the window")
    equal(len(slices(ev, "MPI_Barrier")), 2, "the barriers entered within it (ranks 1 and 2)")


# The "gaps" program's own code on rank 0 (begin, length in ps): 3 us from zero, 1 us after two
# eager sends (O_S each), 0.5 us after a third; rank 1 receives back to back.
GAPS = [(0, 3 * 10**6), (3 * 10**6 + 2 * O_S, 10**6), (4 * 10**6 + 3 * O_S, 5 * 10**5)]
WINDOW_FROM = 25 * 10**5  # 2.5 us: cuts the first to 0.5 us


def own_code(sim, extra):
    """The own-code slices of the gaps program (begin, length) by rank; and the lanes' gaps:
    between the end of one call (or zero) and the next call's begin, those that are not 0."""
    ev, _, _ = timeline_of(sim, 2, ["gaps"], extra)
    own, gaps = {}, {}
    for rank in (0, 1):
        own[rank] = sorted((ps(s["ts"]), ps(s["dur"])) for s in slices(ev, "own code", rank))
        calls = sorted((ps(s["ts"]), ps(s["ts"]) + ps(s["dur"])) for s in slices(ev, tid=rank)
                       if s["name"] != "own code")
        ends = [0] + [e for _, e in calls]
        gaps[rank] = [(a, b - a) for a, (b, _) in zip(ends, calls) if b > a]
    return own, gaps


def case_min_own_code(sim):
    """report.timeline_min_own_code (1 us): shorter own code is not a slice, longer keeps its
    exact times; calls back to back have none; 0 draws every gap; the length that counts is
    the one left in report.timeline_window."""
    own, gaps = own_code(sim, [])
    equal(own[0], GAPS[:2], "rank 0's own code of 1 us and more, by default")
    equal(own[1], [], "rank 1 (receives back to back): no own code")
    equal(gaps[0], GAPS, "rank 0's gaps between calls (the program's own code)")
    own, gaps = own_code(sim, ["--set", "report.timeline_min_own_code=0s"])
    equal(own[0], GAPS, "rank 0's own code, every gap, with the key at 0")
    equal(own, gaps, "with the key at 0, every gap between calls is an own-code slice")
    window = ["--set", f"report.timeline_window={WINDOW_FROM / 10**6}us.."]
    own, _ = own_code(sim, window)
    equal(own[0], [GAPS[1]], "in the window from 2.5 us: the first cut to 0.5 us, not drawn")
    own, _ = own_code(sim, window + ["--set", "report.timeline_min_own_code=0s"])
    equal(own[0], [(WINDOW_FROM, GAPS[0][1] - WINDOW_FROM)] + GAPS[1:],
          "in the window from 2.5 us with the key at 0: the first cut to the window")
    own, _ = own_code(sim, ["--set", "report.timeline_min_own_code=0.7us"])
    equal(own[0], GAPS[:2], "with the key at 0.7 us: own code of 1 us and more")


def case_rerun(sim):
    texts = [timeline_of(sim, 6, ["ring", "3"])[2] for _ in range(2)]
    check(texts[0] == texts[1], "a rerun gives another timeline")
    # Written on the simulation's thread, the file is the same as the one the writer's own
    # thread writes (report.timeline_thread), over many of its blocks of facts (~1 MiB).
    apart, inline = [timeline_of(sim, 6, ["ring", "600"],
                                 ["--set", f"report.timeline_thread={t}"])[2]
                     for t in ("true", "false")]
    check(len(apart) > 1_000_000 and apart == inline,
          f"the writer's own thread gives another timeline ({len(apart)} and {len(inline)} "
          "bytes)")


def case_bad_scope(sim):
    for key, value, want in [
            ("report.timeline_ranks", "0-9", r"report\.timeline_ranks = \"0-9\": rank 9, but the "
                                            r"run has 4 ranks"),
            ("report.timeline_ranks", "2,x", r"report\.timeline_ranks = \"2,x\": expected"),
            ("report.timeline_window", "3ms", r"report\.timeline_window = \"3ms\": expected "
                                              r"FROM\.\.TO"),
            ("report.timeline_window", "2ms..1ms", r"the window is empty \(it ends before it "
                                                   r"begins\)"),
            ("report.timeline_window", "1ms..1ms", r"the window is empty \(it ends where it "
                                                   r"begins\)"),
            ("report.timeline_window", "1xs..", r"\"1xs\" is not a time"),
            ("report.timeline_min_own_code", "-1us", r"report\.timeline_min_own_code = "
                                                     r"\"-1us\": must be a finite, non-negative"),
            ("report.timeline_min_own_code", "1 parsec", r"report\.timeline_min_own_code = "
                                                         r"\"1 parsec\": unknown unit")]:
        with tempfile.TemporaryDirectory() as d:
            p = run(sim, 4, ["ring", "1"], os.path.join(d, "t.json"), ["--set", f"{key}={value}"])
            check(p.returncode != 0 and re.search(want, p.stderr),
                  f"{key}={value}: exit {p.returncode}, stderr:\n{p.stderr}")


def case_gzip(sim):
    """The default file is gzip-compressed and holds what the plain file holds."""
    import gzip
    plain = timeline_of(sim, 4, ["ring", "3"])[2]
    with tempfile.TemporaryDirectory() as d:
        cmd = [sim, "-n", "4", *PLATFORM, "--timeline", "--", "ring", "3"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=d)
        equal(p.returncode, 0, "exit status:\n" + p.stderr)
        with gzip.open(os.path.join(d, "simmpi_timeline.json.gz"), "rt") as f:
            equal(f.read() == plain, True, "the compressed file's text is the plain file's")


def case_limit(sim):
    """Past report.timeline_max_events nothing more is recorded; the file stays whole."""
    ev, err, _ = timeline_of(sim, 4, ["ring", "50"], ["--set", "report.timeline_max_events=40"])
    check(40 <= len(ev) < 60, f"{len(ev)} events, about the limit of 40")
    check(re.search(r"warning: the timeline reached report\.timeline_max_events = 40 at "
                    r"simulated time", err), "the warning:\n" + err)
    check("simulated time" in err and "ranks" in err, "the run went on:\n" + err)


def otf2_events(sim, ranks, args, extra=(), definitions=None):
    """The events of an OTF2 archive written by the run, as (event, location, time, rest); with
    `definitions` a list, otf2-print -G's global definitions lines are appended to it."""
    with tempfile.TemporaryDirectory() as d:
        archive = os.path.join(d, "trace")
        cmd = [sim, "-n", str(ranks), *PLATFORM, "--timeline=otf2", "--set",
               f"report.timeline_file={archive}", *extra, "--", *args]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            sys.exit(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr}")
        check(re.search(r"simmpi: timeline: .*trace/traces\.otf2, \d+ events", p.stderr),
              "the summary line:\n" + p.stderr)
        out = subprocess.run(["otf2-print", os.path.join(archive, "traces.otf2")],
                             capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            sys.exit(f"otf2-print failed:\n{out.stderr}")
        if definitions is not None:
            defs = subprocess.run(["otf2-print", "-G", os.path.join(archive, "traces.otf2")],
                                  capture_output=True, text=True, timeout=120)
            if defs.returncode != 0:
                sys.exit(f"otf2-print -G failed:\n{defs.stderr}")
            definitions.extend(defs.stdout.splitlines())
    events = []
    for line in out.stdout.splitlines():
        m = re.match(r"(\w+)\s+(\d+)\s+(\d+)\s*(.*)$", line)
        if m:
            events.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)))
    return events


def case_otf2(sim):
    n = 3
    ev = otf2_events(sim, 2, ["pingpong", str(n)])
    equal(otf2_events(sim, 2, ["pingpong", str(n)], ["--set", "report.timeline_thread=false"]),
          ev, "the archive written on the simulation's thread")
    kinds = [e[0] for e in ev]
    equal(kinds.count("ENTER"), kinds.count("LEAVE"), "every region entered is left")
    sends = [e for e in ev if e[0] == "MPI_SEND"]
    recvs = [e for e in ev if e[0] == "MPI_RECV"]
    equal(len(sends), 2 * n, "MPI_SEND events")
    equal(len(recvs), 2 * n, "MPI_RECV events")
    check(all("Tag: 7, Length: 8" in e[3] for e in sends + recvs), "tags and lengths:\n" +
          "\n".join(e[3] for e in sends + recvs))
    # Rank 1's first receive ends one way after time zero; each rank's events are in time order.
    first = min((e for e in recvs if e[1] == 1), key=lambda e: e[2])
    equal(first[2], ONE_WAY, "rank 1's first MPI_RECV")
    check('Sender: 0 ("rank 0"' in first[3], "its sender: " + first[3])
    for loc in (0, 1):
        times = [e[2] for e in ev if e[1] == loc]
        check(times == sorted(times), f"location {loc}'s events in time order")
    ev = otf2_events(sim, 4, ["imbalance"])
    ends = [e for e in ev if e[0] == "MPI_COLLECTIVE_END"]
    equal(len(ends), 4, "one barrier per rank")
    check(all("Operation: BARRIER" in e[3] for e in ends), "barriers:\n" +
          "\n".join(e[3] for e in ends))
    own = sorted((e[1], e[2]) for e in ev if e[0] == "LEAVE" and '"own code"' in e[3]
                 and e[2] >= 10**9)
    equal(own, [(r, (r + 1) * 10**9) for r in range(4)], "each rank's own code ends at (r+1) ms")


def case_otf2_min_own_code(sim):
    """OTF2 draws the own code the Chrome file draws (case_min_own_code): regions "own code"
    entered and left at the same times."""
    for extra, want in [([], GAPS[:2]), (["--set", "report.timeline_min_own_code=0s"], GAPS)]:
        ev = otf2_events(sim, 2, ["gaps"], extra)
        for loc, expected in [(0, want), (1, [])]:
            mine = [e for e in ev if e[1] == loc and '"own code"' in e[3]]
            enters = [e[2] for e in mine if e[0] == "ENTER"]
            leaves = [e[2] for e in mine if e[0] == "LEAVE"]
            equal(list(zip(enters, [b - a for a, b in zip(enters, leaves)])), expected,
                  f"location {loc}'s own code ({' '.join(extra) or 'default'})")


def case_otf2_links(sim):
    """With network.stats on, the OTF2 archive holds the Chrome file's link tracks as metrics: a
    metric location per link in the group "network (busiest links)", one Metric event per bin
    with the same utilization."""
    with tempfile.TemporaryDirectory() as d:
        stats = ["--set", "network.stats=true", "--set", f"network.stats_prefix={d}/"]
        chrome, _, _ = timeline_of(sim, 2, ["pingpong", "3"], stats)
        defs = []
        ev = otf2_events(sim, 2, ["pingpong", "3"], stats, defs)
    tracks = {}
    for e in chrome:
        if e["ph"] == "C":
            tracks.setdefault(e["name"], []).append((ps(e["ts"]), float(e["args"]["utilization"])))
    check(len(tracks) >= 2, f"link tracks in the Chrome file: {sorted(tracks)}")
    group = [line for line in defs if line.startswith("LOCATION_GROUP") and
             '"network (busiest links)"' in line]
    equal(len(group), 1, "the links' location group:\n" + "\n".join(defs))
    members = {}
    for line in defs:
        m = re.match(r'METRIC_MEMBER\s+(\d+)\s+Name: "([^"]*)"', line)
        if m:
            members[int(m.group(1))] = m.group(2)
    equal(sorted(members.values()), sorted(tracks), "a metric member per link track")
    metric_locations = [line for line in defs if line.startswith("LOCATION ") and "METRIC" in line]
    equal(len(metric_locations), len(tracks), "a metric location per link:\n" +
          "\n".join(metric_locations))
    got = {}
    for e in ev:
        if e[0] != "METRIC":
            continue
        m = re.search(r"Metric: (\d+).*?([-+\d.e]+)\)?\s*$", e[3])
        check(m, f"a metric event's class and value: {e[3]}")
        if m:
            got.setdefault(members.get(int(m.group(1))), []).append((e[2], float(m.group(2))))
    for name, values in tracks.items():
        mine = got.get(name, [])
        equal([t for t, _ in mine], [t for t, _ in values], f"{name}: the bins' times")
        check(all(abs(a - b) < 1e-6 for (_, a), (_, b) in zip(mine, values)),
              f"{name}: the same utilization as the Chrome track: {mine[:4]} vs {values[:4]}")


def case_otf2_exists(sim):
    with tempfile.TemporaryDirectory() as d:
        cmd = [sim, "-n", "2", *PLATFORM, "--timeline=otf2", "--set",
               f"report.timeline_file={d}", "--", "ring", "1"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        check(p.returncode != 0 and "it exists, and an OTF2 archive is never written over"
              in p.stderr, f"an existing directory: exit {p.returncode}:\n{p.stderr}")
        check(os.listdir(d) == [], "the existing directory untouched")


CASES = {"pingpong": case_pingpong, "arrows": case_arrows, "imbalance": case_imbalance, "placement": case_placement,
         "ranks": case_ranks, "window": case_window, "rerun": case_rerun,
         "bad_scope": case_bad_scope, "gzip": case_gzip, "limit": case_limit, "otf2": case_otf2, "otf2_links": case_otf2_links,
         "otf2_exists": case_otf2_exists, "min_own_code": case_min_own_code,
         "otf2_min_own_code": case_otf2_min_own_code,
         "links": case_links}

if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[2] not in CASES:
        sys.exit(__doc__)
    CASES[sys.argv[2]](sys.argv[1])
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print(f"timeline {sys.argv[2]}: OK")
