#!/usr/bin/env python3
"""Times two programs against each other: warm-up run discarded, then N
interleaved runs each; prints the medians and the speedup of the second over
the first, and whether their outputs are identical.

usage: compare.py [--runs N] BASELINE CANDIDATE [-- ARGS]
"""
import argparse
import statistics
import subprocess
import time


def timed(cmd):
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("baseline")
    ap.add_argument("candidate")
    ap.add_argument("args", nargs="*")
    o = ap.parse_args()
    base, cand = [o.baseline, *o.args], [o.candidate, *o.args]
    _, base_out = timed(base)  # warm-up
    _, cand_out = timed(cand)
    tb, tc = [], []
    for _ in range(o.runs):
        tb.append(timed(base)[0])
        tc.append(timed(cand)[0])
    mb, mc = statistics.median(tb), statistics.median(tc)
    same = "identical output" if base_out == cand_out else "OUTPUT DIFFERS"
    print(f"  baseline {mb:.3f} s, rewritten {mc:.3f} s (medians of {o.runs} "
          f"interleaved runs): speedup {mb / mc:.2f}x, {same}")
    return 0 if base_out == cand_out else 1


if __name__ == "__main__":
    raise SystemExit(main())
