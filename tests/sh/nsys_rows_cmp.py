#!/usr/bin/env python3
"""Compares `inspect --json` kernel_rows and memory_rows (argv[1]) with
tests/nsys_rows.py's lines (argv[2]), file by file, to 1e-9 relative."""
import json
import sys

got = {f["path"]: f for f in json.load(open(sys.argv[1]))["files"]}
bad, n = [], 0


def same(a, b):
    if a is None or b is None:
        return a is b
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))


for want in map(json.loads, open(sys.argv[2])):
    g = got.get(want["file"])
    if g is None:
        bad.append(f"{want['file']}: not inspected")
        continue
    for key in ("kernel_rows", "memory_rows"):
        gr, wr = g.get(key, []), want[key]
        if len(gr) != len(wr):
            bad.append(f"{want['file']}: {len(gr)} {key}, the script {len(wr)}")
            continue
        for i, (a, b) in enumerate(zip(gr, wr)):
            n += 1
            if set(a) != set(b):
                bad.append(f"{want['file']}: {key}[{i}] keys {sorted(a)}, the script {sorted(b)}")
            for k in b:
                if not same(a.get(k), b[k]):
                    bad.append(f"{want['file']}: {key}[{i}].{k} = {a.get(k)!r}, the script {b[k]!r}")
for b in bad:
    print(b)
print(f"ok ({n} rows)" if not bad else f"{len(bad)} failed")
sys.exit(1 if bad else 0)
