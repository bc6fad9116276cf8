# SPDX-License-Identifier: Apache-2.0
# HPL's input file (HPL.dat, which hpcc calls hpccinf.txt): written from simmpi-hpl's options or
# read from a file, and checked the way HPL_pdinfo checks it, plus what simmpi-hpl requires (one
# P x Q grid per rank count), so a bad file is refused before anything is built or simulated.
# Also the parsing of HPL's result lines.
import math
import re
from dataclasses import dataclass, field

from simmpi_tool_util import ToolError

BCASTS = ["1ring", "1ringM", "2ring", "2ringM", "long", "longM"]  # HPL.dat codes 0 to 5
FACTS = ["left", "crout", "right"]  # codes 0 to 2
SWAPS = ["bin-exch", "long", "mix"]  # codes 0 to 2


def code(value, names, option):
    """A choice given as its HPL.dat digit or its name."""
    if value.isdigit() and int(value) < len(names):
        return int(value)
    if value in names:
        return names.index(value)
    raise ToolError(f"{option} {value}: expected one of {', '.join(names)} "
                    f"(or 0 to {len(names) - 1})")


def add_arguments(p):
    g = p.add_argument_group("HPL input (HPL.dat)")
    g.add_argument("--dat", help="use this HPL.dat as it is instead of writing one")
    g.add_argument("--n", type=int, help="problem size N (default: 80%% of the memory of the "
                   "ranks' nodes when the platform gives node.memory, else 10000 in model mode "
                   "and 1000 in execute mode)")
    g.add_argument("--nb", type=int, default=192, help="block size NB (default 192)")
    g.add_argument("--p", type=int, help="process rows P (default: the squarest P x Q, P <= Q)")
    g.add_argument("--q", type=int, help="process columns Q")
    g.add_argument("--bcast", default="1ringM", help=f"panel broadcast: {', '.join(BCASTS)} "
                   "(default 1ringM)")
    g.add_argument("--depth", type=int, default=1, help="lookahead depth (default 1)")
    g.add_argument("--pfact", default="right", help="panel factorization: left, crout, right")
    g.add_argument("--rfact", default="crout", help="recursive factorization (default crout)")
    g.add_argument("--nbmin", type=int, default=4, help="recursion stopping width (default 4)")
    g.add_argument("--ndiv", type=int, default=2, help="panels in recursion (default 2)")
    g.add_argument("--swap", default="mix", help="row swaps: bin-exch, long, mix (default mix)")
    g.add_argument("--swap-threshold", type=int, default=64, help="mix threshold (default 64)")


@dataclass
class HplInput:
    ns: list
    nbs: list
    grids: list  # (P, Q)
    pfacts: list = field(default_factory=lambda: [2])
    nbmins: list = field(default_factory=lambda: [4])
    ndivs: list = field(default_factory=lambda: [2])
    rfacts: list = field(default_factory=lambda: [1])
    bcasts: list = field(default_factory=lambda: [1])
    depths: list = field(default_factory=lambda: [1])
    swap: int = 2
    swap_threshold: int = 64
    pmap: int = 0
    threshold: float = 16.0
    device: int = 6
    outfile: str = "HPL.out"
    l1_notrans: int = 0
    u_notrans: int = 0
    equil: int = 1
    align: int = 8
    origin: str = "the options"
    lines: dict = field(default_factory=dict)  # field -> line number in a given file

    def max_grid(self):
        return max(p * q for p, q in self.grids)

    def output_file(self):
        """File HPL writes its results to, or None for standard output or error."""
        return None if self.device in (6, 7) else self.outfile

    def where(self, name):
        return f"{self.origin} line {self.lines[name]}" if name in self.lines else self.origin

    def check(self, ranks):
        def need(ok, name, why):
            if not ok:
                raise ToolError(f"{self.where(name)}: {why}")
        for n in self.ns:
            need(n >= 1, "ns", f"N = {n}: HPL needs a problem size of at least 1")
        for nb in self.nbs:
            need(nb >= 1, "nbs", f"NB = {nb}: HPL needs a block size of at least 1")
        for p, q in self.grids:
            need(p >= 1 and q >= 1, "ps", f"P x Q = {p} x {q}: both must be at least 1")
            need(p * q == ranks, "ps", f"P x Q = {p} x {q} = {p * q}, but the run has {ranks} "
                 f"ranks; give --ranks {p * q}, or P and Q whose product is {ranks}")
        need(all(x >= 1 for x in self.nbmins), "nbmins", "NBMIN must be at least 1")
        need(all(x >= 2 for x in self.ndivs), "ndivs", "NDIV must be at least 2")
        need(all(x >= 0 for x in self.depths), "depths", "DEPTH (lookahead) must be at least 0")

    def text(self):
        def row(values, what):
            return f"{' '.join(str(v) for v in values):<13}{what}"
        lines = ["HPLinpack benchmark input file", "written by simmpi-hpl",
                 f"{self.outfile:<13}output file name (if any)",
                 f"{self.device:<13}device out (6=stdout,7=stderr,file)",
                 row([len(self.ns)], "# of problems sizes (N)"), row(self.ns, "Ns"),
                 row([len(self.nbs)], "# of NBs"), row(self.nbs, "NBs"),
                 row([self.pmap], "PMAP process mapping (0=Row-,1=Column-major)"),
                 row([len(self.grids)], "# of process grids (P x Q)"),
                 row([p for p, _ in self.grids], "Ps"), row([q for _, q in self.grids], "Qs"),
                 row([self.threshold], "threshold"),
                 row([len(self.pfacts)], "# of panel fact"),
                 row(self.pfacts, "PFACTs (0=left, 1=Crout, 2=Right)"),
                 row([len(self.nbmins)], "# of recursive stopping criterium"),
                 row(self.nbmins, "NBMINs (>= 1)"),
                 row([len(self.ndivs)], "# of panels in recursion"), row(self.ndivs, "NDIVs"),
                 row([len(self.rfacts)], "# of recursive panel fact."),
                 row(self.rfacts, "RFACTs (0=left, 1=Crout, 2=Right)"),
                 row([len(self.bcasts)], "# of broadcast"),
                 row(self.bcasts, "BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)"),
                 row([len(self.depths)], "# of lookahead depth"), row(self.depths, "DEPTHs (>=0)"),
                 row([self.swap], "SWAP (0=bin-exch,1=long,2=mix)"),
                 row([self.swap_threshold], "swapping threshold"),
                 row([self.l1_notrans], "L1 in (0=transposed,1=no-transposed) form"),
                 row([self.u_notrans], "U  in (0=transposed,1=no-transposed) form"),
                 row([self.equil], "Equilibration (0=no,1=yes)"),
                 row([self.align], "memory alignment in double (> 0)")]
        return "\n".join(lines) + "\n"


def squarest_grid(ranks):
    p = int(math.isqrt(ranks))
    while ranks % p:
        p -= 1
    return p, ranks // p


def default_n(args, node_memory_bytes, nodes):
    if node_memory_bytes:
        n = int(math.sqrt(0.8 * node_memory_bytes * nodes / 8))
        return max(args.nb, n // args.nb * args.nb)
    return 10000 if args.mode == "model" else 1000


def input_from_args(args, node_memory_bytes=0, nodes=1):
    if args.dat:
        try:
            with open(args.dat) as f:
                return parse_dat(f.read(), args.dat)
        except OSError as e:
            raise ToolError(f"--dat {args.dat}: {e.strerror}")
    if (args.p is None) != (args.q is None):
        raise ToolError("give both --p and --q, or neither (then the squarest grid is used)")
    if args.p is None:
        ranks = args.ranks if args.ranks is not None else 1
        args.p, args.q = squarest_grid(max(1, ranks))
    n = args.n if args.n is not None else default_n(args, node_memory_bytes, nodes)
    return HplInput(ns=[n], nbs=[args.nb], grids=[(args.p, args.q)],
                    pfacts=[code(args.pfact, FACTS, "--pfact")],
                    rfacts=[code(args.rfact, FACTS, "--rfact")],
                    bcasts=[code(args.bcast, BCASTS, "--bcast")], depths=[args.depth],
                    nbmins=[args.nbmin], ndivs=[args.ndiv], swap=code(args.swap, SWAPS, "--swap"),
                    swap_threshold=args.swap_threshold)


class DatReader:
    """Reads HPL.dat line by line as HPL_pdinfo does: one count or a list of values per line."""

    def __init__(self, text, origin):
        self.lines = text.splitlines()
        self.origin = origin
        self.at = 0

    def line(self, what):
        if self.at >= len(self.lines):
            raise ToolError(f"{self.origin}: ends before line {self.at + 1} ({what})")
        self.at += 1
        return self.lines[self.at - 1].split()

    def ints(self, count, what):
        words = self.line(what)
        try:
            values = [int(w) for w in words[:count]]
        except ValueError:
            raise ToolError(f"{self.origin} line {self.at}: expected {count} integer(s) "
                            f"({what}), found \"{' '.join(words[:count])}\"")
        if len(values) < count:
            raise ToolError(f"{self.origin} line {self.at}: expected {count} value(s) ({what}), "
                            f"found {len(values)}")
        return values

    def counted(self, what):
        count = self.ints(1, f"number of {what}")[0]
        if not 1 <= count <= 20:
            raise ToolError(f"{self.origin} line {self.at}: {count} values of {what}; HPL takes "
                            "1 to 20")
        return self.ints(count, what)


def parse_dat(text, origin):
    r = DatReader(text, origin)
    r.line("title"), r.line("title")
    out = r.line("output file")
    device = r.ints(1, "device out")[0]
    d = HplInput(ns=[], nbs=[], grids=[], origin=origin, device=device,
                 outfile=out[0] if out else "HPL.out")
    d.ns = r.counted("N")
    d.lines["ns"] = r.at
    d.nbs = r.counted("NB")
    d.lines["nbs"] = r.at
    d.pmap = r.ints(1, "PMAP")[0]
    ps = r.counted("P")
    d.lines["ps"] = r.at
    qs = r.ints(len(ps), "Q")
    d.grids = list(zip(ps, qs))
    r.line("threshold")
    d.pfacts = r.counted("PFACT")
    d.nbmins = r.counted("NBMIN")
    d.lines["nbmins"] = r.at
    d.ndivs = r.counted("NDIV")
    d.lines["ndivs"] = r.at
    d.rfacts = r.counted("RFACT")
    d.bcasts = r.counted("BCAST")
    d.depths = r.counted("DEPTH")
    d.lines["depths"] = r.at
    d.text = lambda: text  # a given file runs exactly as written
    return d


@dataclass
class TestResult:
    n: int
    nb: int
    p: int
    q: int
    hpl_time_s: float
    gflops: float
    check: str = "none"   # PASSED, FAILED, or none when HPL did not check (threshold <= 0)
    residual: float = 0.0

    @property
    def flops(self):
        n = float(self.n)
        return 2.0 / 3.0 * n ** 3 + 1.5 * n ** 2  # HPL's own count

    @property
    def time_s(self):
        """The solve time from the Gflop/s (printed to 4 digits, the time only to 0.01 s)."""
        return self.flops / (self.gflops * 1e9) if self.gflops > 0 else self.hpl_time_s

    def use_timed(self, seconds):
        """The run's time as simmpi-hpl's timer glue printed it (hpl_ptimer.c), in full
        precision: HPL's own line has 2 decimals of time and 4 digits of Gflop/s."""
        if seconds > 0:
            self.hpl_time_s, self.gflops = seconds, self.flops / seconds / 1e9


RESULT = re.compile(r"^W[RC]\S*\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([0-9.]+)\s+([0-9.eE+-]+)\s*$")
CHECK = re.compile(r"=\s*(\S+)\s+\.+\s+(PASSED|FAILED)")
TIMED = re.compile(r"^simmpi-hpl: timed wall time (\S+)$")


def parse_results(text):
    """Each test's result line, with the residual check that follows it when there is one."""
    tests, timed = [], []
    for line in text.splitlines():
        m = TIMED.match(line)
        if m:
            timed.append(float(m.group(1)))
            continue
        m = RESULT.match(line)
        if m:
            n, nb, p, q = (int(m.group(i)) for i in range(1, 5))
            tests.append(TestResult(n, nb, p, q, float(m.group(5)), float(m.group(6))))
            continue
        m = CHECK.search(line)
        if m and tests:
            tests[-1].check, tests[-1].residual = m.group(2), float(m.group(1))
    if len(timed) == len(tests):  # one timed line per test, in order
        for t, seconds in zip(tests, timed):
            t.use_timed(seconds)
    return tests
