#!/usr/bin/env python3
"""Builds and runs prepared CUDA programs on a machine with an NVIDIA GPU.

The rewriting needs clang and dl-refactor, the runs a GPU; the two are
often different machines. device_benchmarks.py --prepare and
microbench_cu.py --prepare write, on the first, every program to build
(one .cu each) and a manifest.json per set; this script, which needs only
Python's standard library and nvcc, builds them all in parallel and runs
them on the GPU, one process at a time, and writes what each run printed
and how long it took to OUT/results.json (rewritten as it goes, so that a
run stopped by --deadline keeps what it measured). The first machine then
turns the results into the report (device_benchmarks.py --from-device,
microbench_cu.py --collect).

A program set (kind "programs"): per program, its original and every
variant (the automatic plan, SoA, Tiled(32), each at the boundary too, and
the search's candidates). Every variant runs once and is compared with the
original's output (the differential check); the candidates run
--search-runs times in all, interleaved; the fastest by kernel time
("kernel seconds: T" on stderr, CUDA events) that printed the original's
output is the oracle; then the original, the automatic plan, SoA, the
oracle and the automatic plan at the boundary run --runs times,
interleaved, after a warm-up.

A calibration set (kind "calibration"): each program runs once and its
output (one line per layout: name, ns per element, checksum) is kept.

usage: device_run.py DIR... --out OUT [--jobs 16] [--runs 5] [--search-runs 2]
                     [--deadline SECONDS]
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

# The harness's own: its output comparison and "kernel seconds: T" (the
# repository travels to the GPU machine; it needs the standard library).
from run_benchmarks import KERNEL_SECONDS, same_output

START = time.monotonic()


class Results:
    def __init__(self, out):
        self.path = os.path.join(out, "results.json")
        self.data = dict(device=device(), nvcc=nvcc_version(), programs={},
                         calibration={}, builds={}, notes=[])

    def save(self):
        self.data["elapsed_s"] = round(time.monotonic() - START, 1)
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.data, f, indent=1)
        os.replace(tmp, self.path)


def device():
    r = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                        "--format=csv,noheader"], capture_output=True, text=True)
    return r.stdout.strip() or r.stderr.strip()


def nvcc_version():
    r = subprocess.run(["nvcc", "--version"], capture_output=True, text=True)
    return r.stdout.strip().splitlines()[-1] if r.stdout.strip() else "unknown"


def build_all(jobs, sources, flags, results):
    """nvcc of every source (its binary beside it, without .cu), in
    parallel: {source: binary or None}."""
    def one(src):
        exe = src[:-3]
        r = subprocess.run(["nvcc", *flags, src, "-o", exe], capture_output=True, text=True)
        if r.returncode:
            results.data["builds"][src] = r.stderr[-3000:]
            return src, None
        return src, exe

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return dict(pool.map(one, sources))


def run_once(exe, args, timeout=60):
    t0 = time.perf_counter()
    try:
        r = subprocess.run([exe, *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return dict(returncode="timeout", wall=timeout, stdout="", stderr="")
    wall = time.perf_counter() - t0
    m = KERNEL_SECONDS.search(r.stderr)
    return dict(returncode=r.returncode, wall=wall, stdout=r.stdout,
                stderr=r.stderr[-2000:], kernel=float(m.group(1)) if m else None)


def past(deadline):
    return deadline and time.monotonic() - START > deadline


def program(p, root, binaries, flags, o, results):
    """The differential check, the search and the final runs of program P."""
    res = dict(record=p["record"], plan=p["plan"], args=p["args"], variants={})
    results.data["programs"][p["name"]] = res
    exe = {v: binaries.get(os.path.join(root, d["src"])) for v, d in p["variants"].items()}
    original = exe["aos"]
    if original is None:
        res["error"] = "the original does not build"
        return
    run_once(original, p["args"])  # warm-up: module load, clocks
    expected = run_once(original, p["args"])
    res["expected"] = expected["stdout"]
    samples = {}  # binary -> kernel seconds of each run
    status = {None: "does not build"}  # binary -> the differential check's verdict
    # Round 1: every variant (each binary once), the differential check.
    for v, b in exe.items():
        if b not in status:
            r = run_once(b, p["args"])
            ok = r["returncode"] == 0 and same_output(expected["stdout"], r["stdout"],
                                                       flags)
            status[b] = "same output" if ok else \
                f"exit {r['returncode']}: {r['stdout'][-300:]} {r['stderr'][-300:]}"
            if ok and r["kernel"] is not None:
                samples.setdefault(b, []).append(r["kernel"])
        res["variants"][v] = dict(spec=p["variants"][v].get("spec"),
                                  roles=p["variants"][v].get("roles", []), status=status[b])
    results.save()
    candidates = [v for v, d in p["variants"].items() if "candidate" in d.get("roles", [])
                  and res["variants"][v]["status"] == "same output"]
    for _ in range(o.search_runs - 1):
        if past(o.deadline):
            results.data["notes"].append(f"{p['name']}: search cut short by the deadline")
            break
        for b in dict.fromkeys(exe[v] for v in candidates):
            r = run_once(b, p["args"])
            if r["kernel"] is not None:
                samples.setdefault(b, []).append(r["kernel"])
    for v in candidates:
        res["variants"][v]["search_kernel"] = samples.get(exe[v], [])
    oracle = min(candidates, key=lambda v: statistics.median(samples.get(exe[v], [1e30])),
                 default="aos")
    res["oracle"] = oracle
    final = {"aos": "aos", "auto": "auto", "soa": "soa", "oracle": oracle,
             "boundary": "boundary"}
    unique = list(dict.fromkeys(exe[v] for v in final.values() if exe.get(v)))
    walls = {b: [] for b in unique}
    kernels = {b: [] for b in unique}
    for b in unique:
        run_once(b, p["args"])
    for _ in range(o.runs):
        for b in unique:
            r = run_once(b, p["args"])
            walls[b].append(r["wall"])
            if r["kernel"] is not None:
                kernels[b].append(r["kernel"])
    res["final"] = {name: dict(variant=v, wall=walls.get(exe.get(v), []),
                               kernel=kernels.get(exe.get(v), []))
                    for name, v in final.items()}
    results.save()


def calibration(manifest, root, binaries, o, results):
    # In a fixed shuffled order: a run cut short by the deadline leaves out
    # configurations of every shape rather than the last shapes.
    entries = list(manifest["entries"])
    random.Random(1).shuffle(entries)
    for e in entries:
        if past(o.deadline):
            results.data["notes"].append("calibration cut short by the deadline")
            break
        exe = binaries.get(os.path.join(root, e["src"]))
        if exe is None:
            results.data["calibration"][e["id"]] = dict(returncode="does not build")
            continue
        r = run_once(exe, [], timeout=30)
        results.data["calibration"][e["id"]] = dict(
            returncode=r["returncode"], stdout=r["stdout"], stderr=r["stderr"],
            wall=r["wall"])
        if len(results.data["calibration"]) % 10 == 0:
            results.save()
    results.save()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--search-runs", type=int, default=2)
    ap.add_argument("--deadline", type=float, default=0,
                    help="seconds after which no new search round or calibration "
                    "program starts")
    o = ap.parse_args()
    os.makedirs(o.out, exist_ok=True)
    results = Results(o.out)
    print(f"device: {results.data['device']}; {results.data['nvcc']}", flush=True)
    sets = []
    for d in o.dirs:
        with open(os.path.join(d, "manifest.json")) as f:
            sets.append((os.path.abspath(d), json.load(f)))
    binaries = {}
    for root, m in sets:
        srcs = [os.path.join(root, e["src"]) for e in m.get("entries", [])]
        for p in m.get("programs", []):
            srcs += [os.path.join(root, v["src"]) for v in p["variants"].values()]
        binaries.update(build_all(o.jobs, sorted(set(srcs)), m["flags"].split(), results))
        print(f"{root}: {sum(b is not None for b in binaries.values())} of "
              f"{len(binaries)} built ({time.monotonic() - START:.0f} s)", flush=True)
    results.save()
    for root, m in sets:
        if m["kind"] == "programs":
            for p in m["programs"]:
                program(p, root, binaries, m["flags"].split(), o, results)
                r = results.data["programs"][p["name"]]
                print(f"{p['name']}: oracle {r.get('oracle')}, "
                      f"{sum(v['status'] == 'same output' for v in r['variants'].values())} of "
                      f"{len(r['variants'])} variants same output "
                      f"({time.monotonic() - START:.0f} s)", flush=True)
        else:
            calibration(m, root, binaries, o, results)
            print(f"calibration: {len(results.data['calibration'])} programs run "
                  f"({time.monotonic() - START:.0f} s)", flush=True)
    results.save()


if __name__ == "__main__":
    main()
