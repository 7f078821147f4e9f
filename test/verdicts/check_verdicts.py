#!/usr/bin/env python3
"""Property test: the report's verdict is what the rewrite does.

For every program given and every record its report lists, under the
automatic plan and each forced layout, `dl-refactor --report` says the record
is transformable with a plan that changes its layout exactly when
`dl-refactor --diff` with the same plan rewrites it. The analysis alone
decides what can be rewritten; a disagreement is a bug in either.

usage: check_verdicts.py --dl-refactor BIN [--layouts "auto soa ..."]
                         [--std-c++ STD] PROGRAM...

A PROGRAM is a C, C++ or CUDA file, or a directory whose .c/.cpp/.cu files together
are one program (found recursively; Inputs/ directories of lit tests hold
such programs). Files that do not compile are skipped (some inputs are made
to fail). 'split' is the fields in declaration order in two halves, each an
AoS group. Prints one line per program and exits 1 on any disagreement.
"""
import argparse
import json
import os
import re
import subprocess
import sys


def run(cmd, cwd=None):
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)


def compile_flags(path):
    with open(path, errors="replace") as f:
        text = f.read()
    flags = ["-fopenmp"] if "#pragma omp" in text else []
    if path.endswith(".cpp"):
        # Inputs that need a newer standard say so in a RUN line.
        flags.append("-std=c++20" if "-std=c++20" in text else "-std=c++17")
    return flags


def program_args(program):
    """The files and the flags after '--' of one program."""
    if os.path.isdir(program):
        files = sorted(os.path.join(program, f) for f in os.listdir(program)
                       if f.endswith((".c", ".cpp", ".cu")))
        flags = compile_flags(files[0]) if files else []
        return files, flags + ["-I", program]
    return [program], compile_flags(program)


def split_plan(record):
    names = [f["name"] for f in record["fields"]]
    if len(names) < 2:
        return None
    half = (len(names) + 1) // 2
    return "split:{%s}{%s}" % (",".join(names[:half]), ",".join(names[half:]))


def layout_option(record, layout):
    if layout == "auto":
        return []
    plan = split_plan(record) if layout == "split" else layout
    return ["--layout=%s=%s" % (record["name"], plan)] if plan else None


def changes_layout(record):
    clusters = record["clusters"]
    return not (len(clusters) == 1 and clusters[0]["layout"] == "AoS")


class Checker:
    def __init__(self, tool):
        self.tool = tool
        self.failures = []
        # A run's result by its command line: the automatic plan's report
        # and diff serve every record of a program.
        self.runs = {}

    def run_once(self, cmd):
        key = tuple(cmd)
        if key not in self.runs:
            self.runs[key] = run(cmd)
        return self.runs[key]

    def report(self, files, flags, options):
        r = self.run_once([self.tool, "--report", "--format=json", "--quiet",
                           *options, *files, "--", *flags])
        if r.returncode != 0:
            return None
        return json.loads(r.stdout)

    def verdict(self, files, flags, options, name):
        """What the report promises for record NAME under OPTIONS."""
        plan = self.report(files, flags, options)
        if plan is None:
            return None, "report failed"
        for rec in plan["records"]:
            if rec["name"] == name:
                if not rec["transformable"]:
                    return False, rec["blockers"][0]["reason"]
                return changes_layout(rec), "plan " + rec["plan"]
        return False, "no such record"

    def outcome(self, files, flags, options, name):
        """What the rewrite does to record NAME under OPTIONS."""
        r = self.run_once([self.tool, "--diff", "--quiet", *options, *files,
                           "--", *flags])
        rewritten = re.search(r"struct %s rewritten as" % re.escape(name),
                              r.stderr) is not None
        if r.returncode not in (0, 3):
            return None, "exit %d: %s" % (r.returncode, r.stderr.strip())
        return rewritten and r.returncode == 0, r.stderr.strip()

    def check(self, program, layouts):
        files, flags = program_args(program)
        if not files:
            return 0
        plan = self.report(files, flags, [])
        if plan is None:
            return 0  # Does not compile: an input made to fail.
        count = 0
        for rec in plan["records"]:
            if not rec["name"]:
                continue
            for layout in layouts:
                options = layout_option(rec, layout)
                if options is None:
                    continue
                count += 1
                promised, why = self.verdict(files, flags, options,
                                             rec["name"])
                done, what = self.outcome(files, flags, options, rec["name"])
                if promised is None or done is None or promised != done:
                    self.failures.append(
                        "%s: struct %s, %s: report %s (%s); rewrite %s (%s)"
                        % (program, rec["name"], layout,
                           {True: "rewrites", False: "keeps",
                            None: "fails"}[promised], why,
                           {True: "rewrote", False: "kept",
                            None: "failed"}[done], what))
        return count


def find_programs(roots):
    programs = []
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            if (os.path.basename(os.path.dirname(dirpath)) == "Inputs" or
                    "CMakeLists.txt" in filenames):
                programs.append(dirpath)  # One multi-file program.
                dirnames[:] = []
                continue
            programs += [os.path.join(dirpath, f) for f in sorted(filenames)
                         if f.endswith((".c", ".cpp", ".cu"))]
    return programs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dl-refactor", required=True)
    ap.add_argument("--layouts", default="auto soa split tiled:4")
    ap.add_argument("--find", action="store_true",
                    help="PROGRAMs are directories to search: every .c/.cpp/.cu "
                    "file is a program, and every directory below an "
                    "Inputs/ directory or with a CMakeLists.txt is one "
                    "program")
    ap.add_argument("programs", nargs="+")
    args = ap.parse_args()
    if args.find:
        args.programs = find_programs(args.programs)
    checker = Checker(args.dl_refactor)
    total = 0
    for program in args.programs:
        total += checker.check(program, args.layouts.split())
    for f in checker.failures:
        print("DISAGREE " + f)
    print("%d verdicts checked, %d disagreements"
          % (total, len(checker.failures)))
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
