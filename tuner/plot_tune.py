#!/usr/bin/env python3
"""Draws the table of dl-refactor --tune as a bar chart.

Usage: plot_tune.py REPORT.json CHART.png

One bar per plan that was measured: its speedup over the original (the
inverse of the median ratio of paired runs), with the confidence interval
as an error bar; the chosen plan in another colour; a line at 1.0.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(report_path, chart_path):
    with open(report_path) as f:
        report = json.load(f)
    plans = [p for p in report["plans"]
             if p["name"] != "original" and p.get("speedup")]
    if not plans:
        plans = []
    names = [p["name"].replace("--layout ", "") for p in plans]
    speedups = [p["speedup"] for p in plans]
    low = [p["speedup"] - p["speedup_interval"][0] for p in plans]
    high = [p["speedup_interval"][1] - p["speedup"] for p in plans]
    colours = ["tab:green" if p.get("chosen") else "tab:blue" for p in plans]
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(plans) + 1.5))
    ax.barh(range(len(plans)), speedups, xerr=[low, high], color=colours,
            capsize=3)
    ax.set_yticks(range(len(plans)))
    ax.set_yticklabels(names, fontsize=8)
    ax.invert_yaxis()
    ax.axvline(1.0, color="black", linewidth=1)
    ax.set_xlabel("speedup over the original (median of paired runs, "
                  "95% interval)")
    chosen = report.get("chosen") or "nothing (no plan beat the original)"
    ax.set_title("dl-refactor --tune: applied " + chosen, fontsize=9)
    fig.tight_layout()
    fig.savefig(chart_path, dpi=100)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
