#!/usr/bin/env python3
"""Tests of bench/calibrate/microbench.py: every microbenchmark layout is
written by dl-refactor, compiles, computes what the original computes, and
is labelled with the features the analysis reports for its cluster.

usage: test_microbench.py DL_REFACTOR CC
"""
import contextlib
import csv
import io
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "calibrate"))
import microbench  # noqa: E402

DL_REFACTOR, CC = sys.argv[1], sys.argv[2]
TILES = [4, 16]


def config(pattern, body, fields=4, field_bytes=4, touched=2, n=256,
           cflags="-O2"):
    return dict(cflags=cflags, fields=fields, field_bytes=field_bytes, touched=touched,
                pattern=pattern, body=body, n=n)


class MicrobenchTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="dlopt-microbench-test-")

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def measure(self, c):
        rows = microbench.measure(c, CC, DL_REFACTOR, TILES, self.work)
        self.assertIsNotNone(rows, f"a layout changed the output of {c}")
        return {r["layout"]: r for r in rows}

    def test_every_layout_is_measured(self):
        rows = self.measure(config("stream", "elementwise"))
        self.assertEqual(list(rows), ["original", "AoS", "SoA", "Tiled(4)", "Tiled(16)"])
        self.assertTrue(all(float(r["ns_per_iter"]) > 0 for r in rows.values()))
        # Whole-record AoS is the original; a partial cluster is split off.
        self.assertEqual(microbench.layouts(config("stream", "elementwise", touched=4),
                                            TILES)["AoS"], "aos")
        self.assertEqual(microbench.layouts(config("stream", "elementwise"), TILES)["SoA"],
                         "split:{f0,f1}soa{f2,f3}aos")

    def test_features_are_the_analysis(self):
        f = self.measure(config("stream", "elementwise"))["SoA"]
        self.assertEqual(f["cluster_fields"], 2)
        self.assertEqual(f["record_bytes"], 16)
        self.assertEqual(f["gather_fraction"], 0)
        self.assertGreater(f["loop_index_fraction"], 0.95)
        self.assertGreater(f["vectorizable"], 0.95)
        g = self.measure(config("gather", "reduction", field_bytes=8))["AoS"]
        self.assertGreater(g["gather_fraction"], 0.95)
        self.assertGreater(g["reduction_fraction"], 0.95)
        self.assertLess(g["vectorizable"], 0.05)  # a float sum, without -ffast-math
        self.assertEqual(g["max_field_bytes"], 8)

    def test_groups_of_clusters_in_one_loop(self):
        c = config("stream", "groups", fields=8, touched=6)
        self.assertEqual(microbench.layouts(c, TILES)["Tiled(16)"],
                         "split:{f0,f1,f2}tiled:16{f3,f4,f5}tiled:16{f6,f7}aos")
        rows = self.measure(c)
        self.assertEqual(list(rows), ["original", "AoS", "SoA", "Tiled(4)", "Tiled(16)"])
        # The first group's features: the loop touches twice its bytes.
        f = rows["SoA"]
        self.assertEqual(f["cluster_fields"], 3)
        self.assertAlmostEqual(f["cluster_share"], 3 / 8)
        self.assertAlmostEqual(f["touched_fraction"], 6 / 8)
        self.assertGreater(f["loop_index_fraction"], 0.95)
        # Only in streams, and only where two groups are touched.
        for c in microbench.configurations(True, ["-O2"], bodies=["groups"]):
            self.assertEqual(c["pattern"], "stream")
            self.assertGreaterEqual(c["touched"], 2 * microbench.GROUP)

    def test_relabel_takes_the_analysis_features_and_keeps_timings(self):
        rows = list(self.measure(config("gather", "elementwise")).values())
        stale = [dict(r, gather_fraction=0.25, vectorizable=0.5) for r in rows]
        measured = os.path.join(self.work, "measured.csv")
        with open(measured, "w", newline="") as f:
            w = csv.DictWriter(f, microbench.COLUMNS)
            w.writeheader()
            w.writerows(stale)
        out = os.path.join(self.work, "relabelled.csv")
        said = io.StringIO()  # its progress would break the test's lines
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(said):
            self.assertEqual(microbench.relabel(measured, DL_REFACTOR, out), 0)
        self.assertIn("1 configurations relabelled, 5 of 5 rows changed", said.getvalue())
        with open(out, newline="") as f:
            again = list(csv.DictReader(f))
        self.assertEqual(len(again), len(rows))
        for old, new in zip(rows, again):
            self.assertEqual(new["layout"], old["layout"])
            self.assertEqual(new["ns_per_iter"], str(old["ns_per_iter"]))
            for feature in microbench.FEATURES:
                self.assertAlmostEqual(float(new[feature]), float(old[feature]), msg=feature)

    def test_flags_decide_vectorizable(self):
        scalar = self.measure(config("offset", "libm"))["SoA"]
        vector = self.measure(config("offset", "libm", cflags="-O2 -ffast-math"))["SoA"]
        self.assertLess(scalar["vectorizable"], 0.05)
        self.assertGreater(vector["vectorizable"], 0.95)
        self.assertLess(vector["loop_index_fraction"], 0.05)  # a[i + base]

    def test_nested_loops(self):
        rows = self.measure(config("nested", "libm", fields=8, touched=8, n=64))
        self.assertGreater(rows["SoA"]["reduction_fraction"], 0.9)
        self.assertEqual(rows["SoA"]["cluster_share"], 1)
        # n-body's body: sqrtf, scalar (errno) unless -ffast-math.
        scalar = self.measure(config("nested", "sqrt", n=64))["SoA"]
        vector = self.measure(config("nested", "sqrt", n=64, cflags="-O2 -ffast-math"))["SoA"]
        self.assertLess(scalar["vectorizable"], 0.05)
        self.assertGreater(vector["vectorizable"], 0.95)
        # n-body's force sum: three accumulators, each one more horizontal
        # reduction per tile once strip-mined and vectorized.
        forces = self.measure(config("nested", "forces", touched=4, n=64))["SoA"]
        self.assertGreater(forces["accumulators"], 2.9)
        self.assertLess(rows["SoA"]["accumulators"], 1.1)
        # SPH's pair loop: x and y read together, two accumulators, scalar
        # over j without -ffast-math.
        pairs = self.measure(config("nested", "pairs", touched=2, n=64))["SoA"]
        self.assertGreater(pairs["accumulators"], 1.9)
        self.assertLess(pairs["vectorizable"], 0.05)
        self.assertGreater(pairs["loop_index_fraction"], 0.45)  # a[j], not a[i]
        # The same loops over a global count, as SPH codes write them: the
        # body cannot change the count, so they are strip-mined and
        # loop-indexed as those over a parameter; every layout still
        # computes what the original does.
        sph = self.measure(config("nested-global", "pairs", touched=2, n=64))["SoA"]
        self.assertAlmostEqual(sph["loop_index_fraction"], pairs["loop_index_fraction"], 2)
        self.assertGreater(sph["accumulators"], 1.9)
        # Through element pointers (pi = &a[i], pj = &a[j]), as the bundled
        # sph reaches them: flat in every layout, nothing loop-indexed.
        ptrs = self.measure(config("nested-pointer", "pairs", touched=2, n=64))["SoA"]
        self.assertLess(ptrs["loop_index_fraction"], 0.05)
        self.assertGreater(ptrs["accumulators"], 1.9)
        configs = list(microbench.configurations(True, microbench.FLAG_SETS))
        self.assertTrue(all(c["touched"] % 2 == 0 for c in configs if c["body"] == "pairs"))
        bodies = {(c["pattern"], c["body"]) for c in configs}
        self.assertIn(("nested", "pairs"), bodies)
        self.assertIn(("nested-pointer", "pairs"), bodies)
        self.assertNotIn(("stream", "pairs"), bodies)
        self.assertIn(("nested", "sqrt"), bodies)
        self.assertNotIn(("stream", "sqrt"), bodies)
        self.assertIn(("nested", "forces"), bodies)
        self.assertNotIn(("gather", "forces"), bodies)
        self.assertNotIn(("nested", "reduction"), bodies)


if __name__ == "__main__":
    sys.argv[1:] = sys.argv[3:]
    sys.exit(0 if unittest.main(exit=False, verbosity=2).result.wasSuccessful() else 1)
