#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# simmpi-report: one self-contained HTML page (inline SVG plots, no network access needed to view
# it) from what a run wrote: the profile (--profile), the critical path (--critical-path) and the
# network statistics (--set network.stats=true), and the timeline (--timeline) when the run wrote
# one. Sections whose data is missing say how to get it.
#   ./app.sim -n 64 --report          (the simulator runs this tool at the end)
#   simmpi-report [DIR] [--out simmpi_report.html]
#   simmpi-report DIR --timeline-image timeline.png   (the timeline plot alone, PNG or SVG)
import argparse
import csv
import gzip
import html
import io
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "share" / "simmpi" / "python"))
import simmpi_plot  # noqa: E402,F401  (matplotlib set up as for every tool: files, stable SVG)
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import LogNorm  # noqa: E402
from simmpi_tool_util import ToolError, fail  # noqa: E402

COLORS = {"own code": "#4c72b0", "MPI overheads and transfers": "#dd8452", "blocked": "#c44e52",
          "compute": "#4c72b0", "overhead": "#dd8452", "network": "#55a868", "waiting": "#c44e52"}


def svg(fig):
    """The figure as an inline <svg> element."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def table(header, rows):
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>"
                   for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def seconds(x):
    return f"{x:.9f}"


def read_json(path, what):
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise ToolError(f"{path}: not a readable {what} ({e})")


def read_csv(path):
    if not path.exists():
        return None
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def per_rank_section(profile):
    ranks = profile["per_rank"]
    xs = [r["rank"] for r in ranks]
    own = [r["own_code"] for r in ranks]
    blocked = [r["blocked"] for r in ranks]
    mpi = [r["mpi"] - r["blocked"] for r in ranks]
    fig, ax = plt.subplots(figsize=(9, 3.6))
    width = 1.0 if len(xs) > 64 else 0.8
    bottom = [0.0] * len(xs)
    for label, values in (("own code", own), ("MPI overheads and transfers", mpi),
                          ("blocked", blocked)):
        ax.bar(xs, values, width=width, bottom=bottom, label=label, color=COLORS[label],
               linewidth=0)
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_xlabel("rank")
    ax.set_ylabel("simulated time (s)")
    ax.set_xlim(min(xs) - 0.5, max(xs) + 0.5)
    ax.margins(y=0.05)
    ax.legend(fontsize=8, ncol=3, loc="lower left", bbox_to_anchor=(0, 1.0), frameon=False)
    fig.tight_layout()
    t = profile["total"]
    whole = sum(t.values()) or 1
    summary = (f"<p>{profile['ranks']} ranks, run ends at {seconds(profile['end'])} s simulated. "
               f"Of all ranks' time: own code {100 * t['own_code'] / whole:.1f}%, "
               f"MPI {100 * t['mpi'] / whole:.1f}% (blocked {100 * t['blocked'] / whole:.1f}%).</p>")
    return "<h2>Per rank</h2>" + summary + svg(fig)


def functions_section(profile, top=15):
    funcs = sorted(profile["functions"], key=lambda f: -f["time"])
    shown = funcs[:top][::-1]
    fig, ax = plt.subplots(figsize=(9, 0.35 * len(shown) + 1.2))
    names = [f["name"] for f in shown]
    ax.barh(names, [f["time"] - f["blocked"] for f in shown], color=COLORS["overhead"],
            label="overheads and transfers")
    ax.barh(names, [f["blocked"] for f in shown], left=[f["time"] - f["blocked"] for f in shown],
            color=COLORS["blocked"], label="blocked")
    ax.set_xlabel("simulated time, all ranks (s)")
    ax.margins(x=0.05)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title("MPI functions")
    fig.tight_layout()
    rows = [(f["name"], f["calls"], f["bytes"], seconds(f["time"]), seconds(f["blocked"]),
             f"{seconds(f['min'])} (rank {f['min_rank']})", seconds(f["mean"]),
             f"{seconds(f['max'])} (rank {f['max_rank']})") for f in funcs]
    comms = table(["communicator", "size", "calls", "bytes", "time (s)", "blocked (s)"],
                  [(c["name"], c["size"], c["calls"], c["bytes"], seconds(c["time"]),
                    seconds(c["blocked"])) for c in profile["communicators"]])
    return ("<h2>MPI functions</h2>" + svg(fig) +
            table(["function", "calls", "bytes", "time (s)", "blocked (s)", "min per rank",
                   "mean", "max per rank"], rows) + "<h2>Communicators</h2>" + comms)


def critical_path_section(path, top=20):
    kinds = ["compute", "overhead", "network", "waiting"]
    length = path["length"] or 1
    summary = ", ".join(f"{k} {100 * path[k] / length:.1f}%" for k in kinds)
    if path.get("network_latency", 0) + path.get("network_transfer", 0) > 0:
        summary += (f"; of the network: latency {100 * path['network_latency'] / length:.1f}%, "
                    f"transfer at full bandwidth {100 * path['network_transfer'] / length:.1f}%, "
                    f"contention and protocol {100 * path['network_contention'] / length:.1f}%")
    fig, ax = plt.subplots(figsize=(9, 3.2))
    ranks = sorted({s["rank"] for s in path["stretches"]})
    row = {r: i for i, r in enumerate(ranks)}
    for kind in kinds:
        spans = [(s["begin"], s["end"] - s["begin"]) for s in path["stretches"] if s["kind"] == kind]
        ys = [row[s["rank"]] for s in path["stretches"] if s["kind"] == kind]
        for (b, w), y in zip(spans, ys):
            ax.broken_barh([(b, w)], (y - 0.4, 0.8), color=COLORS[kind], linewidth=0)
        ax.plot([], [], color=COLORS[kind], linewidth=6, label=kind)
    ax.set_yticks(range(len(ranks)))
    ax.set_yticklabels([str(r) for r in ranks] if len(ranks) <= 32 else [""] * len(ranks))
    ax.set_ylabel("rank")
    ax.set_xlabel("simulated time (s)")
    ax.set_xlim(0, path["length"] * 1.02 or 1)
    ax.set_ylim(-0.8, len(ranks) - 0.2)
    ax.legend(fontsize=8, loc="upper left", ncol=4)
    ax.set_title("The critical path: the chain of events that decided the end of the run")
    fig.tight_layout()
    longest = sorted(path["stretches"], key=lambda s: -(s["end"] - s["begin"]))[:top]
    def part(s, key):
        return seconds(s[key]) if key in s else ""
    rows = [(s["kind"], seconds(s["end"] - s["begin"]), seconds(s["begin"]), s["rank"],
             s.get("from_rank", s["rank"]), s.get("call", ""), s.get("bytes", 0),
             part(s, "latency"), part(s, "transfer"), part(s, "contention"), s.get("link", ""))
            for s in longest]
    return (f"<h2>Critical path</h2><p>{seconds(path['length'])} s: {summary}.</p>" + svg(fig) +
            table(["kind", "length (s)", "from (s)", "rank", "from rank", "call", "bytes",
                   "latency (s)", "transfer (s)", "contention and protocol (s)",
                   "busiest link"], rows))


def link_load_section(rows):
    links = list(dict.fromkeys((r["link"], r["name"]) for r in rows))
    bins = sorted({float(r["begin_s"]) for r in rows})
    end = max(float(r["end_s"]) for r in rows)
    index = {b: i for i, b in enumerate(bins)}
    grid = [[0.0] * len(bins) for _ in links]
    where = {link: i for i, link in enumerate(links)}
    for r in rows:
        grid[where[(r["link"], r["name"])]][index[float(r["begin_s"])]] = float(r["utilization"])
    fig, ax = plt.subplots(figsize=(9, 0.25 * len(links) + 1.6))
    peak = max(max(g) for g in grid)
    image = ax.imshow(grid, aspect="auto", interpolation="nearest", cmap="viridis", vmin=0,
                      vmax=peak if peak > 0 else 1, extent=(0, end, len(links), 0))
    ax.set_yticks([i + 0.5 for i in range(len(links))])
    ax.set_yticklabels([name for _, name in links], fontsize=7)
    ax.set_xlabel("simulated time (s)")
    ax.set_title(f"Load of the busiest links over time (fraction of each link's bandwidth; "
                 f"peak {peak:.2f})")
    fig.colorbar(image, ax=ax, label="utilization")
    fig.tight_layout()
    return "<h2>Link load over time</h2>" + svg(fig)


def matrix_section(rows):
    src_key = next(k for k in rows[0] if k.startswith("src_"))
    dst_key = next(k for k in rows[0] if k.startswith("dst_"))
    what = src_key[4:]
    n = 1 + max(max(int(r[src_key]), int(r[dst_key])) for r in rows)
    grid = [[float("nan")] * n for _ in range(n)]
    for r in rows:
        grid[int(r[src_key])][int(r[dst_key])] = float(r["bytes"])
    values = [float(r["bytes"]) for r in rows if float(r["bytes"]) > 0]
    fig, ax = plt.subplots(figsize=(5.6, 4.8))
    norm = LogNorm(vmin=min(values), vmax=max(values)) if values and min(values) < max(values) else None
    image = ax.imshow(grid, interpolation="nearest", cmap="magma", norm=norm,
                      extent=(-0.5, n - 0.5, n - 0.5, -0.5))
    ax.set_xlabel(f"destination {what}")
    ax.set_ylabel(f"source {what}")
    ax.set_title(f"Traffic matrix ({what}s)")
    fig.colorbar(image, ax=ax, label="bytes")
    fig.tight_layout()
    return "<h2>Traffic matrix</h2>" + svg(fig)


def read_timeline(path):
    """The Chrome trace-event file a run wrote (--timeline; gzip-compressed when it ends in .gz)."""
    if not path.exists():
        return None
    try:
        with (gzip.open(path, "rt") if path.suffix == ".gz" else open(path)) as f:
            return json.load(f)["traceEvents"]
    except (OSError, ValueError, KeyError) as e:
        raise ToolError(f"{path}: not a readable timeline ({e})")


def timeline_figure(events, max_rows=32, max_slices=20000):
    """Ranks (and their threads) over simulated time: each MPI call a bar coloured by function,
    the own code between calls grey, each message an arrow from its send to its receive; the
    first `max_rows` rows, until `max_slices` slices are drawn (the title says where it stops)."""
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    lanes = sorted(names, key=lambda k: (k[0], k[1]))[:max_rows]
    row = {lane: i for i, lane in enumerate(lanes)}
    slices = sorted((e for e in events if e["ph"] == "X" and (e["pid"], e["tid"]) in row),
                    key=lambda e: e["ts"])
    end = None
    if len(slices) > max_slices:
        end = slices[max_slices]["ts"]
        slices = slices[:max_slices]
    total = {}
    for e in slices:
        if e["name"] != "own code":
            total[e["name"]] = total.get(e["name"], 0) + e["dur"]
    functions = sorted(total, key=lambda n: (-total[n], n))
    palette = plt.get_cmap("tab10")
    color = {n: palette(i % 10) for i, n in enumerate(functions)}
    color["own code"] = "#d9d9d9"
    fig, ax = plt.subplots(figsize=(10, 0.32 * len(lanes) + 2.4))
    spans = {}
    for e in slices:
        spans.setdefault(e["name"], {}).setdefault(row[(e["pid"], e["tid"])], []).append(
            (e["ts"] * 1e-6, e["dur"] * 1e-6))
    for name in ["own code"] + functions:
        for y, bars in spans.get(name, {}).items():
            ax.broken_barh(bars, (y - 0.38, 0.76), color=color[name], linewidth=0)
    starts = {e["id"]: e for e in events if e["ph"] == "s" and (e["pid"], e["tid"]) in row}
    arrows = 0
    for e in events:
        s = starts.get(e.get("id")) if e["ph"] == "f" else None
        if not s or (e["pid"], e["tid"]) not in row or (end is not None and e["ts"] > end):
            continue
        ax.annotate("", xy=(e["ts"] * 1e-6, row[(e["pid"], e["tid"])]),
                    xytext=(s["ts"] * 1e-6, row[(s["pid"], s["tid"])]),
                    arrowprops={"arrowstyle": "->", "lw": 0.6,
                                "color": "#999999" if s["name"] != "message" else "#222222"})
        arrows += 1
    for name in functions[:9] + ["own code"]:
        ax.plot([], [], color=color[name], linewidth=6, label=name)
    ax.set_yticks(range(len(lanes)))
    ax.set_yticklabels([names[lane] for lane in lanes], fontsize=7)
    ax.set_ylim(len(lanes) - 0.4, -0.6)
    ax.set_xlabel("simulated time (s)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(0, -0.5 / (0.32 * len(lanes) + 1.8)
                                                              - 0.12), ncol=5, frameon=False)
    shown = f"{len(lanes)} of {len(names)} rows" if len(names) > len(lanes) else "every row"
    cut = f", until {end * 1e-6:.6f} s (the first {max_slices} slices)" if end is not None else ""
    ax.set_title(f"Timeline: {shown}{cut}; arrows: messages (grey: a collective's own)",
                 fontsize=9, loc="left")
    fig.tight_layout()
    return fig


def timeline_section(events):
    return ("<h2>Timeline</h2><p>The run's timeline as recorded by --timeline (open the file in "
            "ui.perfetto.dev or chrome://tracing to zoom in).</p>" + svg(timeline_figure(events)))


def missing(title, how):
    return f"<h2>{title}</h2><p class='missing'>Not recorded in this run: {html.escape(how)}.</p>"


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: sans-serif; max-width: 1000px; margin: 2em auto; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; font-size: 0.85em; }}
th, td {{ border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }}
th {{ background: #f0f0f0; }} td:first-child {{ text-align: left; }}
svg {{ max-width: 100%; height: auto; }} .missing {{ color: #a33; }}
</style></head>
<body>
<h1>{title}</h1>
{sections}
<script>
// Marks the page as rendered, for a headless browser test: how many plots the browser laid out.
document.body.dataset.rendered = String(document.querySelectorAll("svg").length);
</script>
</body></html>
"""


def build(dir_, profile_path, path_path, prefix, title, timeline):
    profile = read_json(profile_path, "profile")
    path = read_json(path_path, "critical path")
    load = read_csv(Path(f"{prefix}link_load.csv"))
    matrix = read_csv(Path(f"{prefix}matrix.csv"))
    busiest = read_csv(Path(f"{prefix}busiest_links.csv"))
    sections = []
    if profile:
        sections += [per_rank_section(profile), functions_section(profile)]
    else:
        sections.append(missing("Profile", f"no {profile_path}; run with --profile or --report"))
    sections.append(critical_path_section(path) if path else
                    missing("Critical path", f"no {path_path}; run with --critical-path or --report"))
    how = "run with --set network.stats=true or --report"
    sections.append(link_load_section(load) if load else
                    missing("Link load over time", f"no {prefix}link_load.csv; {how}"))
    if busiest:
        sections.append("<h2>Busiest links</h2>" + table(
            ["position", "link", "name", "bytes", "busy (s)", "utilization"],
            [(r["position"], r["link"], r["name"], r["bytes"], r["busy_s"], r["utilization"])
             for r in busiest]))
    sections.append(matrix_section(matrix) if matrix else
                    missing("Traffic matrix", f"no {prefix}matrix.csv; {how}"))
    if timeline:  # only when the run wrote one: --report does not turn the timeline on
        sections.append(timeline_section(timeline))
    if not (profile or path or load or matrix):
        raise ToolError(f"{dir_}: no profile, critical path or network statistics to report "
                        "(run the program with --report)")
    return PAGE.format(title=html.escape(title), sections="\n".join(sections))


def main(argv):
    p = argparse.ArgumentParser(prog="simmpi-report", description="Make one self-contained "
                                "HTML report from a run's profile, critical path and network "
                                "statistics.")
    p.add_argument("dir", nargs="?", default=".", help="where the run wrote its files")
    p.add_argument("--profile", help="profile JSON (default DIR/simmpi_profile.json)")
    p.add_argument("--critical-path", help="critical path JSON (default "
                   "DIR/simmpi_critical_path.json)")
    p.add_argument("--net-prefix", help="network.stats_prefix of the run (default DIR/simmpi_net_)")
    p.add_argument("--timeline", help="Chrome timeline of the run (default "
                   "DIR/simmpi_timeline.json.gz, or .json; a section when it exists)")
    p.add_argument("--timeline-image", help="write the timeline plot alone to this file (.png or "
                   ".svg) instead of the page")
    p.add_argument("--out", help="the HTML file (default DIR/simmpi_report.html)")
    p.add_argument("--title", default="simmpi run report")
    args = p.parse_args(argv)
    d = Path(args.dir)
    if not d.is_dir():
        raise ToolError(f"{d}: no such directory")
    if args.timeline:
        timeline_path = Path(args.timeline)
        if not timeline_path.exists():
            raise ToolError(f"--timeline {timeline_path}: no such file")
    else:
        timeline_path = next((d / n for n in ("simmpi_timeline.json.gz", "simmpi_timeline.json")
                              if (d / n).exists()), d / "simmpi_timeline.json.gz")
    timeline = read_timeline(timeline_path)
    if args.timeline_image:
        if not timeline:
            raise ToolError(f"--timeline-image: no timeline {timeline_path}; run with --timeline")
        image = Path(args.timeline_image)
        if image.suffix not in (".png", ".svg"):
            raise ToolError(f"--timeline-image {image}: name a .png or .svg file")
        timeline_figure(timeline).savefig(image, dpi=110, metadata={"Date": None} if
                                          image.suffix == ".svg" else {"Software": None})
        print(f"simmpi-report: wrote {image}", file=sys.stderr)
        return 0
    out = Path(args.out) if args.out else d / "simmpi_report.html"
    page = build(d, Path(args.profile) if args.profile else d / "simmpi_profile.json",
                 Path(args.critical_path) if args.critical_path else d / "simmpi_critical_path.json",
                 args.net_prefix or str(d / "simmpi_net_"), args.title, timeline)
    out.write_text(page)
    print(f"simmpi-report: wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except ToolError as e:
        fail("simmpi-report", e)
