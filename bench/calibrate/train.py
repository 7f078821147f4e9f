#!/usr/bin/env python3
"""Trains dlopt's layout decision tree from microbenchmark measurements.

Reads the CSV microbench.py writes. For each configuration every layout
within 1 % of the fastest becomes a training row (the paper's rule), with
the features the analysis computed for the cluster (analysis/ClusterFeatures,
read from dl-refactor's report of the microbenchmark: the tree is trained
on exactly what it will see). A scikit-learn decision tree is fit
to them. Its leaves then decide by measurement rather than by vote: each
takes the layout with the smallest geometric-mean slowdown over the fastest
layout across the configurations that reach it, so that a leaf where many
tile sizes tie within noise does not pick the one that is slow elsewhere,
and keeps the simplest layout within SIMPLER_WITHIN of that.
The model is written as dlopt's JSON, which `--model` (dl-refactor) and
`model=` (the plugin) load; models/x86-64.json, the default, is one.
Configurations whose cluster shares its loops with other fields
(co_streamed_fields above 0: microbench.py's groups body) do not enter the
fit; each leaf they reach is split on that feature afterwards (train()).
It reports the model's mean slowdown against the best layout per
configuration, on the training data and by 5-fold cross-validation over
configurations, and that of any --compare model.

usage: train.py MEASUREMENTS.csv... --out MODEL.json [--rows ROWS.csv]
                [--target NAME] [--max-depth D] [--simpler-within F]
                [--compare MODEL.json]... [--table]
"""
import argparse
import csv
import json
import math
import os
import random
import sys
from collections import defaultdict

# The features of analysis/ClusterFeatures.cpp, in the order the tree sees.
FEATURES = ["cluster_bytes", "cluster_fields", "cluster_share", "max_field_bytes",
            "record_bytes", "touched_fraction", "gather_fraction", "write_fraction",
            "log2_executions", "vectorizable", "loop_index_fraction", "reduction_fraction",
            "accumulators", "co_streamed_fields"]
# Features measurements may lack, with the value they stand for there: the
# microbenchmarks measured before co_streamed_fields had one cluster per
# loop (the touched fields), so no other field shared its loops.
DEFAULTS = {"co_streamed_fields": 0.0}
# What the tree may split on. log2_executions counts every execution of
# the loop, repetitions included, so in the microbenchmarks it tells their
# repetition counts apart rather than loop lengths: it is reported, but
# not trained on (--features to choose otherwise).
TRAINED = [f for f in FEATURES if f != "log2_executions"]
# What identifies a configuration of microbench.py.
CONFIG = ["cflags", "fields", "field_bytes", "touched", "pattern", "body", "n"]
TOLERANCE = 0.01
# A leaf keeps the simpler layout (AoS, SoA, large tiles, small tiles)
# unless a more complex one is faster by more than this over the
# configurations reaching it: the same binary differs by about as much
# between runs on a shared machine, and a layout that wins a single-loop
# microbenchmark by less does not carry over to programs, where a tiled
# record strip-mines every loop over it (measured: nbody's and mosquito's
# tiled clusters without -ffast-math).
SIMPLER_WITHIN = 0.05


class Configuration:
    """One microbenchmark: its features and the slowdown of each layout
    against the fastest one measured for it."""

    def __init__(self, ms):
        # The analysis's own values for the cluster, from its JSON report
        # of the microbenchmark (microbench.py), identical on every row.
        # Rounded to two decimals: the fractions are weighted sums, and a
        # split between 1.0 and 1.0000000002, or on the trace a one-off
        # set-up loop leaves (a share below 0.005), would be learning noise.
        self.features = {f: round(float(ms[0][f] if f in ms[0] else DEFAULTS[f]), 2)
                         for f in FEATURES}
        self.pattern, self.body = ms[0]["pattern"], ms[0]["body"]
        times = {m["layout"]: float(m["ns_per_iter"]) for m in ms}
        best = min(times.values())
        self.slowdown = {l: t / best for l, t in times.items()}


def configurations(measurements):
    groups = defaultdict(list)
    for m in measurements:
        if m["layout"] != "original":  # the reference, not a cluster layout
            groups[tuple(m[k] for k in CONFIG)].append(m)
    return [Configuration(ms) for _, ms in sorted(groups.items())]


def training_rows(configs):
    """Per configuration, every layout within TOLERANCE of the fastest."""
    return [{**c.features, "layout": l} for c in configs
            for l, s in c.slowdown.items() if s <= 1 + TOLERANCE]


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 1.0


def best_layout(configs, simpler_within=SIMPLER_WITHIN, among=None):
    """The simplest layout measured in every configuration whose geometric
    mean slowdown is within SIMPLER_WITHIN of the smallest one (of the
    layouts AMONG, if given)."""
    common = set.intersection(*(set(c.slowdown) for c in configs))
    if among is not None:
        common &= set(among)
    score = {l: geomean([c.slowdown[l] for c in configs]) for l in common}
    best = min(score.values())
    return min((l for l in common if score[l] <= best * (1 + simpler_within)),
               key=simplicity)


def layout_rank(name):
    """Display order: AoS, SoA, then tiles by size."""
    if name in ("AoS", "SoA"):
        return (0, name == "SoA")
    return (1, int(name[len("Tiled("):-1]))


def simplicity(name):
    """AoS, then SoA, then tiles from the largest down: a large tile behaves
    like SoA, a small one pays its loop and reductions every few elements
    and does not vectorize under 64 bytes per field block."""
    tiled, size = layout_rank(name)
    return (tiled, -size if tiled else size)


def decide(tree, x):
    """DecisionTree::decide: x <= threshold goes left."""
    while "layout" not in tree:
        tree = tree["left"] if x[tree["feature"]] <= tree["threshold"] else tree["right"]
    return tree["layout"]


def mean_slowdown(tree, configs):
    """Geometric mean over configurations of the chosen layout's slowdown
    against the fastest (a layout not measured there counts as the worst)."""
    return geomean([c.slowdown.get(decide(tree, c.features), max(c.slowdown.values()))
                    for c in configs])


def export(tree, leaf_layout, names, node=0):
    """sklearn's tree as dlopt's JSON: x <= threshold goes left, as in
    DecisionTree::decide. LEAF_LAYOUT maps a leaf to its JSON object."""
    t = tree.tree_
    if t.children_left[node] == -1:
        return leaf_layout[node]
    left = export(tree, leaf_layout, names, t.children_left[node])
    right = export(tree, leaf_layout, names, t.children_right[node])
    if left == right:  # A split that decides nothing.
        return left
    return {"feature": names[t.feature[node]],
            "threshold": round(float(t.threshold[node]), 6),
            "left": left, "right": right}


def fit_tree(configs, max_depth, min_leaf, features, simpler_within):
    """The tree fit to the training rows of CONFIGS, each leaf deciding the
    layout that is best over the configurations reaching it. Returns the
    tree and the classifier's accuracy on the rows."""
    from sklearn.tree import DecisionTreeClassifier
    rows = training_rows(configs)
    X = [[r[f] for f in features] for r in rows]
    y = [r["layout"] for r in rows]
    clf = DecisionTreeClassifier(criterion="entropy", max_depth=max_depth,
                                 min_samples_leaf=min_leaf, random_state=0)
    clf.fit(X, y)
    reaching = defaultdict(list)
    for c, leaf in zip(configs, clf.apply([[c.features[f] for f in features]
                                           for c in configs])):
        reaching[leaf].append(c)
    classes = list(clf.classes_)
    leaves = {leaf: leaf_object(cs, simpler_within) for leaf, cs in reaching.items()}
    for node in range(clf.tree_.node_count):  # leaves no configuration reaches
        if clf.tree_.children_left[node] == -1 and node not in leaves:
            votes = clf.tree_.value[node][0]
            ranked = sorted(range(len(classes)), key=lambda k: -votes[k])
            leaves[node] = {"layout": classes[ranked[0]]}
            if is_tiled(classes[ranked[0]]):
                leaves[node]["untiled"] = next(
                    (classes[k] for k in ranked if not is_tiled(classes[k])), "SoA")
    return export(clf, leaves, features), clf.score(X, y)


def shares_loops(c):
    """Whether configuration C's cluster shares its loops with other fields
    (the groups body: each cluster one of several updated in one loop)."""
    return c.features["co_streamed_fields"] > 0


def train(configs, max_depth=5, min_leaf=2, features=TRAINED,
          simpler_within=SIMPLER_WITHIN):
    """The tree of the configurations whose cluster has its loops to itself,
    each leaf that configurations sharing their loops reach then split on
    co_streamed_fields and cluster_fields, the measured best of those
    deciding above the splits (split_shared).

    So the loops a cluster has to itself keep the choices they had without
    such measurements (fit on them together, the greedy splits moved and
    changed programs whose loops stream one cluster: stream-aos, n-body,
    mosquito), and a cluster whose loops stream more arrays than its own
    takes what was measured for such loops where it was measured (where
    FEATURES leaves the feature out, they are left out). Returns the tree and
    the classifier's accuracy on the rows of the first."""
    alone = [c for c in configs if not shares_loops(c)]
    shared = [c for c in configs if shares_loops(c)]
    # co_streamed_fields is 0 in ALONE: it splits nothing there (a constant
    # column would only reorder sklearn's ties between the other features).
    tree, accuracy = fit_tree(alone or configs, max_depth, min_leaf,
                              [f for f in features if f != "co_streamed_fields"],
                              simpler_within)
    if alone and shared and "co_streamed_fields" in features:
        tree = split_shared(tree, shared, simpler_within)
    return tree, accuracy


def split_shared(tree, shared, simpler_within):
    """TREE with each leaf that SHARED configurations reach split on
    co_streamed_fields and cluster_fields, each at the fewest measured less
    one half, the right side taking their best layout (leaf_object)."""
    if "layout" in tree:
        if not shared:
            return tree
        right = leaf_object(shared, simpler_within)
        if right == tree:
            return tree
        # Only within what was measured, each feature at least its fewest
        # less one half: a cluster of fewer fields (one, whose tiles are its
        # SoA array with the tiles' arithmetic added), or one that streams
        # fewer others (the feature is a mean over its accesses: some of
        # them in loops it has to itself), keeps what its loops alone decide.
        # (co_streamed_fields is above 0 in each: it splits off the loops
        # the tree was fit to, whatever its fewest.)
        smallest = min(c.features["cluster_fields"] for c in shared)
        if smallest > 1:
            right = {"feature": "cluster_fields", "threshold": smallest - 0.5,
                     "left": tree, "right": right}
        fewest = min(c.features["co_streamed_fields"] for c in shared)
        return {"feature": "co_streamed_fields",
                "threshold": round(max(fewest - 0.5, fewest / 2), 6),
                "left": tree, "right": right}
    goes_left = [c for c in shared if c.features[tree["feature"]] <= tree["threshold"]]
    goes_right = [c for c in shared if c.features[tree["feature"]] > tree["threshold"]]
    return {**tree, "left": split_shared(tree["left"], goes_left, simpler_within),
            "right": split_shared(tree["right"], goes_right, simpler_within)}


def is_tiled(name):
    return name.startswith("Tiled(")


def leaf_object(configs, simpler_within):
    """A leaf's JSON: its layout and, where that is tiled, the best one
    without tiles over the same configurations ("untiled": what a record
    takes where the program's transfers cannot carry tiles)."""
    leaf = {"layout": best_layout(configs, simpler_within)}
    if is_tiled(leaf["layout"]):
        leaf["untiled"] = best_layout(configs, simpler_within, among=("AoS", "SoA"))
    return leaf


def cross_validated_slowdown(configs, max_depth, folds=5, features=TRAINED,
                             simpler_within=SIMPLER_WITHIN):
    """Mean slowdown of trees trained without the configurations they are
    judged on."""
    shuffled = list(configs)
    random.Random(0).shuffle(shuffled)
    judged = []
    for k in range(folds):
        held = shuffled[k::folds]
        tree, _ = train([c for i, c in enumerate(shuffled) if i % folds != k], max_depth,
                        features=features, simpler_within=simpler_within)
        judged += [c.slowdown.get(decide(tree, c.features), max(c.slowdown.values()))
                   for c in held]
    return geomean(judged)


def loop_kind(c):
    """What a reader calls the configuration's loop: its access pattern (and
    body, for nested loops), whether it vectorizes, whether it reduces."""
    nested = c.pattern.startswith("nested")
    kind = f"{c.pattern} {c.body}" if nested else c.pattern
    kind += ", vectorizable" if c.features["vectorizable"] > 0.5 else ", scalar"
    if not nested and c.features["reduction_fraction"] > 0.5:
        kind += " reduction"
    return kind


def loop_kinds_table(configs, models):
    """Markdown: per kind of loop, each model's mean slowdown against the
    best layout per configuration, and which layouts were fastest."""
    kinds = defaultdict(list)
    for c in configs:
        kinds[loop_kind(c)].append(c)
    family = lambda l: "tiled" if l.startswith("Tiled") else l
    lines = ["| loop | configurations | " + " | ".join(n for n, _ in models) +
             " | fastest layout most often |",
             "| --- | ---: | " + "---: | " * len(models) + "--- |"]
    for kind, cs in sorted(kinds.items()):
        fastest = defaultdict(int)
        for c in cs:
            fastest[family(min(c.slowdown, key=c.slowdown.get))] += 1
        top = sorted(fastest.items(), key=lambda kv: -kv[1])[:2]
        lines.append(f"| {kind} | {len(cs)} | " +
                     " | ".join(f"{mean_slowdown(t, cs):.3f}" for _, t in models) + " | " +
                     ", ".join(f"{l} ({n})" for l, n in top) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("measurements", nargs="+",
                    help="CSVs of microbench.py (their rows together)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--rows", help="also write the training rows as CSV")
    ap.add_argument("--target", default="x86-64")
    ap.add_argument("--max-depth", type=int, default=5)
    ap.add_argument("--simpler-within", type=float, default=SIMPLER_WITHIN,
                    help="a leaf takes the simplest layout within this much of its "
                    f"fastest (default {SIMPLER_WITHIN})")
    ap.add_argument("--description", default="",
                    help="said after the training figures in the model's description")
    ap.add_argument("--cache-line", type=int, default=64,
                    help="the model's epsilon in bytes: a cache line (64 on x86-64), "
                    "or a GPU's memory sector (32)")
    ap.add_argument("--features", default=",".join(TRAINED),
                    help="the features the tree may split on (default: all but "
                    "log2_executions)")
    ap.add_argument("--compare", action="append", default=[],
                    help="also report this model's mean slowdown on the measurements")
    ap.add_argument("--table", action="store_true",
                    help="also print the slowdowns per kind of loop as Markdown")
    o = ap.parse_args()
    measured = []
    for path in o.measurements:
        with open(path) as f:
            measured += list(csv.DictReader(f))
    configs = configurations(measured)
    if not configs:
        sys.exit(f"train.py: no measurements in {' '.join(o.measurements)}")
    features = o.features.split(",")
    unknown = [f for f in features if f not in FEATURES]
    if unknown:
        sys.exit(f"train.py: unknown features {', '.join(unknown)}")
    rows = training_rows(configs)
    tree, accuracy = train(configs, o.max_depth, features=features,
                           simpler_within=o.simpler_within)
    fit = mean_slowdown(tree, configs)
    cv = cross_validated_slowdown(configs, o.max_depth, features=features,
                                  simpler_within=o.simpler_within)
    if o.rows:
        with open(o.rows, "w", newline="") as f:
            w = csv.DictWriter(f, FEATURES + ["layout"])
            w.writeheader()
            w.writerows(rows)
    model = {"format": "dlopt-model", "version": 1, "target": o.target, "cache_line": o.cache_line,
             "description":
             f"Trained by bench/calibrate/train.py on {len(rows)} rows from "
             f"{' and '.join(os.path.basename(p) for p in o.measurements)} (every layout within 1 % of the fastest "
             f"in {len(configs)} configurations; leaves take the simplest layout within "
             f"{o.simpler_within:.0%} of the least geometric-mean slowdown). Mean slowdown "
             f"against the best layout per "
             f"configuration: {fit:.3f} on the measurements, {cv:.3f} in 5-fold "
             f"cross-validation." + (" " + o.description if o.description else ""),
             "tree": tree}
    with open(o.out, "w") as f:
        json.dump(model, f, indent=2)
        f.write("\n")
    print(f"{len(rows)} training rows from {len(configs)} configurations "
          f"(classifier accuracy {accuracy:.2f}) -> {o.out}")
    print(f"mean slowdown against the best layout: {fit:.3f} (this model), "
          f"{cv:.3f} (5-fold cross-validation)")
    others = []
    for path in o.compare:
        with open(path) as f:
            others.append((os.path.basename(path), json.load(f)["tree"]))
        print(f"mean slowdown against the best layout: "
              f"{mean_slowdown(others[-1][1], configs):.3f} ({path})")
    if o.table:
        print(loop_kinds_table(configs, [("this model", tree)] + others +
                               [("always SoA", {"layout": "SoA"})]))


if __name__ == "__main__":
    main()
