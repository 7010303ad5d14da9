#!/usr/bin/env python3
"""Kernel (and memcpy/memset) time per steady step, by full kernel name, from Kineto traces alone.

usage: realdata_kernels.py RUN=TRACE STEPS... > want.json

Each kernel belongs to the ProfilerStep#N (CPU annotation) that its launch
(the runtime event with the same correlation id) falls in. STEPS names the
steady steps of each run as N,N,... after a colon: RUN=TRACE:101,102,103.
Writes {run: {name: [time_per_step_s, calls_per_step]}}.
"""
import gzip
import json
import sys


def per_name(path, steady):
    d = json.load(gzip.open(path))
    ev = d["traceEvents"]
    steps = sorted((e["ts"], e["ts"] + e["dur"], int(e["name"].split("#")[1])) for e in ev
                   if e.get("cat") == "user_annotation" and e.get("name", "").startswith("ProfilerStep#"))
    launch = {e["args"]["correlation"]: e["ts"] for e in ev
              if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {})}
    out = {}
    for e in ev:
        if e.get("cat") not in ("kernel", "gpu_memcpy", "gpu_memset"):
            continue
        ts = launch.get(e["args"].get("correlation"))
        step = next((n for s, t, n in steps if ts is not None and s <= ts <= t), None)
        if step not in steady:
            continue
        t = out.setdefault(e["name"], [0.0, 0])
        t[0] += e["dur"] / 1e6
        t[1] += 1
    return {k: [v[0] / len(steady), v[1] / len(steady)] for k, v in out.items()}


want = {}
for arg in sys.argv[1:]:
    run, rest = arg.split("=", 1)
    path, steps = rest.rsplit(":", 1)
    want[run] = per_name(path, {int(s) for s in steps.split(",")})
json.dump(want, sys.stdout)
