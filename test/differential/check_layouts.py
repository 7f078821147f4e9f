#!/usr/bin/env python3
"""Differential test: a program prints the same output after dl-refactor
rewrites it into each layout, and the rewrite compiles without warnings.

usage: check_layouts.py --dl-refactor BIN --cc CC --record NAME
                        [--layouts "auto soa split tiled:4 ..."] SRC [-- ARGS]

SRC is one C or C++ file, or a directory whose .c/.cpp files are one
program (C++ is linked with the C++ library): it is
copied with a compile_commands.json and rewritten as a whole (dl-refactor -p).
A directory's OpenCL kernel files (.cl) are part of the program: listed in
the database, linked with -lOpenCL, and found beside the executable, as the
examples load them (the binary named is a script that runs it there).
CUDA files (.cu) are built with --cc (nvcc, whose warnings are errors); the
tool parses them with its own options, without --cflags. With --build-only
each layout is rewritten, built and checked with clang's host and device
syntax checks (--syntax-clang), but not run: for machines without a GPU.
With --rewrite-only each layout is rewritten and rewritten again (a second
run must change nothing), and nothing is built: the sanitizer pass of the
tests checks the tool's own work this way, the compilers' is checked once,
in the other pass.

'split' derives its groups from the automatic plan (each cluster a small AoS
record; one cluster is split in halves). 'auto' may leave the program as it
is ("unchanged"): the automatic plan can keep AoS. Exit status 0 when every
layout matches; the failures are printed otherwise.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

WARNINGS = ["-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas"]
NVCC_WARNINGS = ["-Werror", "all-warnings", "-Xcompiler",
                 ",".join(WARNINGS)]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


class Program:
    """A copy of SRC (a file or a multi-file directory) under ROOT."""

    def __init__(self, src, root, cc, cflags):
        self.is_project = os.path.isdir(src)
        if self.is_project:
            self.dir = os.path.join(root, os.path.basename(os.path.normpath(src)))
            shutil.copytree(src, self.dir)
            self.sources = sorted(f for f in os.listdir(self.dir)
                                  if f.endswith((".c", ".cpp", ".cu")))
            self.kernels = sorted(f for f in os.listdir(self.dir) if f.endswith(".cl"))
            with open(os.path.join(self.dir, "compile_commands.json"), "w") as f:
                json.dump([{"directory": self.dir, "file": s,
                            "command": " ".join([cc, *cflags, "-c", s])}
                           for s in self.sources + self.kernels], f, indent=1)
            self.tool_args = ["-p", self.dir]
        else:
            os.makedirs(root, exist_ok=True)
            self.dir = root
            self.sources = [os.path.basename(src)]
            self.kernels = []
            shutil.copy(src, os.path.join(root, self.sources[0]))
            # Analyzed with the flags it is built with (-fopenmp, -D...),
            # but for nvcc's.
            cuda = self.sources[0].endswith(".cu")
            self.tool_args = [os.path.join(root, self.sources[0]), "--",
                              *([] if cuda else cflags)]

    def build(self, cc, flags, binary):
        libs = ["-lstdc++"] if any(s.endswith(".cpp") for s in self.sources) else []
        real = binary
        if self.kernels:
            libs.append("-lOpenCL")
            real = os.path.join(self.dir, os.path.basename(binary))
        r = run([cc, *flags, *[os.path.join(self.dir, s) for s in self.sources],
                 "-o", real, "-lm", *libs])
        if real != binary and not r.returncode:
            with open(binary, "w") as f:
                f.write(f'#!/bin/sh\nexec "{real}" "$@"\n')
            os.chmod(binary, 0o755)
        return r

    def syntax_errors(self, clang):
        """clang's host and device syntax checks of the CUDA files: the
        errors, or "". An empty texture_fetch_functions.h comes after every
        include path (CUDA 13 removed it; clang 19's wrapper includes it)."""
        stand_in = os.path.join(self.dir, "..", "stand-in")
        os.makedirs(stand_in, exist_ok=True)
        open(os.path.join(stand_in, "texture_fetch_functions.h"), "w").close()
        for s in self.sources:
            if not s.endswith(".cu"):
                continue
            for side in (["--cuda-host-only"],
                         ["--cuda-device-only", "--cuda-gpu-arch=sm_90"]):
                r = run([clang, "-fsyntax-only", "-Wno-unknown-cuda-version",
                         "-idirafter", stand_in, *side,
                         os.path.join(self.dir, s)])
                if r.returncode:
                    return f"{' '.join(side)}: {r.stderr}"
        return ""

    def text(self):
        """Every file's contents, to tell whether a rewrite changed any."""
        out = {}
        for base, _, files in os.walk(self.dir):
            for f in files:
                if f != "compile_commands.json":
                    with open(os.path.join(base, f), errors="replace") as h:
                        out[os.path.relpath(os.path.join(base, f), self.dir)] = h.read()
        return out


def split_spec(tool, program, record, extra):
    report = run([tool, "--report", "--format=json", *extra, *program.tool_args])
    if report.returncode:
        raise SystemExit(f"split: no report (exit {report.returncode})\n{report.stderr}")
    plan = json.loads(report.stdout)
    for rec in plan["records"]:
        if rec["name"] == record and "clusters" in rec:
            groups = [c["fields"] for c in rec["clusters"]]
            if len(groups) == 1:
                fields = groups[0]
                half = max(1, len(fields) // 2)
                groups = [fields[:half], fields[half:]]
            return "split:" + "".join("{" + ",".join(g) + "}" for g in groups if g)
    raise SystemExit(f"no plan for struct {record} in {program.dir}")


def built_and_ran(opts, copy, copy_dir, layout, cflags, expected):
    """Builds a rewritten copy (in COPY_DIR), checks its syntax, runs it
    unless --build-only: the failure's message, or None."""
    nvcc = os.path.basename(opts.cc).startswith("nvcc")
    binary = os.path.join(copy_dir, "rewritten.bin")
    build = copy.build(opts.cc, cflags + (NVCC_WARNINGS if nvcc else WARNINGS), binary)
    if build.returncode:
        return f"{layout}: the rewrite does not compile cleanly\n{build.stderr}"
    errors = copy.syntax_errors(opts.syntax_clang) if opts.syntax_clang else ""
    if errors:
        return f"{layout}: clang's syntax check fails\n{errors}"
    got = expected if opts.build_only else run([binary, *opts.args]).stdout
    if got != expected:
        return f"{layout}: output differs\n  expected: {expected!r}\n  got:      {got!r}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dl-refactor", required=True)
    ap.add_argument("--cc", required=True)
    ap.add_argument("--record", required=True)
    ap.add_argument("--layouts", default="auto soa split tiled:4 tiled:16 tiled:1024",
                    help="space-separated layouts")
    ap.add_argument("--cflags", default="-O1")
    ap.add_argument("--tool-arg", action="append", default=[],
                    help="an option for every dl-refactor run (repeatable)")
    ap.add_argument("--build-only", action="store_true",
                    help="rewrite and build each layout, run nothing")
    ap.add_argument("--rewrite-only", action="store_true",
                    help="rewrite each layout twice, build and run nothing")
    ap.add_argument("--syntax-clang",
                    help="with --build-only: clang-19 for the CUDA syntax checks")
    ap.add_argument("src")
    ap.add_argument("args", nargs="*")
    opts = ap.parse_args()

    work = tempfile.mkdtemp(prefix="dlopt-diff-")
    try:
        cflags = opts.cflags.split()
        pristine = Program(opts.src, os.path.join(work, "original"), opts.cc, cflags)
        original = os.path.join(work, "original.bin")
        no_run = opts.build_only or opts.rewrite_only
        build = None if opts.rewrite_only else pristine.build(opts.cc, cflags, original)
        if build and build.returncode:
            print(build.stderr)
            return 1
        expected = "" if no_run else run([original, *opts.args]).stdout
        failures = 0
        for index, layout in enumerate(opts.layouts.split()):
            copy_dir = os.path.join(work, str(index))
            copy = Program(opts.src, copy_dir, opts.cc, cflags)
            spec = split_spec(opts.dl_refactor, pristine, opts.record, opts.tool_arg) if layout == "split" else layout
            force = [] if layout == "auto" else [f"--layout={opts.record}={spec}"]
            force += opts.tool_arg
            rewrite = run([opts.dl_refactor, "--apply", *force, *copy.tool_args])
            changed = copy.text() != pristine.text()
            if layout == "auto" and not rewrite.returncode and not changed:
                print("auto: unchanged (the automatic plan keeps the layout)")
                continue
            if rewrite.returncode or not changed:
                print(f"{layout}: not rewritten (exit {rewrite.returncode})\n{rewrite.stderr}")
                failures += 1
                continue
            if not opts.rewrite_only:
                failure = built_and_ran(opts, copy, copy_dir, layout, cflags, expected)
                if failure:
                    print(failure)
                    failures += 1
                    continue
            again = run([opts.dl_refactor, "--apply", *force, *copy.tool_args])
            if again.returncode or "nothing to change" not in again.stderr:
                print(f"{layout}: a second run is not a no-op\n{again.stderr}")
                failures += 1
                continue
            verdict = ("rewritten" if opts.rewrite_only else
                       "builds" if opts.build_only else "same output")
            print(f"{layout}: {verdict}")
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
