#!/usr/bin/env python3
"""Benchmark of dl-refactor on a whole program: a generated project of N
translation units that all include a shared header with the struct, each
with its own kernel over the struct's array; main.c calls them all.

Times (medians of interleaved runs, one warm-up discarded) of
  clang-19 -fsyntax-only over every file   (the yardstick: parsing alone)
  dl-refactor -p --report --jobs J         (analysis: one parse per file)
  dl-refactor -p --diff --jobs J           (analysis, rewrite and the check
                                            that the result compiles)
for J in 1 and 2, and prints a Markdown table with ratios to syntax-only.

usage: whole_program.py --dl-refactor BIN [--units 200] [--runs 5]
                        [--update-doc docs/whole-program.md]
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HEADER = """#ifndef PARTICLES_H
#define PARTICLES_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct Particle {
  float x, y, z;
  float vx, vy, vz;
  float mass, charge;
  int id, kind;
};

%s
#endif
"""

UNIT = """#include "particles.h"

/* Kernel %(i)d: moves the particles and reads a few more fields. */
void kernel_%(i)d(struct Particle *p, int n, float dt) {
  for (int i = 0; i < n; ++i) {
    p[i].x += p[i].vx * dt * %(s)s;
    p[i].y += p[i].vy * dt;
    p[i].z += p[i].vz * dt;
    if (p[i].kind == %(k)d)
      p[i].vx -= p[i].charge / p[i].mass * dt;
  }
}
"""

MAIN = """#include "particles.h"

int main(void) {
  int n = 1000;
  struct Particle *p = calloc(n, sizeof(struct Particle));
  if (!p)
    return 1;
  for (int i = 0; i < n; ++i) {
    p[i].vx = 1.0f;
    p[i].mass = 1.0f;
    p[i].kind = i %% 7;
    p[i].id = i;
  }
%s  printf("%%f\\n", p[n - 1].x);
  free(p);
  return 0;
}
"""


def generate(root, units, cc):
    protos = "".join(f"void kernel_{i}(struct Particle *p, int n, float dt);\n"
                     for i in range(units))
    with open(os.path.join(root, "particles.h"), "w") as f:
        f.write(HEADER % protos)
    files = ["main.c"]
    with open(os.path.join(root, "main.c"), "w") as f:
        f.write(MAIN % "".join(f"  kernel_{i}(p, n, 0.01f);\n" for i in range(units)))
    for i in range(units):
        name = f"unit_{i:03d}.c"
        with open(os.path.join(root, name), "w") as f:
            f.write(UNIT % {"i": i, "s": f"{1 + i % 5}.0f", "k": i % 7})
        files.append(name)
    with open(os.path.join(root, "compile_commands.json"), "w") as f:
        json.dump([{"directory": root, "file": name,
                    "command": f"{cc} -O2 -c {name} -o {name}.o"} for name in files], f)
    return files


def timed(cmd, cwd):
    start = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"failed: {' '.join(cmd[:4])} ...\n{r.stderr[-2000:]}")
    return time.perf_counter() - start


def machine():
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"model name\s*:\s*(.*)", f.read())
            cpu = m.group(1).strip() if m else cpu
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dl-refactor", required=True)
    ap.add_argument("--cc", default="clang-19")
    ap.add_argument("--units", type=int, default=200)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--update-doc")
    o = ap.parse_args()
    o.dl_refactor = os.path.abspath(o.dl_refactor)

    root = tempfile.mkdtemp(prefix="dlopt-wp-")
    try:
        files = generate(root, o.units, o.cc)
        half = (len(files) + 1) // 2
        cases = {
            "syntax-only, 1 process": [[o.cc, "-fsyntax-only", "-O2", *files]],
            "syntax-only, 2 processes": [[o.cc, "-fsyntax-only", "-O2", *files[:half]],
                                         [o.cc, "-fsyntax-only", "-O2", *files[half:]]],
            "dl-refactor --report --jobs 1": [[o.dl_refactor, "-p", root, "--report", "--jobs", "1"]],
            "dl-refactor --report --jobs 2": [[o.dl_refactor, "-p", root, "--report", "--jobs", "2"]],
            "dl-refactor --diff --jobs 1": [[o.dl_refactor, "-p", root, "--diff", "--jobs", "1"]],
            "dl-refactor --diff --jobs 2": [[o.dl_refactor, "-p", root, "--diff", "--jobs", "2"]],
        }

        def run_case(cmds):
            start = time.perf_counter()
            procs = [subprocess.Popen(c, cwd=root, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True) for c in cmds]
            for p in procs:
                _, err = p.communicate()
                if p.returncode:
                    sys.exit(f"failed ({p.returncode}): {err[-2000:]}")
            return time.perf_counter() - start

        times = {name: [] for name in cases}
        for name, cmds in cases.items():  # warm-up
            run_case(cmds)
        for _ in range(o.runs):
            for name, cmds in cases.items():
                times[name].append(run_case(cmds))
        med = {name: statistics.median(t) for name, t in times.items()}
        base1 = med["syntax-only, 1 process"]
        base2 = med["syntax-only, 2 processes"]
        lines = [f"{len(files)} translation units ({o.units} kernels + main.c) including one "
                 f"header with the struct and <math.h>, <stdio.h>, <stdlib.h>; "
                 f"medians of {o.runs} interleaved runs after a warm-up; {machine()}.",
                 "",
                 "| command | wall time | vs syntax-only (same parallelism) |",
                 "|---|---:|---:|"]
        for name in cases:
            base = base2 if ("2" in name.split()[-1] or "2 processes" in name) else base1
            lines.append(f"| `{name}` | {med[name]:.2f} s | {med[name] / base:.2f}x |")
        sp_r = med["dl-refactor --report --jobs 1"] / med["dl-refactor --report --jobs 2"]
        sp_d = med["dl-refactor --diff --jobs 1"] / med["dl-refactor --diff --jobs 2"]
        lines += ["", f"Speed-up from --jobs 1 to --jobs 2: {sp_r:.2f}x (--report), "
                  f"{sp_d:.2f}x (--diff)."]
        table = "\n".join(lines) + "\n"
        print(table)
        if o.update_doc:
            with open(o.update_doc) as f:
                doc = f.read()
            begin, end = "<!-- bench:whole-program begin -->", "<!-- bench:whole-program end -->"
            i, j = doc.index(begin) + len(begin), doc.index(end)
            with open(o.update_doc, "w") as f:
                f.write(doc[:i] + "\n" + table + doc[j:])
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
