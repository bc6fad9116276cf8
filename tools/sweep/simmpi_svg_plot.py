# SPDX-License-Identifier: Apache-2.0
# A small SVG line plot with no dependencies: categorical x values (as a sweep gives them),
# one polyline per series, a y axis with round ticks, and a legend.
import math
from xml.sax.saxutils import escape

WIDTH, HEIGHT = 720, 440
LEFT, RIGHT, TOP, BOTTOM = 90, 200, 50, 70
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"]


def nice_ticks(lo, hi, count=5):
    if lo == hi:
        lo, hi = lo * 0.95 if lo else -1, hi * 1.05 if hi else 1
    raw = (hi - lo) / count
    step = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * step:
            step *= m
            break
    start = math.floor(lo / step) * step
    ticks = []
    t = start
    while t <= hi + step * 1e-9:
        ticks.append(round(t, 12))
        t += step
    return ticks


def text(x, y, s, anchor="middle", size=12, extra=""):
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
            f'font-family="sans-serif"{extra}>{escape(str(s))}</text>')


def line_plot(data, xlabel, ylabel, title):
    """data: {series label: [(x label, value or None)]}, every series over the same x labels."""
    xs = [x for x, _ in next(iter(data.values()))]
    values = [v for pts in data.values() for _, v in pts if v is not None]
    ticks = nice_ticks(min(values), max(values)) if values else [0, 1]
    y0, y1 = ticks[0], ticks[-1]
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    def px(i):
        return LEFT + (pw * (i + 0.5) / len(xs))
    def py(v):
        return TOP + ph * (1 - (v - y0) / (y1 - y0 if y1 != y0 else 1))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}">', '<rect width="100%" height="100%" fill="white"/>',
           text(WIDTH / 2, 25, title, size=14),
           f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="black"/>']
    for t in ticks:
        out.append(f'<line x1="{LEFT}" x2="{LEFT + pw}" y1="{py(t):.1f}" y2="{py(t):.1f}" '
                   'stroke="#ddd"/>')
        out.append(text(LEFT - 6, py(t) + 4, f"{t:g}", anchor="end"))
    for i, x in enumerate(xs):
        out.append(text(px(i), TOP + ph + 18, x))
    out.append(text(LEFT + pw / 2, HEIGHT - 20, xlabel, size=13))
    out.append(text(20, TOP + ph / 2, ylabel, size=13,
                    extra=f' transform="rotate(-90 20 {TOP + ph / 2:.1f})"'))
    for k, (label, pts) in enumerate(data.items()):
        color = COLORS[k % len(COLORS)]
        coords = [(px(i), py(v)) for i, (_, v) in enumerate(pts) if v is not None]
        if coords:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
            out.append(f'<polyline points="{path}" fill="none" stroke="{color}" '
                       'stroke-width="2"/>')
        for x, y in coords:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{color}"/>')
        ly = TOP + 10 + 22 * k
        out.append(f'<line x1="{LEFT + pw + 15}" x2="{LEFT + pw + 40}" y1="{ly}" y2="{ly}" '
                   f'stroke="{color}" stroke-width="2"/>')
        out.append(text(LEFT + pw + 46, ly + 4, label, anchor="start"))
    out.append("</svg>")
    return "\n".join(out) + "\n"
