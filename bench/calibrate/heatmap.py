#!/usr/bin/env python3
"""Heat map of the measured space, as Figure 1 of Kofler et al. did: for
loops that touch every field of the record, the speed-up of each layout
(SoA, Tiled(T)) over the original array of structs, against the record's
size. One panel per flag set, side by side on one colour scale: each cell is
the geometric mean of the speed-up over the access patterns and loop bodies
measured, each at the largest loop length measured for it. At most 2000
pixels wide.

usage: heatmap.py MEASUREMENTS.csv --out heatmap.png
"""
import argparse
import csv
import math
from collections import defaultdict

from train import layout_rank  # AoS, SoA, then tiles by size


MAX_WIDTH_PX = 2000
DPI = 90


def log_speedups(ms):
    """{(record shape, layout): [log2 speed-up]} for loops over every field."""
    times = defaultdict(dict)
    for m in ms:
        if m["touched"] == m["fields"]:
            shape = (int(m["fields"]) * int(m["field_bytes"]), int(m["field_bytes"]),
                     int(m["fields"]))
            times[(m["pattern"], m["body"], shape)][m["layout"]] = float(m["ns_per_iter"])
    out = defaultdict(list)
    for (_, _, shape), by_layout in times.items():
        base = by_layout.get("original")
        for layout, t in by_layout.items():
            if layout != "original" and base:
                out[shape, layout].append(math.log2(base / t))
    return out


def draw(ax, ms):
    """One panel: layouts against record shapes, the mean over the access
    patterns and loop bodies of the log2 speed-up."""
    cells = log_speedups(ms)
    sizes = sorted({s for s, _ in cells})
    layouts = sorted({l for _, l in cells}, key=layout_rank)
    grid = [[sum(cells[s, l]) / len(cells[s, l]) if cells.get((s, l)) else float("nan")
             for s in sizes] for l in layouts]
    image = ax.imshow(grid, cmap="RdBu", vmin=-2, vmax=2, aspect="auto", origin="lower")
    ax.set_xticks(range(len(sizes)),
                  [f"{s[0]}\n{s[2]}x{'f' if s[1] == 4 else 'd'}" for s in sizes], fontsize=7)
    ax.set_yticks(range(len(layouts)), layouts)
    ax.set_xlabel("record bytes (fields x float/double)")
    return image


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("measurements")
    ap.add_argument("--out", required=True)
    o = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(o.measurements) as f:
        ms = list(csv.DictReader(f))
    flag_sets = list(dict.fromkeys(m["cflags"] for m in ms))
    patterns = {(m["pattern"], m["body"]) for m in ms}
    # Each access pattern and body at the largest loop length measured for
    # it (nested loops are measured at shorter lengths).
    longest = {pb: max(int(m["n"]) for m in ms if (m["pattern"], m["body"]) == pb)
               for pb in patterns}
    at_longest = [m for m in ms if int(m["n"]) == longest[m["pattern"], m["body"]]]
    width = min(MAX_WIDTH_PX / DPI, 0.5 + 6.5 * len(flag_sets))
    fig, axes = plt.subplots(1, len(flag_sets), squeeze=False, figsize=(width, 4.6),
                             constrained_layout=True)
    for ax, cflags in zip(axes[0], flag_sets):
        image = draw(ax, [m for m in at_longest if m["cflags"] == cflags])
        ax.set_title(f"{cflags}\nmean over {len(patterns)} access patterns and loop bodies",
                     fontsize=9)
    fig.colorbar(image, ax=axes, label="log2 speed-up over the original AoS")
    fig.savefig(o.out, dpi=DPI)
    print(f"-> {o.out}")


if __name__ == "__main__":
    main()
