# SPDX-License-Identifier: Apache-2.0
# simmpi-uq's figures, drawn with matplotlib (no display needed): the figure's histogram with its
# 90% interval, 90% bands along a swept key, Sobol indices with their intervals, and a corner plot
# of a calibration's posterior (drawn here: python3-corner is not packaged in Debian).
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def histogram(path, values, s, label, title):
    fig, ax = plt.subplots(figsize=(6, 4))
    x = np.asarray([v for v in values if np.isfinite(v)])
    ax.hist(x, bins=max(10, min(50, len(x) // 4)), color="#4c72b0", alpha=0.8)
    for q, style in (("p5", "--"), ("p50", "-"), ("p95", "--")):
        ax.axvline(s[q], color="k", linestyle=style, linewidth=1)
    ax.set_xlabel(label)
    ax.set_ylabel("runs")
    ax.set_title(f"{title}\n90% interval [{s['p5']:.6g}, {s['p95']:.6g}], n={s['n']}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def bands(path, xs, summaries, xlabel, ylabel, title):
    """Median and 90% band of the figure at each value of a swept key."""
    fig, ax = plt.subplots(figsize=(6, 4))
    pos = np.arange(len(xs))
    ax.fill_between(pos, [s["p5"] for s in summaries], [s["p95"] for s in summaries],
                    alpha=0.3, color="#4c72b0", label="90% interval")
    ax.plot(pos, [s["p50"] for s in summaries], "o-", color="#4c72b0", label="median")
    ax.set_xticks(pos, xs)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def sensitivity(path, keys, first, total, first_ci, total_ci, title):
    fig, ax = plt.subplots(figsize=(max(5, 1.4 * len(keys) + 2), 4))
    pos = np.arange(len(keys))
    for offset, vals, ci, name in ((-0.2, first, first_ci, "first order"),
                                   (0.2, total, total_ci, "total")):
        err = np.abs(np.vstack([vals - ci[:, 0], ci[:, 1] - vals]))
        ax.bar(pos + offset, vals, 0.4, yerr=err, capsize=4, label=name)
    ax.set_xticks(pos, keys, rotation=15)
    ax.set_ylabel("Sobol index (90% bootstrap interval)")
    ax.set_title(title, fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def corner(path, names, draws, truths=None):
    """Histograms on the diagonal, pairwise scatter below it."""
    d = len(names)
    fig, axes = plt.subplots(d, d, figsize=(2.6 * d, 2.6 * d), squeeze=False)
    for i in range(d):
        for j in range(d):
            ax = axes[i][j]
            if j > i:
                ax.axis("off")
                continue
            if i == j:
                ax.hist(draws[:, i], bins=40, color="#4c72b0", histtype="stepfilled", alpha=0.7)
                for q in np.percentile(draws[:, i], [5, 50, 95]):
                    ax.axvline(q, color="k", linestyle="--", linewidth=0.8)
                ax.set_yticks([])
            else:
                ax.plot(draws[:, j], draws[:, i], ",", alpha=0.3, color="#4c72b0")
                if truths is not None:
                    ax.plot(truths[j], truths[i], "r+", markersize=12)
            if truths is not None and i == j:
                ax.axvline(truths[i], color="r")
            if i == d - 1:
                ax.set_xlabel(names[j], fontsize=8)
            if j == 0 and i > 0:
                ax.set_ylabel(names[i], fontsize=8)
            ax.tick_params(labelsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
