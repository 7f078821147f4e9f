#!/usr/bin/env python3
"""Differential fuzzing of dl-refactor with csmith.

For each seed: generate a C program with csmith (options that keep structs in
arrays and avoid what dlopt refuses anyway: pointers, bit-fields, volatiles,
unions, packed structs), find the records dlopt considers transformable, force
each layout kind on each of them in turn (plus the automatic plan), compile
original and rewrite with the same compiler and flags, run both with a time
limit, and compare the checksums csmith prints.

usage: csmith_differential.py --dl-refactor BIN [--cc gcc] [--seeds 1-100]
                              [--layouts "auto soa split tiled:4 tiled:64"]
                              [--jobs 2] [--timeout S] [--keep DIR]
                              [--update-doc docs/reliability.md]

A program whose original does not finish within --timeout seconds is
skipped; a rewrite may take five times as long as the original before it
counts as a failure. --update-doc records the run (date, tool version,
counts) in the table between the markers of docs/reliability.md.

Exit status 1 if any rewrite crashed, failed to compile, changed the output
or timed out where the original did not. Seeds are fixed: the same command
reproduces the same programs.
"""
import argparse
import concurrent.futures
import datetime
import re
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

CSMITH_OPTIONS = ["--no-pointers", "--no-bitfields", "--no-volatiles",
                  "--no-packed-struct", "--no-unions", "--no-consts",
                  "--max-array-dim", "1"]
CSMITH_INCLUDE = "/usr/include/csmith"


def run(cmd, timeout=None, **kw):
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                              timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        return None


def parse_seeds(text):
    seeds = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds.extend(range(int(lo), int(hi or lo) + 1))
    return seeds


def split_spec(fields):
    half = max(1, len(fields) // 2)
    groups = [fields[:half], fields[half:]]
    return "split:" + "".join("{" + ",".join(g) + "}" for g in groups if g)


def check_seed(seed, opts):
    """Returns a list of (seed, record, layout, outcome, detail)."""
    work = tempfile.mkdtemp(prefix=f"dlopt-fuzz-{seed}-")
    results = []
    try:
        src = os.path.join(work, f"seed{seed}.c")
        if run(["csmith", "--seed", str(seed), *CSMITH_OPTIONS, "-o", src]).returncode:
            return [(seed, "-", "-", "csmith-failed", "")]
        flags = ["-I" + CSMITH_INCLUDE, "-w", "-O1"]
        original = os.path.join(work, "original")
        if run([opts.cc, *flags, src, "-o", original]).returncode:
            return [(seed, "-", "-", "original-does-not-compile", "")]
        began = time.time()
        expected = run([original], timeout=opts.timeout)
        if expected is None or expected.returncode:
            return [(seed, "-", "-", "original-times-out", "")]
        limit = max(opts.timeout, 5 * (time.time() - began))
        report = run([opts.dl_refactor, "--report", "--format=json", src, "--",
                      "-I" + CSMITH_INCLUDE, "-w"])
        if report.returncode:
            return [(seed, "-", "-", "crash" if report.returncode < 0 else "report-failed",
                     report.stderr[-500:])]
        plan = json.loads(report.stdout)
        candidates = plan["records"]
        records = [r for r in candidates if r["transformable"]]
        results.append((seed, "-", "-", "program",
                        f"{len(records)}/{len(candidates)} transformable"))
        results += [(seed, r["name"], "-", "record", "") for r in candidates]
        results += [(seed, r["name"], "-", "transformable", "") for r in records]
        for rec in records:
            for layout in opts.layouts.split():
                if layout == "auto":
                    force = []
                elif layout == "split":
                    force = [f"--layout={rec['name']}=" +
                             split_spec([f["name"] for f in rec["fields"]])]
                else:
                    force = [f"--layout={rec['name']}={layout}"]
                copy = os.path.join(work, f"{rec['name']}-{layout.replace(':', '_')}.c")
                shutil.copy(src, copy)
                rw = run([opts.dl_refactor, "--apply", *force, copy, "--",
                          "-I" + CSMITH_INCLUDE, "-w"], timeout=300)
                if rw is None or rw.returncode < 0 or rw.returncode == 5:
                    results.append((seed, rec["name"], layout, "crash",
                                    "" if rw is None else rw.stderr[-500:]))
                    continue
                if rw.returncode == 3:
                    results.append((seed, rec["name"], layout, "refused",
                                    rw.stderr.splitlines()[0] if rw.stderr else ""))
                    continue
                if rw.returncode:
                    results.append((seed, rec["name"], layout, "tool-error",
                                    rw.stderr[-500:]))
                    continue
                with open(copy) as f, open(src) as g:
                    if f.read() == g.read():
                        results.append((seed, rec["name"], layout, "unchanged", ""))
                        continue
                binary = copy[:-2]
                build = run([opts.cc, *flags, copy, "-o", binary])
                if build.returncode:
                    results.append((seed, rec["name"], layout, "compile-failure",
                                    build.stderr[-500:]))
                    continue
                got = run([binary], timeout=limit)
                if got is None:
                    results.append((seed, rec["name"], layout, "timeout", copy))
                    continue
                if got.stdout != expected.stdout:
                    results.append((seed, rec["name"], layout, "mismatch", copy))
                    if opts.keep:
                        shutil.copy(src, opts.keep)
                        shutil.copy(copy, opts.keep)
                    continue
                results.append((seed, rec["name"], layout, "same", ""))
        return results
    finally:
        shutil.rmtree(work, ignore_errors=True)


def update_doc(opts, figures):
    """Adds a row for this run to the table in the document; the commit of
    the harness's checkout names the tool version."""
    commit = run(["git", "-C", os.path.dirname(os.path.abspath(__file__)),
                  "rev-parse", "--short", "HEAD"]).stdout.strip()
    row = (f"| {datetime.date.today().isoformat()} | {commit or '?'} | "
           f"{opts.seeds} | {opts.cc} -O1 | " +
           " | ".join(str(v) for v in figures.values()) + " |")
    with open(opts.update_doc) as f:
        text = f.read()
    marker = "<!-- fuzz-runs-end -->"
    if marker not in text:
        raise SystemExit(f"{opts.update_doc}: no {marker} marker")
    text = text.replace(marker, row + "\n" + marker)
    with open(opts.update_doc, "w") as f:
        f.write(text)


def guarded(seed, opts):
    """check_seed, with a harness failure counted against the seed rather
    than ending the run."""
    try:
        return check_seed(seed, opts)
    except Exception as e:  # noqa: BLE001 - reported, not swallowed
        return [(seed, "-", "-", "harness-error", repr(e))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dl-refactor", required=True)
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--seeds", default="1-20")
    ap.add_argument("--layouts", default="auto soa split tiled:4 tiled:64")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--keep")
    ap.add_argument("--update-doc")
    opts = ap.parse_args()
    seeds = parse_seeds(opts.seeds)
    start = time.time()
    rows = []
    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as pool:
        for res in pool.map(lambda s: guarded(s, opts), seeds):
            rows.extend(res)
    counts = {}
    for _, _, _, outcome, _ in rows:
        counts[outcome] = counts.get(outcome, 0) + 1
    programs = [r for r in rows if r[3] == "program"]
    with_records = [r for r in programs if not r[4].startswith("0/")]
    failures = ("crash", "compile-failure", "mismatch", "timeout", "tool-error",
                "report-failed", "harness-error")
    bad = [r for r in rows if r[3] in failures]
    compared = counts.get("same", 0) + counts.get("mismatch", 0) + counts.get("timeout", 0)
    figures = {
        "programs": len(seeds),
        "ran": len(programs),
        "with a transformable record": len(with_records),
        "records seen": counts.get("record", 0),
        "records transformable": counts.get("transformable", 0),
        "rewrites applied": compared + counts.get("compile-failure", 0),
        "unchanged (plan was AoS)": counts.get("unchanged", 0),
        "refused": counts.get("refused", 0),
        "crashes": counts.get("crash", 0) + counts.get("tool-error", 0) +
                   counts.get("report-failed", 0) + counts.get("harness-error", 0),
        "compile failures": counts.get("compile-failure", 0),
        "mismatches": counts.get("mismatch", 0),
        "timeouts": counts.get("timeout", 0),
    }
    print(f"seeds {opts.seeds}, layouts: {opts.layouts}, compiler: {opts.cc} -O1, "
          f"{time.time() - start:.0f} s")
    print(f"programs with a transformable record: {len(with_records)}/{len(programs)} "
          f"of the programs that ran ({len(seeds) - len(programs)} skipped: "
          f"the original did not finish)")
    print(", ".join(f"{k} {v}" for k, v in figures.items()))
    for r in bad:
        print(f"  seed {r[0]} struct {r[1]} {r[2]}: {r[3]} {r[4]}")
    if opts.update_doc:
        update_doc(opts, figures)
    same = counts.get("same", 0)
    print(f"{same} passed, {len(bad)} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
