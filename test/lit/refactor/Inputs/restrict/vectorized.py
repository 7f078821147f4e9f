"""Prints "NAME: vectorized" for each function of SOURCE (a C file, functions
starting at column 0) with a loop gcc reports vectorized in REMARKS (the
output of -fopt-info-vec-optimized)."""
import re
import sys

source, remarks = sys.argv[1], sys.argv[2]
starts = []
for number, line in enumerate(open(source), 1):
    m = re.match(r"[A-Za-z_][\w ]*[ *](\w+)\(", line)
    if m and not line.rstrip().endswith(";"):
        starts.append((number, m.group(1)))
done = set()
for line in open(remarks):
    m = re.search(r":(\d+):\d+: optimized: loop vectorized", line)
    if not m:
        continue
    at = int(m.group(1))
    name = max((s for s in starts if s[0] <= at), default=(0, "?"))[1]
    if name not in done:
        done.add(name)
        print(f"{name}: vectorized")
