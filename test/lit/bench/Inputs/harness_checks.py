"""Prints what the benchmark harnesses decide on small made-up inputs
(harness.test): whether a rewrite changed a file, which plans are the
all-SoA layout, and the date line of a report with merged rows."""
import os
import sys
import types

sys.path.insert(0, sys.argv[1])
import device_benchmarks  # noqa: E402
import run_benchmarks  # noqa: E402

work = sys.argv[2]


def tree(name, files):
    d = os.path.join(work, name)
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(d, path)), exist_ok=True)
        with open(os.path.join(d, path), "w") as f:
            f.write(text)
    return types.SimpleNamespace(dir=d)


pristine = tree("pristine", {"a.c": "int a;", "inc/a.h": "struct T;",
                             "compile_commands.json": "[1]", "prog.bin": "built"})
same = tree("same", {"a.c": "int a;", "inc/a.h": "struct T;",
                     "compile_commands.json": "[2]"})
header = tree("header", {"a.c": "int a;", "inc/a.h": "struct T_soa;"})
extra = tree("extra", {"a.c": "int a;", "inc/a.h": "struct T;", "b.h": ""})
for name, copy in [("same", same), ("header", header), ("extra", extra)]:
    print(name, "unchanged" if run_benchmarks.unchanged(copy, pristine) else "changed")

for plan in ["soa", "split:{x,y}soa{tag}aos", "split:{x,y}aos{tag}soa",
             "split:{x}tiled:4{y}soa", "aos"]:
    print(plan, device_benchmarks.soa_layout(plan))

rows = [dict(name="a", date="2026-11-26"), dict(name="b", date="2026-11-27"),
        dict(name="c", date="2026-11-26"), dict(name="d")]
print("measured", device_benchmarks.measured(rows, "2026-11-27"))
