#!/usr/bin/env python3
"""Tests of bench/calibrate/microbench_cu.py's read-only shapes: a gather
(`out[i] = f(a[idx[i]])`) and a walk (each thread reads 8 consecutive
elements from a start of its own) are written in every layout by
dl-refactor, labelled as gathers by the analysis, and compile with nvcc.
No GPU: the programs are built, not run.

usage: test_microbench_cu.py DL_REFACTOR NVCC
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "calibrate"))
import microbench_cu  # noqa: E402

DL_REFACTOR, NVCC = sys.argv[1], sys.argv[2]


def config(pattern, fields=4, field_bytes=8, touched=4):
    return dict(cflags=microbench_cu.FLAGS, fields=fields, field_bytes=field_bytes,
                touched=touched, pattern=pattern, body="readout", n=1 << 22)


class MicrobenchCudaTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="dlopt-microbench-cu-test-")

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def test_patterns_select_the_read_only_shapes(self):
        configs = list(microbench_cu.configurations(True, ["readout"], ["gather", "walk"]))
        self.assertEqual({(c["pattern"], c["body"]) for c in configs},
                         {("gather", "readout"), ("walk", "readout")})
        self.assertEqual(len(configs), 40)

    def test_walk_is_a_gather_and_builds(self):
        entry = microbench_cu.prepare_one(config("walk"), 0, DL_REFACTOR, self.work)
        self.assertIsInstance(entry, dict, entry)
        self.assertEqual(entry["features"]["gather_fraction"], 1)
        self.assertEqual(entry["features"]["write_fraction"], 0)
        src = os.path.join(self.work, entry["src"])
        with open(src) as f:
            text = f.read()
        self.assertIn("int s = idx[i] - idx[i] % 8;", text)
        self.assertIn("_soa", text)  # every layout rewritten by dl-refactor
        subprocess.run([NVCC, "-O0", "-arch=sm_90", "-c", src, "-o", src[:-3] + ".o"],
                       check=True)

    def test_gather_read_only(self):
        entry = microbench_cu.prepare_one(config("gather", touched=2), 1, DL_REFACTOR,
                                          self.work)
        self.assertIsInstance(entry, dict, entry)
        self.assertGreater(entry["features"]["gather_fraction"], 0.9)
        with open(os.path.join(self.work, entry["src"])) as f:
            self.assertIn("out[i] = (a[idx[i]].f0", f.read())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
