"""Writes two benchmark JSONs as run_benchmarks.py writes them: BASE with
programs a and b, NEW with b measured again and c, each with two flag
sets; the times say which run they came from (1.x s the base, 2.x s the
new one)."""
import json
import sys

FLAGS = ["-O3 -march=native", "-O3 -march=native -ffast-math"]


def report(programs, base, triad):
    rows = [dict(program=p, flags=f, aos=base + 0.4, auto=base + 0.2, oracle=base + 0.1,
                 plan=f"R: {{x}} SoA ({p})", oracle_plan="the automatic plan",
                 oracle_spec="soa", tried=3, other=None, other_plan=None, search_s=10.0,
                 search_estimated=True, tuned=None, tune_s=None, tune_plan=None,
                 tune_report=None, profiled=None, profiled_plan=None)
            for p in programs for f in FLAGS]
    bw = [dict(program=p, flags=f, aos=1.0, auto=base, over="the whole run")
          for p in programs for f in FLAGS]
    return {"machine": "test machine", "compiler": "cc", "runs": 5, "rows": rows,
            "handwritten": [], "triad_gb_s": triad, "bandwidth": bw}


with open(sys.argv[1], "w") as f:
    json.dump(report(["a", "b"], 1.0, 10.0), f)
with open(sys.argv[2], "w") as f:
    json.dump(report(["b", "c"], 2.0, 20.0), f)
