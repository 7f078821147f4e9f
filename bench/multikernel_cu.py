#!/usr/bin/env python3
"""Several CUDA kernels over one record: split plans against the whole record tiled.

mosquito-cu's oracle is the whole record in tiles of 128, 6 % ahead of the
automatic plan, which splits it into ten arrays; the calibration times one
cluster at a time and cannot show that. This measures the question on
records that are not mosquito: each shape is a record of 12 or 16 floats
and a time step of several kernels, each kernel reading a group of fields
(disjoint or overlapping) and writing some of them (every one it reads, one,
none, or one under a data-dependent branch, as agent models do). Each shape
runs in AoS, SoA, its automatic plan and the whole record Tiled(128) and
Tiled(1024), every layout written by dl-refactor.

In two steps, as device_run.py, because the machine that rewrites is not
the one with the GPU:

  --prepare DIR    writes DIR/SHAPE/{aos,soa,auto,t128,t1024}.cu (needs
                   dl-refactor and nvcc's headers, no GPU);
  --run DIR --out RESULTS.json    on the GPU machine (nvcc and Python's
                   standard library): builds them, runs every program
                   --rounds times, interleaved in a shuffled order, and
                   keeps each run's kernel time (CUDA events, 100 steps
                   after 2 of warm-up, on stderr) and output;
  --report RESULTS.json    the table: each layout's median kernel time over
                   the fastest layout's (1.000: the fastest), and whether
                   every layout printed the same.

usage: multikernel_cu.py --prepare DIR [--dl-refactor PATH] [--shapes a,b]
       multikernel_cu.py --run DIR --out RESULTS.json [--rounds 4] [--deadline S]
       multikernel_cu.py --report RESULTS.json
"""
import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

FLAGS = ["-O3", "-arch=sm_90"]
N = 1 << 22  # 16 MB per float field: the record is past the 60 MB L2
STEPS = 100
LAYOUTS = {"soa": "soa", "t128": "tiled:128", "t1024": "tiled:1024"}


def every(groups):
    """Kernels that write every field they read."""
    return [(g, g, []) for g in groups]


# Shape -> (fields, kernels); a kernel is (reads, writes, written under a branch).
SHAPES = {
    "12-each-1": (12, every([[k] for k in range(12)])),
    "12-pairs": (12, every([[2 * k, 2 * k + 1] for k in range(6)])),
    "12-triples": (12, every([[3 * k + j for j in range(3)] for k in range(4)])),
    "12-quads": (12, every([[4 * k + j for j in range(4)] for k in range(3)])),
    "12-halves": (12, every([list(range(6)), list(range(6, 12))])),
    "12-three-pairs": (12, every([[0, 1], [2, 3], [4, 5]])),
    "12-overlapping": (12, every([[0, 1, 2, 3, 11], [4, 5, 0], [6, 7, 1, 2], [8, 9, 4],
                                  [10, 4, 5, 11]])),
    "8-pairs": (8, every([[2 * k, 2 * k + 1] for k in range(4)])),
    "16-pairs": (16, every([[2 * k, 2 * k + 1] for k in range(8)])),
    "16-quads": (16, every([[4 * k + j for j in range(4)] for k in range(4)])),
    "12-read3-write1": (12, [([3 * k, 3 * k + 1, 3 * k + 2], [3 * k], []) for k in range(4)]),
    "12-read5-write1": (12, [([0, 1, 2, 3, 11], [0], []), ([4, 5, 0, 1, 2], [4], []),
                             ([6, 7, 1, 2, 9], [6], []), ([8, 9, 4, 10, 3], [8], []),
                             ([10, 4, 5, 11, 7], [10], [])]),
    "12-read3-branch": (12, [([3 * k, 3 * k + 1, 3 * k + 2], [3 * k], [3 * k + 1])
                             for k in range(4)]),
    "12-agents": (12, [([0, 1, 4, 5], [0], [1]), ([4, 5, 9], [4], [5]),
                       ([2, 3, 4, 9], [2], [3, 5]), ([6, 7, 8, 10], [6], []),
                       ([4, 10, 11], [10], [11])]),
    "12-read4-branch-only": (12, [([4 * k + j for j in range(4)], [], [4 * k])
                                  for k in range(3)]),
}


def kernel(k, reads, writes, branch):
    s = " + ".join(f"m[i].f{a}" for a in reads)
    body = "".join(f"  m[i].f{a} = m[i].f{a} * 0.5f + s * {0.1 + 0.01 * a:.2f}f;\n"
                   for a in writes)
    if branch:
        body += ("  if (s > 5.5f) {\n" +
                 "".join(f"    m[i].f{a} = s * 0.25f;\n" for a in branch) + "  }\n")
    return (f"__global__ void k{k}(R *m, int n) {{\n"
            f"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            f"  if (i >= n)\n    return;\n  float s = {s};\n{body}}}\n")


def program(fields, kernels):
    """The shape in AoS, as users write it: a host array filled and copied
    to the device, the kernels launched STEPS times, the record copied back
    and summed."""
    decl = "".join(f"  float f{k};\n" for k in range(fields))
    init = "".join(f"    a[i].f{k} = (float)((i * {k + 3}) % 17) * 0.125f;\n"
                   for k in range(fields))
    step = "".join(f"    k{k}<<<(n + 255) / 256, 256>>>(d, n);\n" for k in range(len(kernels)))
    total = " + ".join(f"a[i].f{k}" for k in range(fields))
    return f"""#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

struct R {{
{decl}}};

{"".join(kernel(k, *spec) for k, spec in enumerate(kernels))}
int main(void) {{
  int n = {N};
  R *a = (R *)malloc((size_t)n * sizeof(R));
  for (int i = 0; i < n; ++i) {{
{init}  }}
  R *d;
  if (cudaMalloc((void **)&d, (size_t)n * sizeof(R)) != cudaSuccess)
    return 1;
  cudaMemcpy(d, a, (size_t)n * sizeof(R), cudaMemcpyHostToDevice);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int s = 0; s < 2; ++s) {{
{step}  }}
  cudaEventRecord(start);
  for (int s = 0; s < {STEPS}; ++s) {{
{step}  }}
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  if (cudaGetLastError() != cudaSuccess)
    return 1;
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaMemcpy(a, d, (size_t)n * sizeof(R), cudaMemcpyDeviceToHost);
  double c = 0;
  for (int i = 0; i < n; ++i)
    c += {total};
  printf("checksum %.6e\\n", c);
  fprintf(stderr, "kernel seconds: %.6f\\n", ms / 1000.0f);
  cudaFree(d);
  free(a);
  return 0;
}}
"""


def prepare_one(dl_refactor, root, name):
    fields, kernels = SHAPES[name]
    work = os.path.join(root, name)
    os.makedirs(work, exist_ok=True)
    src = program(fields, kernels)
    with open(os.path.join(work, "aos.cu"), "w") as f:
        f.write(src)
    for variant, layout in [*LAYOUTS.items(), ("auto", None)]:
        path = os.path.join(work, variant + ".cu")
        with open(path, "w") as f:
            f.write(src)
        forced = [f"--layout=R={layout}"] if layout else []
        r = subprocess.run([dl_refactor, "--apply", "--quiet", *forced, path, "--", *FLAGS],
                           capture_output=True, text=True)
        if r.returncode:
            return f"{name} {variant}: dl-refactor failed: {r.stderr[-1000:]}"
    report = subprocess.run([dl_refactor, "--report", os.path.join(work, "aos.cu"), "--",
                             *FLAGS], capture_output=True, text=True).stdout
    plan = re.search(r"plan: R: (.*?)(?: \(model|$)", report, re.M)
    return dict(plan=plan.group(1) if plan else "kept")


def prepare(o):
    shapes = o.shapes.split(",") if o.shapes else list(SHAPES)
    unknown = [s for s in shapes if s not in SHAPES]
    if unknown:
        print(f"multikernel_cu.py: no such shape: {', '.join(unknown)} "
              f"(shapes: {', '.join(SHAPES)})", file=sys.stderr)
        return 2
    os.makedirs(o.prepare, exist_ok=True)
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = dict(zip(shapes, pool.map(lambda s: prepare_one(o.dl_refactor, o.prepare, s),
                                         shapes)))
    errors = [d for d in done.values() if isinstance(d, str)]
    for e in errors:
        print(f"multikernel_cu.py: {e}", file=sys.stderr)
    with open(os.path.join(o.prepare, "manifest.json"), "w") as f:
        json.dump(done, f, indent=1)
    return 1 if errors else 0


def run(o):
    start = time.monotonic()
    with open(os.path.join(o.run, "manifest.json")) as f:
        shapes = [s for s, e in json.load(f).items() if isinstance(e, dict)]
    variants = ["aos", *LAYOUTS, "auto"]
    jobs = [(s, v) for s in shapes for v in variants]

    def build(job):
        exe = os.path.join(o.run, *job)
        r = subprocess.run(["nvcc", *FLAGS, exe + ".cu", "-o", exe], capture_output=True,
                           text=True)
        if r.returncode:
            print(f"multikernel_cu.py: {exe}.cu does not build: {r.stderr[-1000:]}",
                  file=sys.stderr)
        return job, r.returncode == 0
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        jobs = [j for j, ok in pool.map(build, jobs) if ok]
    results = {}
    for _ in range(o.rounds):
        random.shuffle(jobs)
        for shape, variant in jobs:
            if o.deadline and time.monotonic() - start > o.deadline:
                break
            e = results.setdefault(shape, {}).setdefault(variant, dict(kernel=[], outputs=[]))
            try:
                r = subprocess.run([os.path.join(o.run, shape, variant)],
                                   capture_output=True, text=True, timeout=120)
            except subprocess.TimeoutExpired:
                if "timed out" not in e["outputs"]:
                    e["outputs"].append("timed out")
                continue
            seconds = re.search(r"kernel seconds: ([0-9.]+)", r.stderr)
            if r.returncode == 0 and seconds:
                e["kernel"].append(float(seconds.group(1)))
            out = r.stdout if r.returncode == 0 else f"exit {r.returncode}: {r.stdout}"
            if out not in e["outputs"]:
                e["outputs"].append(out)
        with open(o.out, "w") as f:  # kept as it goes: a deadline keeps what ran
            json.dump(results, f, indent=1)
    return 0


def report(o):
    with open(o.report) as f:
        results = json.load(f)
    print("Kernel time over the fastest layout's (medians; 1.000: the fastest).\n")
    print("| shape | kernels | AoS | SoA | automatic | Tiled(128) | Tiled(1024) | same output |")
    print("|---|---|---|---|---|---|---|---|")
    for shape, by in results.items():
        med = {v: statistics.median(e["kernel"]) for v, e in by.items() if e["kernel"]}
        best = min(med.values(), default=None)
        cell = lambda v: f"{med[v] / best:.3f}" if v in med else "-"
        same = len({out for e in by.values() for out in e["outputs"]}) == 1
        kernels = len(SHAPES[shape][1]) if shape in SHAPES else "?"
        print(f"| {shape} | {kernels} | {cell('aos')} | {cell('soa')} | "
              f"{cell('auto')} | {cell('t128')} | {cell('t1024')} | {'yes' if same else 'NO'} |")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prepare", metavar="DIR")
    ap.add_argument("--run", metavar="DIR")
    ap.add_argument("--out")
    ap.add_argument("--report", metavar="RESULTS")
    ap.add_argument("--shapes", help="prepare only these shapes (comma-separated)")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--deadline", type=float, help="stop starting runs after this many seconds")
    ap.add_argument("--dl-refactor", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "bin", "dl-refactor"))
    o = ap.parse_args()
    if o.prepare:
        sys.exit(prepare(o))
    if o.run and o.out:
        sys.exit(run(o))
    if o.report:
        sys.exit(report(o))
    ap.error("--prepare DIR, --run DIR --out RESULTS.json, or --report RESULTS.json")


if __name__ == "__main__":
    main()
