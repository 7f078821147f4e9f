#!/usr/bin/env python3
"""Writes DIR/compile_commands.json for the given sources of DIR, as CMake
would (absolute directory, one `cc -c` command per file).

usage: make_db.py DIR FILE.c[=FILE_FLAGS]... [-- FLAGS...]
(FILE_FLAGS: flags for that file only, comma-separated: one.c=-DFAST,-O2)
"""
import json
import os
import sys

args = sys.argv[1:]
flags = args[args.index("--") + 1:] if "--" in args else []
args = args[:args.index("--")] if "--" in args else args
directory, files = os.path.abspath(args[0]), args[1:]
with open(os.path.join(directory, "compile_commands.json"), "w") as f:
    entries = []
    for spec in files:
        name, _, own = spec.partition("=")
        own_flags = own.split(",") if own else []
        entries.append({"directory": directory, "file": name,
                        "command": " ".join(["clang-19", *flags, *own_flags, "-c",
                                             name, "-o", name + ".o"])})
    json.dump(entries, f, indent=1)
