#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# The tools' plots (tools/python/simmpi_plot.py) as a reader of a report needs them: every data
# point inside the axes (the hand-written SVG plot cut off a sweep's highest point), numeric x
# axes for quantities with their unit, a log axis for doublings, categories for names, a legend
# only for several series; and simmpi-sweep --replot draws a finished sweep's CSV.
#   plot_test.py SOURCE_DIR BUILD_DIR
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

src, build = Path(sys.argv[1]), Path(sys.argv[2])
sys.path.insert(0, str(src / "tools" / "python"))
import simmpi_plot  # noqa: E402

failures = []


def check(what, ok):
    if not ok:
        failures.append(what)


def points_inside(what, fig):
    """Every marker strictly inside the frame, in display coordinates (so log axes count)."""
    for ax in fig.axes:
        box = ax.get_window_extent()
        for line in ax.get_lines():
            xy = ax.transData.transform(line.get_xydata())
            for (x, y), data in zip(xy, line.get_xydata()):
                check(f"{what}: point {tuple(data)} of '{line.get_label()}' outside the axes",
                      box.x0 < x < box.x1 and box.y0 < y < box.y1)


cases = {
    # The shipped what-if, whose highest point the old plot cut off.
    "bandwidth doublings": ({"Frontera": [("100Gbps", 1.0), ("200Gbps", 1.03), ("400Gbps", 1.044),
                                          ("3200Gbps", 1.05)],
                             "PupMaya": [("100Gbps", 1.0), ("200Gbps", 1.039), ("400Gbps", 1.058),
                                         ("3200Gbps", 1.07)]},
                            "network.link_bw", "Gflop/s relative to network.link_bw = 100Gbps"),
    "linear quantity": ({"time_s": [("1", 0.5), ("2", 0.26), ("3", 0.18), ("4", 0.14)]},
                        "node.ranks_per_node", "simulated time (s)"),
    "names": ({"platform=a": [("frontera", 3.0), ("pupmaya", None), ("broadwell4", 7.5)],
               "platform=b": [("frontera", 2.0), ("pupmaya", 2.5), ("broadwell4", 9.0)]},
              "--platform", "Gflop/s"),
    "one point": ({"time_s": [("100Gbps", 0.25)]}, "network.link_bw", "simulated time (s)"),
}
for what, (series, xname, ylabel) in cases.items():
    fig = simmpi_plot.line_figure(series, xname, ylabel, what)
    points_inside(what, fig)
    ax = fig.axes[0]
    check(f"{what}: legend only for several series",
          (ax.get_legend() is not None) == (len(series) > 1))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "plot.svg"
        simmpi_plot.save(fig, out)
        root = ET.parse(out).getroot()
        check(f"{what}: not an SVG file", root.tag.endswith("svg"))

fig = simmpi_plot.line_figure(cases["bandwidth doublings"][0], "network.link_bw", "y", "t")
ax = fig.axes[0]
check("doublings: log x axis", ax.get_xscale() == "log")
check("doublings: unit in the x label", ax.get_xlabel() == "network.link_bw (Gbps)")
check("doublings: the values as ticks",
      [t.get_text() for t in ax.get_xticklabels()] == ["100", "200", "400", "3200"])
fig = simmpi_plot.line_figure(cases["linear quantity"][0], "node.ranks_per_node", "y", "t")
check("1..4: linear numeric axis", fig.axes[0].get_xscale() == "linear")
check("1..4: numeric positions", list(fig.axes[0].get_lines()[0].get_xdata()) == [1, 2, 3, 4])
fig = simmpi_plot.line_figure(cases["names"][0], "--platform", "y", "t")
check("names: categorical ticks",
      [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["frontera", "pupmaya", "broadwell4"])
check("names: a missing value leaves a gap, not a zero",
      len(fig.axes[0].get_lines()[0].get_xdata()) == 2)

# simmpi-sweep --replot on the shipped figure's data: relative values, the right label.
with tempfile.TemporaryDirectory() as tmp:
    r = subprocess.run([str(build / "bin" / "simmpi-sweep"), "--replot",
                        str(src / "docs" / "figures" / "hpl_bandwidth_whatif.csv"), "--relative",
                        "--out", f"{tmp}/w"], capture_output=True, text=True)
    check(f"--replot exited {r.returncode}: {r.stderr}", r.returncode == 0)
    check("--replot: PupMaya at 3200Gbps is +7.03% relative",
          "platform=pupmaya               network.link_bw=3200Gbps         gflops=1.07029289" in r.stdout)
    svg = Path(f"{tmp}/w.svg").read_text() if Path(f"{tmp}/w.svg").exists() else ""
    check("--replot: the relative label has no unit", "relative to network.link_bw = 100Gbps" in svg
          and "(s)" not in svg)
    r = subprocess.run([str(build / "bin" / "simmpi-sweep"), "--replot", f"{tmp}/none.csv"],
                       capture_output=True, text=True)
    check(f"--replot of a missing file names it: {r.stderr}",
          r.returncode != 0 and "none.csv" in r.stderr)

for f in failures:
    print("FAIL:", f)
print("plot_test: OK" if not failures else f"plot_test: {len(failures)} failures")
sys.exit(1 if failures else 0)
