#!/usr/bin/env python3
"""The device benchmarks: dlopt on the OpenCL programs of examples/ on PoCL
(--suite opencl), or on the CUDA programs on an NVIDIA GPU (--suite cuda).

An OpenCL program is its host file and its kernel file (examples/*-cl), a
CUDA program its .cu file (examples/*-cu). As for
the C programs (run_benchmarks.py, whose search and timing this reuses), a
copy is rewritten whole, host and kernels, by the automatic plan, by forced
SoA, and by each plan of the oracle search (the partitions the KDLG's
thresholds give, coordinate descent over each cluster's layout); each
rewrite is built (host with --cc and --flags; PoCL compiles the kernels at
run time; nvcc builds a CUDA program whole), its output checked identical
to the original's, and timed. The original (AoS), the automatic plan, SoA,
the oracle's best and the automatic plan at the boundary are then timed
again, interleaved (--runs, one warm-up discarded): the time the kernels ran
(OpenCL profiling events or CUDA events, which the programs print as
"kernel seconds: T" on stderr) and the whole run.

The report goes into docs/benchmarks.md, between the suite's markers
(<!-- opencl: begin --> ... <!-- opencl: end -->, the same with cuda;
run_benchmarks.py keeps those sections), and the figures into
docs/benchmarks-<suite>.json. --build-only (for a machine without the
device) rewrites and builds each program's automatic, SoA, Tiled(32) and
boundary forms and runs nothing.

usage: device_benchmarks.py --dl-refactor BIN [--suite opencl|cuda] [--cc CC]
                            [--programs a,b] [--runs 5] [--search-runs 3]
                            [--tiles 4,16,64] [--out docs/benchmarks.md]
                            [--build-only]
"""
import argparse
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import run_benchmarks as rb

SUITES = {
    "opencl": dict(
        title="OpenCL on PoCL", cc="gcc", flags="-O3 -march=native",
        timer="OpenCL profiling events", tiles="4,16,64",
        programs=[
            dict(name="nbody-cl", src="examples/nbody-cl", record="Body"),
            dict(name="mosquito-cl", src="examples/mosquito-cl", record="Mosquito"),
            dict(name="blackscholes-cl", src="examples/blackscholes-cl",
                 record="Option"),
            dict(name="bitonic-cl", src="examples/bitonic-cl", record="Item"),
            dict(name="lavamd-cl", src="examples/lavamd-cl", record="Particle"),
        ]),
    "cuda": dict(
        title="CUDA on an NVIDIA GPU", cc="nvcc", flags="-O3 -arch=sm_90",
        timer="CUDA events", tiles="32,64,128",
        programs=[
            dict(name="nbody-cu", src="examples/nbody-cu/nbody.cu", record="Body"),
            dict(name="mosquito-cu", src="examples/mosquito-cu/mosquito.cu",
                 record="Mosquito"),
            dict(name="blackscholes-cu", src="examples/blackscholes-cu/blackscholes.cu",
                 record="Option"),
            dict(name="lavamd-cu", src="examples/lavamd-cu/lavamd.cu", record="Particle"),
        ]),
}


def markers(suite):
    return f"<!-- {suite}: begin -->", f"<!-- {suite}: end -->"


def device(suite):
    """The device and its runtime's version: the OpenCL device and platform
    as clinfo names them, or the GPU and driver as nvidia-smi does."""
    if suite == "cuda":
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                              "--format=csv,noheader"], capture_output=True,
                             text=True).stdout.strip().splitlines()
        name, _, driver = (out[0] if out else "unknown,unknown").partition(",")
        return name.strip(), "driver " + driver.strip()
    out = subprocess.run(["clinfo"], capture_output=True, text=True).stdout
    def field(name):
        for line in out.splitlines():
            if line.strip().startswith(name):
                return line.strip()[len(name):].strip().split("  ")[0]
        return "unknown"
    return field("Device Name"), field("Platform Version")


def build_only(o, prog, flags, work):
    """Whether the automatic, SoA, Tiled(32) and boundary rewrites of PROG
    build; prints each."""
    b = rb.Bench(o, prog, flags, work, run=False)
    record = prog["record"]
    ok = True
    for name, args in [("auto", []), ("soa", [f"--layout={record}=soa"]),
                       ("tiled:32", [f"--layout={record}=tiled:32"]),
                       ("boundary", [f"--strategy={record}=boundary"])]:
        built = b.build(args, check_output=False) is not None
        ok &= built
        print(f"{prog['name']} {name}: {'builds' if built else 'FAILS'}", flush=True)
    return ok


def measure(o, prog, flags, work):
    b = rb.Bench(o, prog, flags, work)
    record = prog["record"]
    plan = rb.auto_spec(b.report())
    # A plan that keeps the record, or whose sources are another plan's, is
    # that program's binary (rb.Bench.build), timed once by interleaved().
    auto = b.build([])
    soa = b.build([f"--layout={record}=soa"])
    # The same plan at the boundary: the host keeps its arrays of structs and
    # every transfer converts (its cost is the difference to `auto`).
    boundary = auto if kept({"plan": plan}) else b.build(
        [f"--strategy={record}=boundary", f"--layout={record}={plan}"])
    if auto is None or soa is None or boundary is None:
        sys.exit(f"{prog['name']}: the automatic, SoA or boundary rewrite fails")
    (seconds, best_spec, best), tried = rb.search(b, [int(t) for t in o.tiles.split(",")])
    names = ["aos", "auto", "soa", "oracle", "boundary"]
    walls, kernels = rb.interleaved([b.original, auto, soa, best, boundary], o.runs)
    if None in kernels:
        sys.exit(f"{prog['name']}: a run prints no 'kernel seconds'")
    return dict(name=prog["name"], record=record, plan=plan,
                oracle=best_spec, searched=tried,
                wall=dict(zip(names, walls)), kernel=dict(zip(names, kernels)))


def table(rows):
    lines = ["| program | plan | AoS kernels (s) | auto | SoA | oracle | auto/oracle "
             "| AoS run (s) | auto | SoA | oracle |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        k, w = r["kernel"], r["wall"]
        def speedup(t, v):
            return f"{t['aos'] / t[v]:.2f}x"
        lines.append(
            f"| {r['name']} | `{rb.cell(r['plan'])}` | {k['aos']:.3f} | "
            f"{speedup(k, 'auto')} | {speedup(k, 'soa')} | {speedup(k, 'oracle')} | "
            f"{auto_vs_oracle(r)} | {w['aos']:.2f} | {speedup(w, 'auto')} | "
            f"{speedup(w, 'soa')} | {speedup(w, 'oracle')} |")
    return lines


def boundary_table(rows):
    """The automatic plan taken at the boundary (the host keeps its arrays of
    structs; transfers convert through a staging copy) beside the same plan
    taken by the whole program."""
    rows = [r for r in rows if "boundary" in r["kernel"]]
    if not rows:
        return []
    lines = ["The automatic plan at the boundary (`--strategy=R=boundary`: the host keeps "
             "its arrays of structs, and each transfer converts through a staging copy), "
             "timed in the same interleaved runs; the kernels are the same programs, so "
             "the whole run's difference is the conversions' cost:", "",
             "| program | kernels: whole program | at the boundary | run: whole program "
             "| at the boundary | boundary/whole (run) |",
             "|---|---|---|---|---|---|"]
    for r in rows:
        k, w = r["kernel"], r["wall"]
        if kept(r):
            lines.append(f"| {r['name']} | kept as is | nothing to convert | | | |")
            continue
        lines.append(
            f"| {r['name']} | {k['aos'] / k['auto']:.2f}x | {k['aos'] / k['boundary']:.2f}x | "
            f"{w['aos'] / w['auto']:.2f}x | {w['aos'] / w['boundary']:.2f}x | "
            f"{w['boundary'] / w['auto']:.2f} |")
    return lines


def kept(r):
    """Whether the automatic plan keeps the record as it is (one AoS group of
    every field): its program is the original, and differences between
    their columns are noise."""
    plan = r["plan"]
    return plan == "aos" or (plan.startswith("split:") and plan.count("{") == 1
                             and plan.endswith("aos"))


def soa_layout(plan):
    """Whether PLAN (a --layout spec) puts every field in an array of its
    own, as SoA does: each cluster SoA, or AoS of a single field."""
    if plan == "soa":
        return True
    clusters = re.findall(r"\{([^}]*)\}([a-z]+)", plan)
    return plan.startswith("split:") and bool(clusters) and all(
        layout == "soa" or (layout == "aos" and "," not in fields)
        for fields, layout in clusters)


def auto_vs_oracle(r):
    """The oracle's kernel time over the automatic plan's; 1 where the
    search found the automatic plan itself (their timings then differ by the
    noise alone)."""
    if r["oracle"] == r["plan"]:
        return "1.00 (same plan)"
    return f"{r['kernel']['oracle'] / r['kernel']['auto']:.2f}"


def targets(rows):
    """The issue's targets, each row met or missed."""
    out = ["Targets (kernel time):", ""]
    for r in rows:
        k = r["kernel"]
        ratio = 1.0 if r["oracle"] == r["plan"] else k["oracle"] / k["auto"]
        ok = ratio >= 0.95
        out.append(f"- {'met' if ok else '**missed**'}: {r['name']} automatic plan "
                   f"{ratio:.2f} of the oracle (target 0.95)")
        if kept(r):
            out.append(f"- met: {r['name']} automatic plan keeps the original (the same "
                       f"program; timed {k['aos'] / k['auto']:.2f}x of it here, noise)")
            continue
        ok = k["aos"] / k["auto"] >= 0.98
        out.append(f"- {'met' if ok else '**missed**'}: {r['name']} automatic plan "
                   f"{k['aos'] / k['auto']:.2f}x of AoS (target 0.98x)")
    # A program whose automatic and oracle plans are the original's runs one
    # program three times: their spread is the machine's noise.
    for r in rows:
        if r["oracle"] == r["plan"] and r["plan"].endswith("aos") and "}" in r["plan"] \
                and r["plan"].count("{") == 1:
            t = [r["kernel"][v] for v in ("aos", "auto", "oracle")]
            out.append(f"- noise: {r['name']}'s AoS, automatic and oracle plans are one "
                       f"program, timed {min(t):.3f}-{max(t):.3f} s ({max(t) / min(t):.2f}x): "
                       "differences of that size between the columns are not significant")
    for r in rows:
        if r["name"].startswith("mosquito-"):
            k = r["kernel"]
            ok = k["auto"] < k["soa"]
            line = (f"- {'met' if ok else '**missed**'}: the agent model's automatic "
                    f"plan ahead of its all-SoA version: {k['aos'] / k['auto']:.2f}x vs "
                    f"{k['aos'] / k['soa']:.2f}x (the paper: 1.18x over a hand-optimized "
                    "version on a GPU)")
            if not ok and soa_layout(r["plan"]) and k["oracle"] >= k["soa"]:
                line += ("; here the automatic plan lays the agents out as all-SoA does "
                         "(each cluster SoA or one field), and the oracle search found no "
                         "plan faster than all-SoA: the two columns are one layout")
            out.append(line)
    return out


def measured(rows, date):
    """When: the run's date, and the rows kept from an earlier run (--merge)
    with theirs."""
    older = {}
    for r in rows:
        if r.get("date", date) != date:
            older.setdefault(r["date"], []).append(r["name"])
    return date + "".join(f" ({', '.join(names)}: {d})" for d, names in sorted(older.items()))


def section(rows, o, flags, date):
    suite = o.get("suite", "opencl")
    s = SUITES[suite]
    begin, _ = markers(suite)
    built = ("host code built with " + o["compiler"] + f", `{' '.join(flags)}`; the "
             "kernels compiled by PoCL") if suite == "opencl" else \
        f"built with {o['compiler']}, `{' '.join(flags)}`"
    lines = [begin, "", "## " + s["title"], "",
             f"Measured {measured(rows, date)} on {o['cpu']}, device {o['device']}; {built}. "
             f"Speedups over the AoS original: kernel time ({s['timer']}) and the whole run, "
             f"medians of {o['runs']} interleaved runs. The oracle "
             "is the fastest plan of the search (run_benchmarks.py's, tiles "
             f"{o['tiles']}, by wall time of {o['search_runs']} runs per plan); auto/oracle "
             "compares their kernel times. Regenerate with `python3 bench/device_benchmarks.py "
             f"--suite {suite} --dl-refactor build/bin/dl-refactor`.", ""]
    lines += table(rows)
    lines += [""] + boundary_table(rows)
    lines += [""] + targets(rows)
    lines += ["", "Oracle plans: " + "; ".join(
        f"{r['name']} `{rb.cell(r['oracle'])}` (of {r['searched']} plans)" for r in rows),
        "", markers(suite)[1]]
    return "\n".join(lines) + "\n"


def write(out, text, suite):
    """Replaces the suite's section of OUT (or appends it)."""
    begin, end = markers(suite)
    old = open(out).read() if os.path.exists(out) else ""
    if begin in old and end in old:
        head, rest = old.split(begin, 1)
        new = head + text.rstrip("\n") + rest.split(end, 1)[1]
    else:
        new = old.rstrip("\n") + "\n\n" + text
    with open(out, "w") as f:
        f.write(new)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dl-refactor", required=True)
    ap.add_argument("--suite", choices=sorted(SUITES), default="opencl")
    ap.add_argument("--cc", help="default: gcc (opencl), nvcc (cuda)")
    ap.add_argument("--flags", help="default: -O3 -march=native (opencl), "
                    "-O3 -arch=sm_90 (cuda)")
    ap.add_argument("--programs", help="default: every program of the suite")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--search-runs", type=int, default=3)
    ap.add_argument("--tiles", help="default: 4,16,64 (opencl), 32,64,128 (cuda)")
    ap.add_argument("--build-only", action="store_true",
                    help="rewrite and build each program's automatic, SoA, Tiled(32) "
                    "and boundary forms; run nothing, write nothing")
    ap.add_argument("--max-partitions", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(rb.ROOT, "docs", "benchmarks.md"))
    ap.add_argument("--from-json", help="render the section again from the figures "
                    "of an earlier run (docs/benchmarks-opencl.json), measuring nothing")
    ap.add_argument("--merge", metavar="JSON", help="keep an earlier run's rows "
                    "(docs/benchmarks-opencl.json) of the programs not measured here")
    o = ap.parse_args()
    s = SUITES[o.suite]
    o.cc = o.cc or s["cc"]
    o.flags = o.flags or s["flags"]
    o.tiles = o.tiles or s["tiles"]
    programs = s["programs"]
    if o.from_json:
        with open(o.from_json) as f:
            saved = json.load(f)
        saved["options"].setdefault("suite", o.suite)
        write(o.out, section(saved["rows"], saved["options"], saved["flags"], saved["date"]),
              o.suite)
        return
    o.dl_refactor = os.path.abspath(o.dl_refactor)
    flags = o.flags.split()
    wanted = (o.programs or ",".join(p["name"] for p in programs)).split(",")
    rows = []
    work = tempfile.mkdtemp(prefix=f"dlopt-{o.suite}-bench-")
    if o.build_only:
        try:
            ok = all([build_only(o, prog, flags, os.path.join(work, prog["name"]))
                      for prog in programs if prog["name"] in wanted])
        finally:
            shutil.rmtree(work, ignore_errors=True)
        sys.exit(0 if ok else 1)
    try:
        for prog in programs:
            if prog["name"] in wanted:
                print(f"== {prog['name']}", flush=True)
                rows.append(measure(o, prog, flags,
                                    os.path.join(work, prog["name"])))
                print(json.dumps(rows[-1]), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if o.merge:
        with open(o.merge) as f:
            saved = json.load(f)
        earlier = {r["name"]: dict(r, date=r.get("date", saved["date"]))
                   for r in saved["rows"]}
        fresh = {r["name"]: r for r in rows}
        rows = [fresh.get(p["name"]) or earlier[p["name"]] for p in programs
                if p["name"] in fresh or p["name"] in earlier]
    cpu, compiler = rb.machine(o.cc)
    dev, version = device(o.suite)
    options = dict(suite=o.suite, cpu=cpu, compiler=compiler, device=f"{dev} ({version})",
                   runs=o.runs, tiles=o.tiles, search_runs=o.search_runs)
    date = str(datetime.date.today())
    for r in rows:
        r.setdefault("date", date)
    write(o.out, section(rows, options, flags, date), o.suite)
    with open(os.path.join(os.path.dirname(o.out), f"benchmarks-{o.suite}.json"), "w") as f:
        json.dump(dict(date=date, flags=flags, options=options, rows=rows), f, indent=1)
    print(f"-> {o.out}")


if __name__ == "__main__":
    main()
