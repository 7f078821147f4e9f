#!/usr/bin/env python3
"""Trains dlopt's layout decision tree from microbenchmark measurements.

Reads the CSV microbench.py writes. For each configuration every layout
within 1 % of the fastest becomes a training row (the paper's rule), with
the features the analysis computes for a cluster (analysis/ClusterFeatures:
the same names, the same definitions). A scikit-learn decision tree is fit
to them and written as a dlopt model JSON, which `--model` (dl-refactor) and
`model=` (the plugin) load, and which models/x86-64.json is an instance of.

usage: train.py MEASUREMENTS.csv --out MODEL.json [--rows ROWS.csv]
                [--target NAME] [--max-depth D]
"""
import argparse
import csv
import json
import math
import sys
from collections import defaultdict

# The features of analysis/ClusterFeatures.cpp, in the order the tree sees.
FEATURES = ["cluster_bytes", "cluster_fields", "cluster_share", "max_field_bytes",
            "record_bytes", "touched_fraction", "gather_fraction", "write_fraction",
            "log2_executions", "vectorizable"]
CONFIG = ["fields", "field_bytes", "touched", "written", "pattern", "vectorizable", "n"]
TOLERANCE = 0.01


def features(c):
    """What the analysis computes for the cluster of the touched fields of a
    microbenchmark: one loop reading TOUCHED fields and writing WRITTEN."""
    fields, fb, touched = int(c["fields"]), int(c["field_bytes"]), int(c["touched"])
    written = int(c["written"])
    return {
        "cluster_bytes": touched * fb,
        "cluster_fields": touched,
        "cluster_share": touched / fields,
        "max_field_bytes": fb,
        "record_bytes": fields * fb,
        "touched_fraction": touched / fields,
        "gather_fraction": 1.0 if c["pattern"] == "gather" else 0.0,
        "write_fraction": written / (touched + written),
        "log2_executions": math.log2(int(c["n"])),
        "vectorizable": float(c["vectorizable"]),
    }


def training_rows(measurements):
    """Per configuration, every layout within TOLERANCE of the fastest."""
    groups = defaultdict(list)
    for m in measurements:
        if m["layout"] != "original":  # the reference, not a cluster layout
            groups[tuple(m[k] for k in CONFIG)].append(m)
    rows = []
    for key, ms in sorted(groups.items()):
        best = min(float(m["ns_per_iter"]) for m in ms)
        for m in ms:
            if float(m["ns_per_iter"]) <= best * (1 + TOLERANCE):
                rows.append({**features(m), "layout": m["layout"]})
    return rows


def export(tree, classes, node=0):
    """sklearn's tree as dlopt's JSON: x <= threshold goes left, as in
    DecisionTree::decide."""
    t = tree.tree_
    if t.children_left[node] == -1:
        counts = t.value[node][0]
        return {"layout": classes[int(counts.argmax())]}
    left = export(tree, classes, t.children_left[node])
    right = export(tree, classes, t.children_right[node])
    if left == right:  # A split that decides nothing.
        return left
    return {"feature": FEATURES[t.feature[node]],
            "threshold": round(float(t.threshold[node]), 6),
            "left": left, "right": right}


def train(rows, max_depth=4, min_leaf=2):
    from sklearn.tree import DecisionTreeClassifier
    X = [[r[f] for f in FEATURES] for r in rows]
    y = [r["layout"] for r in rows]
    clf = DecisionTreeClassifier(criterion="entropy", max_depth=max_depth,
                                 min_samples_leaf=min_leaf, random_state=0)
    clf.fit(X, y)
    return export(clf, list(clf.classes_)), clf.score(X, y)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("measurements")
    ap.add_argument("--out", required=True)
    ap.add_argument("--rows", help="also write the training rows as CSV")
    ap.add_argument("--target", default="x86-64")
    ap.add_argument("--max-depth", type=int, default=4)
    ap.add_argument("--description", default="")
    o = ap.parse_args()
    with open(o.measurements) as f:
        rows = training_rows(list(csv.DictReader(f)))
    if not rows:
        sys.exit(f"train.py: no measurements in {o.measurements}")
    tree, accuracy = train(rows, o.max_depth)
    if o.rows:
        with open(o.rows, "w", newline="") as f:
            w = csv.DictWriter(f, FEATURES + ["layout"])
            w.writeheader()
            w.writerows(rows)
    model = {"format": "dlopt-model", "version": 1, "target": o.target, "cache_line": 64,
             "description": o.description or
             f"Trained by bench/calibrate/train.py on {len(rows)} rows from "
             f"{o.measurements.split('/')[-1]} (every layout within 1 % of the fastest); "
             f"training accuracy {accuracy:.2f}.",
             "tree": tree}
    with open(o.out, "w") as f:
        json.dump(model, f, indent=2)
        f.write("\n")
    print(f"{len(rows)} training rows, accuracy {accuracy:.2f} -> {o.out}")


if __name__ == "__main__":
    main()
