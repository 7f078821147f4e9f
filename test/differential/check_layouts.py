#!/usr/bin/env python3
"""Differential test: a program prints the same output after dl-refactor
rewrites it into each layout, and the rewrite compiles without warnings.

usage: check_layouts.py --dl-refactor BIN --cc CC --record NAME
                        [--layouts "auto soa split tiled:4 ..."] SRC [-- ARGS]

'split' derives its groups from the automatic plan (each cluster a small AoS
record; one cluster is split in halves). Exit status 0 when every layout
matches; the failures are printed otherwise.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

WARNINGS = ["-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas"]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def split_spec(tool, src, record):
    report = run([tool, "--report", "--format=json", src, "--"])
    plan = json.loads(report.stdout)
    for rec in plan["records"]:
        if rec["name"] == record and "clusters" in rec:
            groups = [c["fields"] for c in rec["clusters"]]
            if len(groups) == 1:
                fields = groups[0]
                half = max(1, len(fields) // 2)
                groups = [fields[:half], fields[half:]]
            return "split:" + "".join("{" + ",".join(g) + "}" for g in groups if g)
    raise SystemExit(f"no plan for struct {record} in {src}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dl-refactor", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--record", required=True)
    ap.add_argument("--layouts", default="auto soa split tiled:4 tiled:16 tiled:1024",
                    help="space-separated layouts")
    ap.add_argument("--cflags", default="-O1")
    ap.add_argument("src")
    ap.add_argument("args", nargs="*")
    opts = ap.parse_args()

    work = tempfile.mkdtemp(prefix="dlopt-diff-")
    try:
        cflags = opts.cflags.split()
        original = os.path.join(work, "original")
        build = run([opts.cc, *cflags, opts.src, "-o", original, "-lm"])
        if build.returncode:
            print(build.stderr)
            return 1
        expected = run([original, *opts.args]).stdout
        failures = 0
        for layout in opts.layouts.split():
            name = os.path.basename(opts.src)
            copy_dir = os.path.join(work, layout.replace(":", "_"))
            os.makedirs(copy_dir)
            copy = os.path.join(copy_dir, name)
            shutil.copy(opts.src, copy)
            spec = split_spec(opts.dl_refactor, opts.src, opts.record) if layout == "split" else layout
            force = [] if layout == "auto" else [f"--layout={opts.record}={spec}"]
            rewrite = run([opts.dl_refactor, "--apply", *force, copy, "--"])
            with open(copy) as f, open(opts.src) as g:
                changed = f.read() != g.read()
            if rewrite.returncode or not changed:
                print(f"{layout}: not rewritten (exit {rewrite.returncode})\n{rewrite.stderr}")
                failures += 1
                continue
            binary = os.path.join(copy_dir, "rewritten")
            build = run([opts.cc, *cflags, *WARNINGS, copy, "-o", binary, "-lm"])
            if build.returncode:
                print(f"{layout}: the rewrite does not compile cleanly\n{build.stderr}")
                failures += 1
                continue
            got = run([binary, *opts.args]).stdout
            if got != expected:
                print(f"{layout}: output differs\n  expected: {expected!r}\n  got:      {got!r}")
                failures += 1
                continue
            again = run([opts.dl_refactor, "--apply", *force, copy, "--"])
            if again.returncode or "nothing to change" not in again.stderr:
                print(f"{layout}: a second run is not a no-op\n{again.stderr}")
                failures += 1
                continue
            print(f"{layout}: same output")
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
