#!/usr/bin/env python3
"""Unit tests of bench/calibrate/train.py on synthetic measurements whose
best tree is known: gathered loops are fastest in AoS, streamed ones in SoA.

usage: test_train.py [MODEL_OUT.json]   (writes the trained model there, for
the lit test that loads it into dl-refactor)
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "calibrate"))
import train  # noqa: E402


def synthetic():
    """Per configuration, a time per layout: gathers favour AoS, streams SoA;
    Tiled(4) is within 1 % of SoA on streams of 8-byte fields."""
    ms = []
    for fields, fb, pattern, n in [(f, b, p, n) for f in (2, 4, 8, 16) for b in (4, 8)
                                   for p in ("stream", "gather") for n in (1024, 1 << 20)]:
        for touched in sorted({1, fields}):
            config = dict(fields=str(fields), field_bytes=str(fb), touched=str(touched),
                          written="1", pattern=pattern, vectorizable="1", n=str(n))
            if pattern == "gather":
                times = {"AoS": 1.0, "SoA": 2.0, "Tiled(4)": 1.6}
            else:
                times = {"AoS": 2.0, "SoA": 1.0, "Tiled(4)": 1.005 if fb == 8 else 1.5}
            times["original"] = 3.0
            ms += [dict(config, layout=l, ns_per_iter=str(t)) for l, t in times.items()]
    return ms


class TrainTest(unittest.TestCase):
    def test_rows_are_the_layouts_within_one_percent(self):
        rows = train.training_rows(synthetic())
        labels = [r["layout"] for r in rows]
        self.assertNotIn("original", labels)
        # 4 field counts x 2 field sizes x 2 lengths x 2 touched counts: 32
        # configurations per pattern; streams of 8-byte fields add Tiled(4).
        self.assertEqual(labels.count("AoS"), 32)
        self.assertEqual(labels.count("SoA"), 32)
        self.assertEqual(labels.count("Tiled(4)"), 16)

    def test_features_match_the_analysis(self):
        f = train.features(dict(fields="8", field_bytes="4", touched="2", written="1",
                                pattern="gather", vectorizable="0", n="4096"))
        self.assertEqual(f["cluster_bytes"], 8)
        self.assertEqual(f["record_bytes"], 32)
        self.assertEqual(f["cluster_share"], 0.25)
        self.assertEqual(f["gather_fraction"], 1.0)
        self.assertAlmostEqual(f["write_fraction"], 1 / 3)
        self.assertEqual(f["log2_executions"], 12)
        self.assertEqual(sorted(f), sorted(train.FEATURES))

    def test_the_known_tree_is_found(self):
        rows = [r for r in train.training_rows(synthetic()) if r["layout"] != "Tiled(4)"]
        tree, accuracy = train.train(rows)
        self.assertEqual(accuracy, 1.0)
        self.assertEqual(tree, {"feature": "gather_fraction", "threshold": 0.5,
                                "left": {"layout": "SoA"}, "right": {"layout": "AoS"}})


if __name__ == "__main__":
    out = sys.argv.pop(1) if len(sys.argv) > 1 and sys.argv[1].endswith(".json") else None
    result = unittest.main(exit=False, verbosity=2).result
    if out and result.wasSuccessful():
        rows = [r for r in train.training_rows(synthetic()) if r["layout"] != "Tiled(4)"]
        tree, _ = train.train(rows)
        import json
        with open(out, "w") as f:
            json.dump({"format": "dlopt-model", "version": 1, "target": "synthetic",
                       "cache_line": 64, "tree": tree}, f)
    sys.exit(0 if result.wasSuccessful() else 1)
