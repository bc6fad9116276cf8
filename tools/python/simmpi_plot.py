# SPDX-License-Identifier: Apache-2.0
# Line plots for the tools' reports (sweeps, offered-load curves...), drawn with matplotlib as
# the field draws them. What a reader of a report needs and the tools must not get wrong: every
# point inside the frame, a numeric x axis when the swept values are quantities ("100Gbps",
# "200Gbps": numbers of one unit), on a log scale when they span doublings, with the unit in the
# axis label and the values themselves as ticks; categorical x only for names (presets).
import math
import re

import matplotlib

matplotlib.use("Agg")  # files only: no display, and the same output everywhere
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FixedLocator, NullLocator  # noqa: E402

matplotlib.rcParams["svg.hashsalt"] = "simmpi"  # stable ids: the same data, the same bytes
matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: smaller, searchable

QUANTITY = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z/%]*)\s*$")


def parse_quantity(text):
    """(number, unit) for "100Gbps", "2.5", "64KiB"; None for names ("frontera")."""
    m = QUANTITY.match(str(text))
    return (float(m.group(1)), m.group(2)) if m else None


def numeric_axis(labels):
    """(values, unit) when every label is a number of one unit, else None."""
    parsed = [parse_quantity(x) for x in labels]
    if not parsed or any(p is None for p in parsed) or len({u for _, u in parsed}) != 1:
        return None
    return [v for v, _ in parsed], parsed[0][1]


def wants_log(values):
    """A log axis when the values are positive and span at least three doublings."""
    return min(values) > 0 and max(values) / min(values) >= 8


def line_figure(series, xname, ylabel, title):
    """series: {label: [(x label, value or None)]}, every series over the same x labels; a
    single series gets no legend. Returns the matplotlib Figure."""
    xlabels = [x for x, _ in next(iter(series.values()))]
    numeric = numeric_axis(xlabels)
    fig, ax = plt.subplots(figsize=(7.2, 4.4), dpi=100)
    if numeric:
        xs, unit = numeric
        ax.set_xlabel(f"{xname} ({unit})" if unit else xname)
        if wants_log(xs):
            ax.set_xscale("log", base=2)
        ax.xaxis.set_major_locator(FixedLocator(xs))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.set_xticklabels([f"{v:g}" for v in xs])
    else:
        xs = list(range(len(xlabels)))
        ax.set_xlabel(xname)
        ax.set_xticks(xs)
        ax.set_xticklabels(xlabels)
        ax.set_xlim(-0.5, len(xs) - 0.5)
    for label, points in series.items():
        pts = [(x, v) for x, (_, v) in zip(xs, points) if v is not None and math.isfinite(v)]
        if pts:
            ax.plot([x for x, _ in pts], [v for _, v in pts], marker="o", label=label)
    ax.margins(x=0.06, y=0.08)  # markers sit inside the frame, never on its edge
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=11)
    ax.grid(True, color="#dddddd", linewidth=0.8)
    if len(series) > 1:
        ax.legend(fontsize=9)
    fig.tight_layout()
    return fig


def save(fig, path):
    """Writes the figure (format from the path's extension: .svg, .png, .pdf) and closes it."""
    fig.savefig(path, metadata={"Date": None} if str(path).endswith(".svg") else None)
    plt.close(fig)


def line_plot(path, series, xname, ylabel, title):
    save(line_figure(series, xname, ylabel, title), path)
