#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# simmpi-traffic's curves: accepted throughput and message latency (mean, p99) against the
# offered load, from its CSV, as one SVG of two panels (matplotlib; Debian python3-matplotlib).
# Drawn with the tools' shared settings (simmpi_plot.py, installed beside: fixed ids, no date,
# text as text), so the SVG depends only on the CSVs.
#   simmpi_traffic_plot.py CURVE.csv CURVE.svg "title" [LABEL [CSV LABEL ...]]
# LABEL names the first curve; (CSV, LABEL) pairs overlay more, e.g. the routings of a pattern.
import csv
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import matplotlib.pyplot as plt  # noqa: E402
from simmpi_plot import save  # noqa: E402  (also sets matplotlib up)


def read(path):
    rows = list(csv.DictReader(open(path)))
    if not rows:
        sys.exit(f"simmpi_traffic_plot: {path}: no offered load in the CSV")
    return {key: [float(r[key]) for r in rows] for key in rows[0]}


def main(argv):
    if len(argv) < 4 or (len(argv) > 4 and len(argv) % 2 == 0):
        sys.exit("usage: simmpi_traffic_plot.py CURVE.csv CURVE.svg TITLE "
                 "[LABEL [CSV LABEL ...]]")
    curves = [(argv[1], argv[4] if len(argv) > 4 else None)]
    curves += [(argv[i], argv[i + 1]) for i in range(5, len(argv), 2)]
    fig, (thr, lat) = plt.subplots(1, 2, figsize=(11, 4.2))
    thr.plot([0, 1], [0, 1], color="#bbbbbb", linestyle=":", label="accepted = offered")
    for k, (path, label) in enumerate(curves):
        d = read(path)
        color = f"C{k}"
        name = f"{label}: " if label else ""
        thr.plot(d["offered_load"], d["accepted_load"], "o-", color=color,
                 label=label or "accepted")
        x = [o for o, m in zip(d["offered_load"], d["mean_latency_s"]) if not math.isnan(m)]
        mean = [m * 1e6 for m in d["mean_latency_s"] if not math.isnan(m)]
        p99 = [p * 1e6 for p in d["p99_latency_s"] if not math.isnan(p)]
        lat.plot(x, mean, "o-", color=color, label=f"{name}mean")
        lat.plot(x, p99, "s--", color=color, label=f"{name}p99")
    thr.set_xlabel("offered load (fraction of injection bandwidth)")
    thr.set_ylabel("accepted throughput (fraction of injection bandwidth)")
    thr.set_xlim(0, 1.02)
    thr.set_ylim(0, 1.02)
    thr.grid(True, color="#eeeeee")
    thr.legend(loc="upper left", fontsize=9)
    lat.set_xlabel("offered load (fraction of injection bandwidth)")
    lat.set_ylabel("message latency (us)")
    lat.set_yscale("log")
    lat.set_xlim(0, 1.02)
    lat.grid(True, which="both", color="#eeeeee")
    lat.legend(loc="upper left", fontsize=9)
    fig.suptitle(argv[3], fontsize=10)
    fig.tight_layout()
    save(fig, argv[2])


if __name__ == "__main__":
    main(sys.argv)
