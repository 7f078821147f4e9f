#!/usr/bin/env python3
"""Microbenchmarks for calibrating dlopt's decision tree on this machine.

Each configuration is one C program written the way users write them, in
AoS form: a record of FIELDS fields of one type, a kernel function taking
the array as a parameter, whose loop reads the first TOUCHED fields and
(unless it only sums them) writes the first one, called repeatedly from
main. dl-refactor itself writes every layout measured, so the timings are
of the code the tool emits, and the features each configuration is
labelled with are the ones the analysis computes for the cluster of the
touched fields (its JSON report), so the tree sees what it is trained on.

The program holds one copy of the record and kernel per layout (R0, R1,
...), each forced with --layout:

  original  the record left alone (for the heat map)
  AoS       the touched fields as one small record (a hot/cold split; the
            whole record when every field is touched)
  SoA       one array per touched field
  Tiled(T)  tiles of T elements per touched field; dl-refactor strip-mines
            the loops it can

Access patterns: `a[i]` (stream), `a[i + base]` (offset: affine but not
strip-minable, so tiles go through a division), `a[idx[i]]` (gather) and a
nested loop over all elements for each element (nested: an n-body-like
inner loop `acc += f(a[j] - a[i])` that writes `a[i]` after it; and
nested-global, the same loops bounded by a global count, as SPH codes
write them; strip-mined alike since the rewriter follows bounds kept in
memory that the body cannot change; and nested-pointer, the same loops
reaching the elements through element pointers pi = &a[i], pj = &a[j], as
SPH codes do, which the rewrite keeps flat). Bodies:
elementwise, one calling sinf() (libm: scalar unless -ffast-math lets the
compiler call the vector math library), a sum into a scalar (reduction:
scalar without -ffast-math) and, in nested loops, sqrtf() (sqrt: inlined,
but scalar with errno unless -ffast-math, as n-body's is) and n-body's
force sum (forces: one sqrtf and three accumulators), and SPH's pair loop
(pairs: the touched fields read in adjacent pairs, x with y, one division,
a sum per field of the pair, which the compiler may load and add as one
two-lane vector in AoS), and, in streams only, groups: the touched fields
in clusters of three (f0-f2, f3-f5, ...), each updated from the next
group's, every cluster given the layout measured (AoS: each group a small
record), as an integration step updates positions from velocities and
velocities from forces; labelled with the first group's features, whose
touched_fraction is then above its cluster_share (a loop that streams more
arrays than its cluster's: md-split's, where the model's mix of SoA and
tiled clusters ran 1.06-1.12x slower than all clusters tiled by 16). Every
layout must print the same
checksum as the original; a configuration where one does not is reported
and left out. Times are ns per innermost iteration, medians of interleaved
repetitions.

usage: microbench.py --out measurements.csv [--dl-refactor PATH] [--cc CC]
                     [--cflags FLAGS]... [--bodies elementwise,libm,reduction,sqrt,forces,pairs,groups]
                     [--patterns stream,offset,gather,nested,nested-global,nested-pointer] [--quick]
       microbench.py --relabel measurements.csv --out relabelled.csv
"""
import argparse
import csv
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile

from train import FEATURES

TILES = [2 ** k for k in range(1, 16)]
PATTERNS = ["stream", "offset", "gather", "nested", "nested-global",
            "nested-pointer"]
# Nested loops: over a parameter n, or over a count read from a global, as
# SPH codes loop (both strip-minable), or over n through element pointers
# (pi = &a[i], pj = &a[j]), as SPH codes reach the elements: the rewrite
# keeps those accesses flat (a division per access where tiled) and the
# analysis reports none as loop-indexed.
NESTED = ("nested", "nested-global", "nested-pointer")
BODIES = ["elementwise", "libm", "reduction", "sqrt", "forces", "pairs", "groups"]
# Groups: the touched fields in clusters of this many, in streams only, where
# at least two groups are touched.
GROUP = 3
# Bodies measured in nested loops only: n-body's and SPH's inner loops.
NESTED_ONLY = ("sqrt", "forces", "pairs")
FLAG_SETS = ["-O3 -march=native", "-O3 -march=native -ffast-math"]
REPETITIONS = 7  # the first is a warm-up

CONFIG = ["cflags", "fields", "field_bytes", "touched", "pattern", "body", "n"]
COLUMNS = CONFIG + FEATURES + ["layout", "ns_per_iter"]


def configurations(quick, flag_sets, patterns=PATTERNS, bodies=BODIES):
    shapes = [(2, 4), (4, 4), (8, 4), (12, 4), (16, 4), (4, 8), (8, 8)]
    if not quick:
        shapes += [(24, 4), (2, 8), (16, 8)]
    for cflags, (fields, fbytes), pattern, body in itertools.product(
            flag_sets, shapes, patterns, bodies):
        if body in NESTED_ONLY and pattern not in NESTED:
            continue
        if body == "groups" and pattern != "stream":
            continue
        if pattern in NESTED:
            if body == "reduction":  # The inner loop is one already.
                continue
            sizes = [1 << 8, 1 << 11] if quick else [1 << 7, 1 << 9, 1 << 11, 1 << 12]
        else:
            sizes = [1 << 12, 1 << 20] if quick else [1 << 10, 1 << 14, 1 << 18, 1 << 22]
        for n, touched in itertools.product(sizes, sorted({1, 2, fields // 2, fields})):
            if body == "pairs" and touched % 2:  # Pairs of fields.
                continue
            if body == "groups" and touched < 2 * GROUP:
                continue
            if 1 <= touched <= fields:
                yield dict(cflags=cflags, fields=fields, field_bytes=fbytes,
                           touched=touched, pattern=pattern, body=body, n=n)


def groups(c):
    """The touched fields' clusters: all of them, or GROUP at a time."""
    t = c["touched"]
    size = GROUP if c["body"] == "groups" else t
    return [list(range(k, min(k + size, t))) for k in range(0, t, size)]


def layouts(c, tiles):
    """Layout name -> the --layout plan for a record R."""
    hot = ["{%s}" % ",".join(f"f{k}" for k in g) for g in groups(c)]
    cold = "{%s}aos" % ",".join(f"f{k}" for k in range(c["touched"], c["fields"]))
    whole = c["touched"] == c["fields"] and len(hot) == 1
    rest = "" if c["touched"] == c["fields"] else cold
    spec = lambda l: l if whole else "split:" + "".join(h + l for h in hot) + rest
    out = {"original": "aos", "AoS": "aos" if whole else spec("aos"), "SoA": spec("soa")}
    for t in tiles:
        if t <= c["n"]:
            out[f"Tiled({t})"] = spec(f"tiled:{t}")
    return out


def value(c, get):
    """The expression over the touched fields of one element."""
    terms = " + ".join(f"{get(k)} * {1.0 + k / 8:.3f}f" for k in range(c["touched"]))
    if c["body"] in ("libm", "readmath"):
        return f"sinf({terms})"
    if c["body"] == "sqrt":
        return f"sqrtf(fabsf({terms}))"
    return f"({terms})"


class Nest:
    """How the nested loops reach the outer element i and the inner j: as
    a[i].f and a[j].f, or through element pointers pi->f and pj->f declared
    at the top of each loop's body."""

    def __init__(self, c, r):
        self.n = bound(c)
        ptr = c["pattern"] == "nested-pointer"
        self.i = (lambda k: f"pi->f{k}") if ptr else (lambda k: f"a[i].f{k}")
        self.j = (lambda k: f"pj->f{k}") if ptr else (lambda k: f"a[j].f{k}")
        self.decl_i = f"    struct R{r} *pi = &a[i];\n" if ptr else ""
        self.decl_j = f"      const struct R{r} *pj = &a[j];\n" if ptr else ""


def kernel(c, r):
    """The kernel over struct R<r>, as a user would write it."""
    T = "float" if c["field_bytes"] == 4 else "double"
    head = f"static void kernel{r}(struct R{r} *a, const int *idx, int n, int base) {{\n"
    if c["body"] == "forces":
        return head + forces(c, T, Nest(c, r))
    if c["body"] == "pairs":
        return head + pairs(c, T, Nest(c, r))
    if c["pattern"] in NESTED:
        # As in n-body: the inner loop reads the outer element too.
        x = Nest(c, r)
        return head + (f"  for (int i = 0; i < {x.n}; ++i) {{\n{x.decl_i}    {T} acc = 0;\n"
                       f"    for (int j = 0; j < {x.n}; ++j) {{\n{x.decl_j}"
                       f"      acc += {value(c, lambda k: f'({x.j(k)} - {x.i(k)})')};\n"
                       f"    }}\n    {x.i(0)} = acc / n * 0.5f + 0.25f;\n  }}\n}}\n")
    j = {"stream": "i", "offset": "i + base", "gather": "idx[i]"}[c["pattern"]]
    get = lambda k: f"a[{j}].f{k}"
    if c["body"] == "groups":
        # Each field from its own and the next group's, in one loop.
        t = c["touched"]
        body = "".join(f"    {get(k)} = {get(k)} * 0.5f + {get((k + GROUP) % t)} * 0.25f;\n"
                       for k in range(t))
        return head + f"  for (int i = 0; i < n; ++i) {{\n{body}  }}\n}}\n"
    if c["body"] == "reduction":
        return head + (f"  {T} acc = 0;\n  for (int i = 0; i < n; ++i)\n"
                       f"    acc += {value(c, get)};\n  sink += acc;\n}}\n")
    return head + (f"  for (int i = 0; i < n; ++i)\n"
                   f"    {get(0)} = {value(c, get)} * 0.5f + 0.25f;\n}}\n")


def bound(c):
    """The nested loops' bound: the parameter, or the global count."""
    return "count" if c["pattern"] == "nested-global" else "n"


def forces(c, T, x):
    """n-body's inner loop: the distance to every other element, one sqrtf,
    and three accumulated components (a force). Strip-mined and vectorized,
    each tile ends with three horizontal reductions instead of sqrt's one."""
    k = range(c["touched"])
    d = "".join(f"      {T} d{i} = {x.j(i)} - {x.i(i)};\n" for i in k)
    r2 = " + ".join(f"d{i} * d{i}" for i in k)
    acc = "".join(f"      acc{i % 3} += d{i} * s;\n" for i in k)
    sqrt = "sqrtf" if T == "float" else "sqrt"
    return (f"  for (int i = 0; i < {x.n}; ++i) {{\n{x.decl_i}"
            f"    {T} acc0 = 0, acc1 = 0, acc2 = 0;\n"
            f"    for (int j = 0; j < {x.n}; ++j) {{\n{x.decl_j}{d}"
            f"      {T} s = 1.0f / {sqrt}({r2} + 1e-3f);\n{acc}    }}\n"
            f"    {x.i(0)} = (acc0 + acc1 + acc2) / n * 0.5f + 0.25f;\n  }}\n}}\n")


def pairs(c, T, x):
    """SPH's pair loop: per other element, the differences of each pair of
    fields (x and y), one division by the squared distance, and each
    difference summed into the accumulator of its place in the pair. In AoS
    the pair is adjacent, and the compiler may load, subtract and sum it as
    one two-lane vector where the sum over j does not vectorize (without
    -ffast-math): the case where a real SPH code lost with SoA. The
    softening is 1, not n-body's 1e-3: identical elements are common here,
    and with 1e-3 the FMA contractions that differ between layouts changed
    the checksum of half the configurations."""
    k = range(c["touched"])
    d = "".join(f"      {T} d{i} = {x.j(i)} - {x.i(i)};\n" for i in k)
    r2 = " + ".join(f"d{i} * d{i}" for i in k)
    acc = "".join(f"      acc{i % 2} += d{i} * w;\n" for i in k)
    return (f"  for (int i = 0; i < {x.n}; ++i) {{\n{x.decl_i}    {T} acc0 = 0, acc1 = 0;\n"
            f"    for (int j = 0; j < {x.n}; ++j) {{\n{x.decl_j}{d}"
            f"      {T} w = 1.0f / ({r2} + 1.0f);\n{acc}    }}\n"
            f"    {x.i(0)} = (acc0 + acc1) / n * 0.5f + 0.25f;\n  }}\n}}\n")


# C shared by the microbenchmark programs (microbench_cl.py's too).
# The median comparison for qsort.
C_CMP = """static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
"""
# idx, a fixed shuffle of 0..N-1: the order of the gather pattern.
C_SHUFFLE = """  int *idx = malloc(N * sizeof *idx);
  unsigned s = 1;
  for (int i = 0; i < N; ++i)
    idx[i] = i;
  for (int i = N - 1; i > 0; --i) {
    s = s * 1103515245u + 12345u;
    int k = (int)((s >> 8) % (unsigned)(i + 1));
    int x = idx[i];
    idx[i] = idx[k];
    idx[k] = x;
  }
"""


def c_interleaved(names, runs):
    """C that times the layouts NAMES in interleaved repetitions: RUNS, the
    statements of one repetition, fill times[l][rep] and sums[l]."""
    return f"""  enum {{ L = {len(names)}, R = {REPETITIONS} }};
  static double times[L][R], sums[L];
  static const char *names[L] = {{{", ".join('"%s"' % n for n in names)}}};
  for (int rep = 0; rep < R; ++rep) {{ /* interleaved */
{runs}  }}
"""


def c_report(iterations):
    """C that prints, per layout, its median ns per iteration (ITERATIONS
    per timing; run 0 is the warm-up) and its checksum."""
    return f"""  for (int l = 0; l < L; ++l) {{
    qsort(times[l] + 1, R - 1, sizeof(double), cmp); /* run 0 is warm-up */
    printf("%s %.4f %.9g\\n", names[l], times[l][R / 2] / ((double){iterations} * REPS),
           sums[l]);
  }}
"""


def program(c, names):
    T = "float" if c["field_bytes"] == 4 else "double"
    F, N = c["fields"], c["n"]
    inner = N * N if c["pattern"] in NESTED else N
    # About 2^22 elementwise or 2^19 libm iterations per timing (long
    # enough for the clock, short enough for a sweep of hundreds), and at
    # least 2 calls of a single loop, so that the one-off set-up below
    # weighs little in the features the analysis reports.
    least = 1 if c["pattern"] in NESTED else 2
    reps = max(least, (1 << (19 if c["body"] in ("libm", *NESTED_ONLY) else 22)) // inner)
    fields = "".join(f"  {T} f{k};\n" for k in range(F))
    out = [f"""#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define N {N}
#define REPS {reps}
static volatile int zero; /* a[i + base]: an offset the compiler cannot see */
static int count; /* nested-global: the loops' bound, a global (N) */
static volatile double sink; /* where reductions go */
static double now(void) {{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}}
"""]
    # Only the touched fields are initialized and checked: the others are
    # never accessed, as after a hot/cold split, and set-up loops over them
    # would enter the features.
    init = "".join(f"    a[i].f{k} = ({T})((i * {k + 3}) % 17) * 0.125f + 1.0f;\n"
                   for k in range(c["touched"]))
    for r in range(len(names)):
        out.append(f"struct R{r} {{\n{fields}}};\n")
        out.append(kernel(c, r))
        out.append(f"""static struct R{r} *make{r}(void) {{
  struct R{r} *a = malloc(N * sizeof *a);
  for (int i = 0; i < N; ++i) {{
{init}  }}
  return a;
}}
static double time{r}(struct R{r} *a, const int *idx, double *sum) {{
  sink = 0;
  double t0 = now();
  for (int rep = 0; rep < REPS; ++rep)
    kernel{r}(a, idx, N, zero);
  double t = now() - t0;
  *sum = sink;
  return t;
}}
static double check{r}(struct R{r} *a, double sum) {{
  for (int i = 0; i < N; ++i)
    sum += a[i].f0;
  free(a);
  return sum;
}}
""")
    L = len(names)
    make = "".join(f"  struct R{r} *a{r} = make{r}();\n" for r in range(L))
    runs = "".join(f"    times[{r}][rep] = time{r}(a{r}, idx, &sums[{r}]);\n"
                   for r in range(L))
    checks = "".join(f"  sums[{r}] = check{r}(a{r}, sums[{r}]);\n" for r in range(L))
    out.append(C_CMP + "int main(void) {\n  count = N;\n" + C_SHUFFLE + make + c_interleaved(names, runs)
               + checks + c_report(inner) + "  free(idx);\n  return 0;\n}\n")
    return "".join(out)


def same(a, b, cflags):
    """Checksums agree up to rounding: vectorized and scalar code may
    contract differently per layout, and with -ffast-math reassociate a
    float sum of a million terms in another order (about 1e-3 apart)."""
    tolerance = 1e-2 if "-ffast-math" in cflags.split() else 1e-4
    return abs(a - b) <= tolerance * max(abs(a), abs(b), 1.0)


def write_program(c, tiles, work):
    """Writes configuration C's program into WORK: its path, the --layout
    options that force each layout, and the name of the record forced to
    SoA."""
    plans = layouts(c, tiles)
    names = list(plans)
    src = os.path.join(work, "mb.c")
    with open(src, "w") as f:
        f.write(program(c, names))
    return (src, [f"--layout=R{r}={plans[n]}" for r, n in enumerate(names)],
            f"R{names.index('SoA')}")


def analysed_features(c, dl_refactor, src, forced, soa):
    """The features the analysis reports for the cluster of the touched
    fields (of record SOA, forced to SoA, whose clusters are the plan's).
    ValueError (with its blockers) when the record is not transformable."""
    report = subprocess.run([dl_refactor, "--report", "--format=json", *forced, src,
                             "--", *c["cflags"].split()],
                            check=True, capture_output=True, text=True)
    record = next(r for r in json.loads(report.stdout)["records"] if r["name"] == soa)
    if "clusters" not in record:
        raise ValueError(f"not transformable: {record.get('blockers')}")
    return next(cl["features"] for cl in record["clusters"] if "f0" in cl["fields"])


def measure(c, cc, dl_refactor, tiles, work):
    """The configuration's rows, or None when a layout changed the output."""
    src, forced, soa = write_program(c, tiles, work)
    flags = c["cflags"].split()
    features = analysed_features(c, dl_refactor, src, forced, soa)
    subprocess.run([dl_refactor, "--apply", "--quiet", *forced, src, "--", *flags],
                   check=True, capture_output=True)
    exe = src[:-2]
    subprocess.run([cc, *flags, src, "-o", exe, "-lm"], check=True)
    out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    return output_rows(c, features, out, c["cflags"], "microbench.py")


def output_rows(c, features, out, cflags, script):
    """The rows of configuration C from what its program printed (OUT: per
    layout its name, ns per iteration and checksum), labelled with FEATURES;
    or None, reported as SCRIPT's, when a layout's checksum differs from the
    original's by more than same() allows under CFLAGS."""
    rows, checks = [], {}
    for line in out.splitlines():
        layout, t, check = line.split(" ")
        checks[layout] = float(check)
        rows.append({**c, **{f: features[f] for f in FEATURES},
                     "layout": layout, "ns_per_iter": t})
    wrong = [l for l in checks if not same(checks[l], checks["original"], cflags)]
    if wrong:
        print(f"\n{script}: {c}: {', '.join(wrong)} changed the checksum; "
              "configuration left out", file=sys.stderr)
        return None
    return rows


def write_rows(rows, out):
    """The measurements as the CSV train.py reads."""
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        w.writerows(rows)


def default_dl_refactor():
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(here, "..", "..", "build", "bin", "dl-refactor")
    return built if os.path.exists(built) else shutil.which("dl-refactor")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--dl-refactor", default=default_dl_refactor(),
                    help="the dl-refactor that writes the layouts (default: build/bin)")
    ap.add_argument("--cflags", action="append",
                    help="a flag set the programs are built with (repeatable; "
                    f"default: {' and '.join(repr(f) for f in FLAG_SETS)})")
    ap.add_argument("--bodies", default=",".join(BODIES),
                    help="the loop bodies measured (default: all)")
    ap.add_argument("--patterns", default=",".join(PATTERNS),
                    help="the access patterns measured (default: all)")
    ap.add_argument("--quick", action="store_true",
                    help="fewer shapes and loop lengths (about an hour instead of hours)")
    ap.add_argument("--relabel", metavar="CSV",
                    help="measure nothing: label the measurements in CSV with the "
                    "features today's analysis reports (after a change to the "
                    "analysis), writing them to --out")
    o = ap.parse_args()
    if not o.dl_refactor:
        sys.exit("microbench.py: no dl-refactor (build it, or pass --dl-refactor)")
    if o.relabel:
        sys.exit(relabel(o.relabel, o.dl_refactor, o.out))
    configs = list(configurations(o.quick, o.cflags or FLAG_SETS,
                                  o.patterns.split(","), o.bodies.split(",")))
    sys.exit(sweep(configs, lambda c, work: measure(c, o.cc, o.dl_refactor, TILES, work),
                   o.out))


def relabel(measurements, dl_refactor, out):
    """Rewrites MEASUREMENTS into OUT with each configuration's features as
    the analysis reports them now; the timings are kept. The programs are
    generated again from the configuration columns, as measure() did."""
    with open(measurements, newline="") as f:
        rows = list(csv.DictReader(f))
    work = tempfile.mkdtemp(prefix="dlopt-relabel-")
    labels, changed = {}, 0
    for i, row in enumerate(rows):
        key = tuple(row[k] for k in CONFIG)
        if key not in labels:
            c = {k: row[k] for k in CONFIG}
            for k in ("fields", "field_bytes", "touched", "n"):
                c[k] = int(c[k])
            labels[key] = analysed_features(c, dl_refactor,
                                            *write_program(c, TILES, work))
            print(f"\r[{len(labels)} configurations]", end="", file=sys.stderr, flush=True)
        new = {f: labels[key][f] for f in FEATURES}
        changed += any(f not in row or float(row[f]) != float(new[f]) for f in FEATURES)
        row.update(new)
    print(file=sys.stderr)
    shutil.rmtree(work, ignore_errors=True)
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, COLUMNS)
        w.writeheader()
        w.writerows(rows)
    print(f"{len(labels)} configurations relabelled, {changed} of {len(rows)} rows "
          f"changed -> {out}")
    return 0


def sweep(configs, measure_one, out):
    """Measures each configuration (measure_one(c, work_dir): its rows, or
    None when a layout changed the output), writes the rows to OUT as CSV,
    and returns the exit status: 1 if a configuration was left out."""
    work = tempfile.mkdtemp(prefix="dlopt-calibrate-")
    rows, left_out = [], 0
    # One at a time: timing runs must not share the machine.
    for i, c in enumerate(configs):
        measured = measure_one(c, work)
        if measured is None:
            left_out += 1
        else:
            rows += measured
        print(f"\r[{i + 1}/{len(configs)}]", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    write_rows(rows, out)
    print(f"{len(rows)} measurements of {len(configs) - left_out} configurations -> {out}"
          + (f" ({left_out} left out: a layout changed the output)" if left_out else ""))
    shutil.rmtree(work, ignore_errors=True)
    return 1 if left_out else 0


if __name__ == "__main__":
    main()
