#!/usr/bin/env python3
"""Microbenchmarks for calibrating dlopt's decision tree on this machine.

One generated C program per configuration: a record of FIELDS fields of one
type, a loop of N iterations that reads the first TOUCHED fields and writes
the first one, streaming (a[i]), streaming from an offset (a[i + base]: the
rewriter cannot strip-mine it, so a tiled layout divides) or gathered
(a[idx[i]]), with an elementwise body, one that calls sinf() (a libm call,
which keeps the loop scalar unless -ffast-math lets the compiler call the
vector math library) or one that sums the fields into a scalar (a
reduction: scalar without -ffast-math, and once vectorized it ends every
strip-mined tile with a horizontal sum), built with each of the flag sets
given. Each program
times the touched fields ("the cluster") in every layout the rewriter
generates:

  AoS       the cluster as one small record (the whole record if TOUCHED
            is all fields; otherwise a hot/cold split)
  SoA       one array per field
  Tiled(T)  arrays of tiles of T elements per field, loops strip-mined into
            tile and lane loops as dl-refactor writes them

plus the original interleaved record ("original"), for the heat map. The
cold fields live in their own array and are not touched, as after a split.
Times are ns per loop iteration, medians of interleaved repetitions.

usage: microbench.py --out measurements.csv [--cc CC] [--cflags FLAGS]...
                     [--bodies elementwise,libm,reduction] [--quick]
"""
import argparse
import csv
import itertools
import os
import shutil
import subprocess
import sys
import tempfile

TILES = [2 ** k for k in range(1, 16)]
PATTERNS = {"stream": "i", "offset": "i + base", "gather": "idx[i]"}
BODIES = ["elementwise", "libm", "reduction"]
FLAG_SETS = ["-O3 -march=native", "-O3 -march=native -ffast-math"]
REPETITIONS = 7  # the first is a warm-up

COLUMNS = ["cflags", "fields", "field_bytes", "touched", "written", "pattern", "body",
           "n", "layout", "ns_per_iter"]


def configurations(quick, flag_sets, bodies=BODIES):
    shapes = [(2, 4), (4, 4), (8, 4), (12, 4), (16, 4), (4, 8), (8, 8)]
    if not quick:
        shapes += [(24, 4), (2, 8), (16, 8)]
    sizes = [1 << 12, 1 << 20] if quick else [1 << 10, 1 << 14, 1 << 18, 1 << 22]
    for cflags, (fields, fbytes), pattern, body, n in itertools.product(
            flag_sets, shapes, PATTERNS, bodies, sizes):
        for touched in sorted({1, 2, fields // 2, fields}):
            if 1 <= touched <= fields:
                yield dict(cflags=cflags, fields=fields, field_bytes=fbytes,
                           touched=touched, written=0 if body == "reduction" else 1,
                           pattern=pattern, body=body, n=n)


def body(c, get):
    """The loop body over element j: get(k) spells field k of element j."""
    terms = " + ".join(f"{get(k)} * {1.0 + k / 8:.3f}f" for k in range(c["touched"]))
    value = f"({terms})"
    if c["body"] == "reduction":
        return f"acc += {value};"
    if c["body"] == "libm":
        value = f"sinf({value})"
    return f"{get(0)} = {value} * 0.5f + 0.25f;"


def program(c, tiles):
    T = "float" if c["field_bytes"] == 4 else "double"
    F, K, N = c["fields"], c["touched"], c["n"]
    stream = c["pattern"] == "stream"
    # About 2^22 elementwise or 2^19 libm iterations per timing: long
    # enough for the clock, short enough for a sweep of hundreds.
    reps = max(1, (1 << (19 if c["body"] == "libm" else 22)) // N)
    fl = lambda names: "".join(f"  {T} {x};\n" for x in names)
    hot = [f"f{k}" for k in range(K)]
    cold = [f"f{k}" for k in range(K, F)]
    out = [f"""#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define N {N}
#define REPS {reps}
static int idx[N];
static volatile int zero; /* a[i + base]: an offset the compiler cannot see */
static volatile {T} sink;  /* where a reduction's result goes */
static double now(void) {{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}}
struct Rec {{
{fl([f"f{k}" for k in range(F)])}}};
struct Hot {{
{fl(hot)}}};
"""]
    if cold:
        out.append(f"struct Cold {{\n{fl(cold)}}};\nstatic struct Cold *cold;\n")
    out.append("static struct Rec *orig;\nstatic struct Hot *hot;\n")
    out.append("".join(f"static {T} *soa{k};\n" for k in range(K)))
    loop = "for (int i = 0; i < N; ++i) {\n    %s\n  }"
    J = PATTERNS[c["pattern"]]
    fns = {
        "original": loop % body(c, lambda k: f"orig[{J}].f{k}"),
        "AoS": loop % body(c, lambda k: f"hot[{J}].f{k}"),
        "SoA": loop % body(c, lambda k: f"soa{k}[{J}]"),
    }
    for t in tiles:
        if t > N:
            continue
        out.append(f"struct Tile{t} {{\n" +
                   "".join(f"  {T} f{k}[{t}];\n" for k in range(K)) +
                   f"}};\nstatic struct Tile{t} *tile{t};\n")
        if not stream:  # The flat form: a division per access.
            fns[f"Tiled({t})"] = loop % body(
                c, lambda k: f"tile{t}[({J}) / {t}].f{k}[({J}) % {t}]")
        else:  # Strip-mined, as dl-refactor rewrites a loop over tiles.
            fns[f"Tiled({t})"] = (
                f"for (int t = 0; t < N / {t}; ++t)\n"
                f"    for (int l = 0; l < {t}; ++l) {{\n"
                f"      {body(c, lambda k: f'tile{t}[t].f{k}[l]')}\n    }}")
    for name, code in fns.items():
        fn = name.replace("(", "_").replace(")", "")
        out.append(f"static void run_{fn}(void) {{\n  for (int r = 0; r < REPS; ++r) {{\n"
                   f"  int base = zero;\n  {T} acc = 0;\n  {code}\n  sink += acc;\n"
                   f"  }}\n}}\n")
    names = list(fns)
    allocs = [f"  orig = calloc(N, sizeof *orig);\n  hot = calloc(N, sizeof *hot);\n"]
    if cold:
        allocs.append("  cold = calloc(N, sizeof *cold);\n")
    allocs += [f"  soa{k} = calloc(N, sizeof *soa{k});\n" for k in range(K)]
    allocs += [f"  tile{t} = calloc(N / {t} + 1, sizeof *tile{t});\n"
               for t in tiles if t <= N]
    init = ("  unsigned s = 1;\n  for (int i = 0; i < N; ++i) idx[i] = i;\n"
            "  for (int i = N - 1; i > 0; --i) {\n"
            "    s = s * 1103515245u + 12345u;\n"
            "    int k = (int)((s >> 8) % (unsigned)(i + 1));\n"
            "    int x = idx[i]; idx[i] = idx[k]; idx[k] = x;\n  }\n")
    runs = "".join(f"    {{ double t0 = now(); run_{n.replace('(', '_').replace(')', '')}();"
                   f" times[{i}][r] = (now() - t0) / ((double)N * REPS); }}\n"
                   for i, n in enumerate(names))
    out.append(f"""static int cmp(const void *a, const void *b) {{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}}
int main(void) {{
{''.join(allocs)}{init}
  enum {{ L = {len(names)}, R = {REPETITIONS} }};
  static double times[L][R];
  static const char *names[L] = {{{", ".join('"%s"' % n for n in names)}}};
  for (int r = 0; r < R; ++r) {{
{runs}  }}
  for (int l = 0; l < L; ++l) {{
    qsort(times[l] + 1, R - 1, sizeof(double), cmp); /* run 0 is warm-up */
    printf("%s %.4f\\n", names[l], times[l][R / 2]);
  }}
  return 0;
}}
""")
    return "".join(out)


def measure(c, cc, tiles, work):
    src = os.path.join(work, "mb.c")
    exe = src[:-2]
    with open(src, "w") as f:
        f.write(program(c, tiles))
    subprocess.run([cc, *c["cflags"].split(), src, "-o", exe, "-lm"], check=True)
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        layout, t = line.rsplit(" ", 1)
        rows.append({**c, "layout": layout, "ns_per_iter": t})
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--cflags", action="append",
                    help="a flag set the programs are built with (repeatable; "
                    f"default: {' and '.join(repr(f) for f in FLAG_SETS)})")
    ap.add_argument("--bodies", default=",".join(BODIES),
                    help="the loop bodies measured (default: all)")
    ap.add_argument("--quick", action="store_true",
                    help="fewer shapes and loop lengths (half an hour instead of hours)")
    o = ap.parse_args()
    configs = list(configurations(o.quick, o.cflags or FLAG_SETS, o.bodies.split(",")))
    work = tempfile.mkdtemp(prefix="dlopt-calibrate-")
    rows = []
    # One at a time: timing runs must not share the machine.
    for i, c in enumerate(configs):
        rows += measure(c, o.cc, TILES, work)
        print(f"\r[{i + 1}/{len(configs)}]", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    with open(o.out, "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        w.writerows(rows)
    print(f"{len(rows)} measurements of {len(configs)} configurations -> {o.out}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
