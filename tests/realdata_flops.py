#!/usr/bin/env python3
"""FLOPs of the matmul ops of real Kineto traces, from the trace JSON alone.

For each file given, prints one JSON line {"file", "flops", "kernel_s",
"tflops"}: every GEMM kernel (by its name) is tied, through its launch's
correlation id, to the innermost aten::mm / addmm / bmm / baddbmm on the
launching thread whose span holds the launch; the op's FLOPs come from its
"Input Dims" (2 m k n, times b for the batched ones) and are counted once per
op call; kernel_s is those kernels' summed time. tflops = flops / kernel_s /
1e12 is what scaleaudit reports as per_gpu[].tflops for a trace whose ops are
these four (tests/sh/test_mfu_realdata.sh). Written without scaleaudit's code.
"""
import gzip
import json
import re
import sys

MATMUL = ("aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm")
GEMM = re.compile(r"gemm|cutlass|xmma|s884|s1688|h1688", re.I)


def flops(name, dims):
    try:
        if name == "aten::mm":
            (m, k), (_, n) = dims[0], dims[1]
            return 2 * m * k * n
        if name == "aten::addmm":
            (m, k), (_, n) = dims[1], dims[2]
            return 2 * m * k * n
        if name == "aten::bmm":
            (b, m, k), (_, _, n) = dims[0], dims[1]
            return 2 * b * m * k * n
        if name == "aten::baddbmm":
            (b, m, k), (_, _, n) = dims[1], dims[2]
            return 2 * b * m * k * n
    except (TypeError, ValueError, IndexError):
        return None
    return None


def one(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        events = json.load(f)["traceEvents"]
    launch = {e["args"]["correlation"]: e for e in events
              if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {})}
    ops = {}
    for e in events:
        if e.get("cat") == "cpu_op" and e.get("ph") == "X" and e.get("name") in MATMUL:
            ops.setdefault((e["pid"], e["tid"]), []).append(e)
    total, seconds, counted = 0, 0.0, set()
    for e in events:
        if e.get("cat") != "kernel" or not GEMM.search(e.get("name", "")):
            continue
        la = launch.get(e.get("args", {}).get("correlation"))
        if la is None:
            continue
        around = [o for o in ops.get((la["pid"], la["tid"]), []) if o["ts"] <= la["ts"] <= o["ts"] + o["dur"]]
        if not around:
            continue
        op = min(around, key=lambda o: o["dur"])
        f = flops(op["name"], op.get("args", {}).get("Input Dims"))
        if f is None:
            continue
        seconds += e["dur"] * 1e-6
        key = (op["pid"], op["tid"], op["ts"])
        if key not in counted:
            counted.add(key)
            total += f
    return {"file": path, "flops": total, "kernel_s": seconds,
            "tflops": total / seconds / 1e12 if seconds else None}


for p in sys.argv[1:]:
    print(json.dumps(one(p)))
