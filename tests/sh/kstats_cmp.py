#!/usr/bin/env python3
"""Compares analysis.json's kernel_stats and launch (argv[1]) with what
tests/kstats_check.py computed from the traces (argv[2]), run by run:
every key the script gives, every kept kernel in order; numbers within
1e-9 s (or 1e-9 relative), strings and nulls exactly. Prints each
difference and exits 1 when there is one."""
import json
import sys

got = {r["name"]: r for r in json.load(open(sys.argv[1]))["runs"]}
want = json.load(open(sys.argv[2]))
bad = []


def close(a, b):
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        return a == b
    return abs(a - b) <= 1e-9 + 1e-9 * abs(b)


for name, w in want.items():
    g = got[name]
    for sect in ("kernel_stats", "launch"):
        for k, v in w[sect].items():
            if sect == "kernel_stats" and k == "kernels":
                gk = g[sect]["kernels"]
                if len(gk) != len(v) or not v:
                    bad.append(f"{name}: {len(gk)} kernels, the script keeps {len(v)}")
                for i, (a, b) in enumerate(zip(gk, v)):
                    for kk, vv in b.items():
                        if not close(a[kk], vv):
                            bad.append(f"{name} kernel_stats.kernels[{i}].{kk}: {a[kk]!r}, "
                                       f"the script says {vv!r}")
            elif not close(g[sect][k], v):
                bad.append(f"{name} {sect}.{k}: {g[sect][k]!r}, the script says {v!r}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
