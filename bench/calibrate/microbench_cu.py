#!/usr/bin/env python3
"""Microbenchmarks for calibrating dlopt's decision tree for CUDA kernels.

The CUDA counterpart of microbench_cl.py, in two steps because the machine
that rewrites (clang, dl-refactor) is not the one with the GPU:

  --prepare DIR   writes each configuration's program into DIR, every
                  layout written by dl-refactor itself (host and kernels,
                  the whole-program strategy), and DIR/manifest.json with
                  the features the analysis reports for the cluster of the
                  touched fields; needs nvcc's headers, no GPU.
  bench/device_run.py DIR ...   builds them with nvcc and runs each once on
                  the GPU, saving what each printed (results.json).
  --collect RESULTS --prepared DIR --out CSV   the measurements, in the
                  CSV that train.py reads (a configuration whose layouts
                  disagree on the checksum is left out, with the reason).

Each configuration is one CUDA program written the way users write them,
in AoS form: a host array of a record of FIELDS fields, cudaMalloc'd,
copied with cudaMemcpy, and a kernel of one thread per element (a grid of
blocks of 256) that reads the first TOUCHED fields of its element (`a[i]`,
`a[i + base]` or `a[idx[i]]`) and writes the first one; or, nested
(n-body's pattern), reads those fields of every element for its own and
writes its result to a separate array (or, accumulate, adds into its own
element of a second array, as lavaMD does). The program holds one record
and kernel per layout. Times are of the kernels alone (CUDA events), ns per
element (per pair, nested), medians of 6 timings after a warm-up; the
layouts of a configuration run one after the other in one process.

usage: microbench_cu.py --prepare DIR [--dl-refactor PATH] [--quick] [--bodies a,b]
                         [--patterns a,b]
       microbench_cu.py --collect RESULTS.json --prepared DIR --out CSV
"""
import argparse
import csv
import itertools
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import microbench as mb
import microbench_cl as mbcl

# walk: each thread reads WALK consecutive elements from a start of its own
# drawn from idx (RSBench's poles of a window): a gather across the warp.
PATTERNS = ["stream", "offset", "gather", "walk", "nested"]
WALK = 8
# readout: the touched fields only read, the result written to a separate
# array; readmath: the same through libm (Black-Scholes' inputs and its
# pricing). Added after the first H100 run of models/nvidia-h100.json.
BODIES = ["elementwise", "libm", "readout", "readmath", "forces", "pairs", "accumulate"]
NESTED_ONLY = ("forces", "pairs", "accumulate")
# Tiles in multiples of a warp (32 threads).
TILES = [32, 64, 128]
REPETITIONS = 7  # the first is a warm-up
FLAGS = "-O3 -arch=sm_90"


def configurations(quick, bodies=None, patterns=None):
    """Shapes of microbench.py at GPU sizes: 2^22 elements for the
    element-wise patterns (past the 50 MB L2 of an H100 for records of 4
    fields or more), 2^14 for the nested ones (2^28 pairs)."""
    shapes = [(2, 4), (4, 4), (8, 4), (16, 4), (4, 8), (8, 8)]
    if not quick:
        shapes += [(12, 4)]
    combos = [("stream", "elementwise"), ("stream", "libm"), ("stream", "readout"),
              ("stream", "readmath"),
              ("offset", "elementwise"),
              ("gather", "elementwise"), ("gather", "readout"), ("walk", "readout"),
              ("nested", "elementwise"),
              ("nested", "forces"), ("nested", "pairs"), ("nested", "accumulate")]
    for (fields, fbytes), (pattern, body) in itertools.product(shapes, combos):
        if (bodies and body not in bodies) or (patterns and pattern not in patterns):
            continue
        n = 1 << 14 if pattern == "nested" else 1 << 22
        for touched in sorted({1, 2, fields // 2, fields}):
            if body == "pairs" and touched % 2:
                continue
            if 1 <= touched <= fields:
                yield dict(cflags=FLAGS, fields=fields, field_bytes=fbytes,
                           touched=touched, pattern=pattern, body=body, n=n)


def kernel(c, r):
    T = "float" if c["field_bytes"] == 4 else "double"
    acc = f", R{r} *acc" if c["body"] == "accumulate" else ""
    head = (f"__global__ void kernel{r}(R{r} *a, const int *idx, {T} *out, int n, "
            f"int base{acc}) {{\n"
            f"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            f"  if (i >= n)\n    return;\n")
    if c["pattern"] == "walk":
        get = lambda f: f"a[k].f{f}"
        return head + (f"  int s = idx[i] - idx[i] % {WALK};\n  {T} acc = 0;\n"
                       f"  for (int k = s; k < s + {WALK}; ++k)\n"
                       f"    acc += {mb.value(c, get)};\n"
                       f"  out[i] = acc * 0.5f + 0.25f;\n}}\n")
    return mbcl.body(c, head, lambda x: f"rsqrtf({x})", mb.value)


def layout_run(c, r):
    """Host code for layout R: fill, copy in, time REPETITIONS batches of
    REPS launches, copy out, sum f0."""
    T = "float" if c["field_bytes"] == 4 else "double"
    init = "".join(f"    a[i].f{k} = ({T})((i * {k + 3}) % 17) * 0.125f + 1.0f;\n"
                   for k in range(c["touched"]))
    accum = c["body"] == "accumulate"
    zero = "".join(f"    b[i].f{k} = 0;\n" for k in range(c["touched"]))
    acc_in = (f"  R{r} *b = (R{r} *)malloc((size_t)N * sizeof(R{r}));\n"
              f"  for (int i = 0; i < N; ++i) {{\n{zero}  }}\n"
              f"  R{r} *db;\n"
              f"  CHECK(cudaMalloc((void **)&db, (size_t)N * sizeof(R{r})));\n"
              f"  CHECK(cudaMemcpy(db, b, (size_t)N * sizeof(R{r}), "
              f"cudaMemcpyHostToDevice));\n") if accum else ""
    acc_out = (f"  CHECK(cudaMemcpy(b, db, (size_t)N * sizeof(R{r}), "
               f"cudaMemcpyDeviceToHost));\n"
               f"  for (int i = 0; i < N; ++i)\n    a[i].f0 = b[i].f0;\n"
               f"  CHECK(cudaFree(db));\n  free(b);\n") if accum else ""
    extra = ", db" if accum else ""
    # readout, readmath: the kernel's result is in d_out, not in the record.
    read_out = (f"  {T} *o = ({T} *)malloc((size_t)N * sizeof({T}));\n"
                f"  CHECK(cudaMemcpy(o, d_out, (size_t)N * sizeof({T}), "
                f"cudaMemcpyDeviceToHost));\n"
                f"  for (int i = 0; i < N; ++i)\n    *sum += o[i];\n  free(o);\n"
                ) if c["body"] in mbcl.READ_ONLY else ""
    return f"""static void run{r}(double *times, double *sum) {{
  R{r} *a = (R{r} *)malloc((size_t)N * sizeof(R{r}));
  for (int i = 0; i < N; ++i) {{
{init}  }}
{acc_in}  R{r} *d;
  CHECK(cudaMalloc((void **)&d, (size_t)N * sizeof(R{r})));
  CHECK(cudaMemcpy(d, a, (size_t)N * sizeof(R{r}), cudaMemcpyHostToDevice));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (int rep = 0; rep < R; ++rep) {{
    CHECK(cudaEventRecord(start));
    for (int k = 0; k < REPS; ++k)
      kernel{r}<<<(N + 255) / 256, 256>>>(d, d_idx, d_out, N, 0{extra});
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times[rep] = ms * 1e6;
  }}
  CHECK(cudaMemcpy(a, d, (size_t)N * sizeof(R{r}), cudaMemcpyDeviceToHost));
{acc_out}{read_out}  for (int i = 0; i < N; ++i)
    *sum += a[i].f0;
  CHECK(cudaFree(d));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  free(a);
}}
"""


def program(c, names):
    T = "float" if c["field_bytes"] == 4 else "double"
    N, L = c["n"], len(names)
    nested = c["pattern"] == "nested"
    work = N * N if nested else N * WALK if c["pattern"] == "walk" else N
    # About 2^26 element reads (2^28 pairs nested) per timing.
    reps = max(1, (1 << 26) // work)
    fields = "".join(f"  {T} f{k};\n" for k in range(c["fields"]))
    out = [f"""#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#define N {N}
#define REPS {reps}
#define R {REPETITIONS}
#define CHECK(call) \\
  do {{ \\
    cudaError_t err_ = (call); \\
    if (err_ != cudaSuccess) {{ \\
      fprintf(stderr, "line %d: CUDA error: %s\\n", __LINE__, cudaGetErrorString(err_)); \\
      exit(1); \\
    }} \\
  }} while (0)
static int *d_idx;
static {T} *d_out;
"""]
    for r in range(L):
        out.append(f"struct R{r} {{\n{fields}}};\n\n" + kernel(c, r) + "\n" + layout_run(c, r))
    runs = "".join(f"  run{r}(times[{r}], &sums[{r}]);\n" for r in range(L))
    shuffle = mb.C_SHUFFLE.replace("malloc(", "(int *)malloc(")  # C++: no void * casts
    out.append(mb.C_CMP + "int main(void) {\n" + shuffle + f"""  CHECK(cudaMalloc((void **)&d_idx, (size_t)N * sizeof(int)));
  CHECK(cudaMemcpy(d_idx, idx, (size_t)N * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMalloc((void **)&d_out, (size_t)N * sizeof({T})));
  enum {{ L = {L} }};
  static double times[L][R], sums[L];
  static const char *names[L] = {{{", ".join('"%s"' % n for n in names)}}};
{runs}""" + mb.c_report(work) + "  free(idx);\n  return 0;\n}\n")
    return "".join(out)


def prepare_one(c, i, dl_refactor, root):
    """Writes configuration I, rewritten, into ROOT/cI/mb.cu: its manifest
    entry, or an error string."""
    plans = mb.layouts(c, TILES)
    names = list(plans)
    work = os.path.join(root, f"c{i}")
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "mb.cu")
    with open(src, "w") as f:
        f.write(program(c, names))
    forced = [f"--layout=R{r}={plans[n]}" for r, n in enumerate(names)]
    try:
        features = mb.analysed_features(c, dl_refactor, src, forced,
                                        f"R{names.index('SoA')}")
    except subprocess.CalledProcessError as e:
        return f"c{i}: dl-refactor --report failed: {e.stderr[-2000:]}"
    except ValueError as e:
        return f"c{i}: {e}"
    apply = subprocess.run([dl_refactor, "--apply", "--quiet", *forced, src, "--",
                            *FLAGS.split()], capture_output=True, text=True)
    if apply.returncode:
        return f"c{i}: dl-refactor --apply failed: {apply.stderr[-2000:]}"
    return dict(id=f"c{i}", config=c, features={f: features[f] for f in mb.FEATURES},
                src=f"c{i}/mb.cu")


def prepare(o):
    bodies = o.bodies.split(",") if o.bodies else None
    unknown = set(bodies or []) - set(BODIES)
    if unknown:
        print(f"microbench_cu.py: no such body: {', '.join(sorted(unknown))} "
              f"(bodies: {', '.join(BODIES)})", file=sys.stderr)
        return 2
    patterns = o.patterns.split(",") if o.patterns else None
    configs = list(configurations(o.quick, bodies, patterns))
    os.makedirs(o.prepare, exist_ok=True)
    with ThreadPoolExecutor(max_workers=o.jobs) as pool:
        done = list(pool.map(lambda ic: prepare_one(ic[1], ic[0], o.dl_refactor, o.prepare),
                             enumerate(configs)))
    errors = [d for d in done if isinstance(d, str)]
    for e in errors:
        print(f"microbench_cu.py: {e}", file=sys.stderr)
    entries = [d for d in done if not isinstance(d, str)]
    with open(os.path.join(o.prepare, "manifest.json"), "w") as f:
        json.dump(dict(kind="calibration", flags=FLAGS, entries=entries), f, indent=1)
    print(f"{len(entries)} configurations prepared in {o.prepare}")
    return 1 if errors else 0


def collect(o):
    with open(os.path.join(o.prepared, "manifest.json")) as f:
        entries = {e["id"]: e for e in json.load(f)["entries"]}
    with open(o.collect) as f:
        results = json.load(f)["calibration"]
    rows, left_out = [], 0
    for cid, res in sorted(results.items(), key=lambda kv: int(kv[0][1:])):
        e = entries[cid]
        if res.get("returncode") != 0:
            print(f"microbench_cu.py: {cid} {e['config']}: failed: {res.get('stderr', '')[-500:]}",
                  file=sys.stderr)
            left_out += 1
            continue
        # nvcc contracts multiply-adds (--fmad=true) as -ffast-math lets
        # gcc: the checksums agree within same()'s tolerance for it.
        mine = mb.output_rows(e["config"], e["features"], res["stdout"], "-ffast-math",
                              f"microbench_cu.py: {cid}")
        if mine is None:
            left_out += 1
            continue
        rows += mine
    mb.write_rows(rows, o.out)
    print(f"{len(rows)} measurements of {len(results) - left_out} configurations -> {o.out}")
    return 1 if left_out else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prepare", metavar="DIR")
    ap.add_argument("--collect", metavar="RESULTS")
    ap.add_argument("--prepared", metavar="DIR")
    ap.add_argument("--out")
    ap.add_argument("--dl-refactor", default=mb.default_dl_refactor())
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--bodies", help="prepare only the configurations of these "
                    "bodies (comma-separated), to add to an earlier run's CSV")
    ap.add_argument("--patterns", help="prepare only the configurations of these "
                    "access patterns (comma-separated)")
    ap.add_argument("--jobs", type=int, default=2)
    o = ap.parse_args()
    if o.prepare:
        sys.exit(prepare(o))
    if o.collect and o.prepared and o.out:
        sys.exit(collect(o))
    ap.error("--prepare DIR, or --collect RESULTS --prepared DIR --out CSV")


if __name__ == "__main__":
    main()
