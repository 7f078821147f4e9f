#!/usr/bin/env python3
"""Heat map of the measured space, as Figure 1 of Kofler et al. did: for
loops that touch every field of the record, the speed-up of each layout
(SoA, Tiled(T)) over the original array of structs, against the record's
size; one panel per access pattern and loop body (a row of panels per flag
set), at the largest loop length measured for it.

usage: heatmap.py MEASUREMENTS.csv --out heatmap.png
"""
import argparse
import csv
import math
from collections import defaultdict

from train import layout_rank  # AoS, SoA, then tiles by size


def draw(ax, ms):
    """One panel: layouts against record shapes, for loops over every field."""
    cells = defaultdict(dict)
    for m in ms:
        if m["touched"] == m["fields"]:
            shape = (int(m["fields"]) * int(m["field_bytes"]), int(m["field_bytes"]),
                     int(m["fields"]))
            cells[shape][m["layout"]] = float(m["ns_per_iter"])
    sizes = sorted(cells)
    layouts = sorted({l for c in cells.values() for l in c if l != "original"},
                     key=layout_rank)
    grid = [[math.log2(cells[s]["original"] / cells[s][l])
             if l in cells[s] and "original" in cells[s] else float("nan")
             for s in sizes] for l in layouts]
    image = ax.imshow(grid, cmap="RdBu", vmin=-2, vmax=2, aspect="auto", origin="lower")
    ax.set_xticks(range(len(sizes)),
                  [f"{s[0]}\n{s[2]}x{'f' if s[1] == 4 else 'd'}" for s in sizes])
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
    measured = {(m["pattern"], m["body"]) for m in ms}
    panels = [(p, b) for p in dict.fromkeys(m["pattern"] for m in ms)
              for b in dict.fromkeys(m["body"] for m in ms) if (p, b) in measured]
    # Each panel at the largest loop length measured for it (nested loops
    # are measured at shorter lengths).
    longest = {pb: max(int(m["n"]) for m in ms if (m["pattern"], m["body"]) == pb)
               for pb in panels}
    fig, axes = plt.subplots(len(flag_sets), len(panels), squeeze=False,
                             figsize=(3.6 * len(panels), 4.4 * len(flag_sets)),
                             constrained_layout=True)
    for row, cflags in zip(axes, flag_sets):
        for ax, (pattern, body) in zip(row, panels):
            n = longest[pattern, body]
            image = draw(ax, [m for m in ms if (m["cflags"], m["pattern"], m["body"],
                                                int(m["n"])) == (cflags, pattern, body, n)])
            ax.set_title(f"{pattern}, {body}, n = 2^{int(math.log2(n))}\n{cflags}",
                         fontsize=9)
    fig.colorbar(image, ax=axes, label="log2 speed-up over the original AoS")
    fig.savefig(o.out, dpi=90)
    print(f"-> {o.out}")


if __name__ == "__main__":
    main()
