#!/usr/bin/env python3
"""FLOPs of the matmul ops of real Kineto traces, from the trace JSON alone.

For each file given, prints one JSON line {"file", "flops", "kernel_s",
"tflops"}: every GEMM kernel (by its name) is tied, through its launch's
correlation id, to the innermost aten::mm / addmm / bmm / baddbmm,
convolution or scaled-dot-product attention op on the launching thread whose
span holds the launch; the op's FLOPs come from its "Input Dims" (2 m k n,
times b for the batched ones; a convolution's 2 per weight per output
element, the output's size from the stride, padding and dilation of its
"Concrete Inputs"; attention's Q K^T and P V, halved when is_causal) and
are counted once per op call; kernel_s is those kernels' summed time. tflops = flops / kernel_s /
1e12 is what scaleaudit reports as per_gpu[].tflops for a trace whose ops are
these four (tests/sh/test_mfu_realdata.sh). Written without scaleaudit's code.
"""
import gzip
import json
import math
import re
import sys

MATMUL = ("aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::conv2d", "aten::convolution",
          "aten::_convolution", "aten::cudnn_convolution", "aten::convolution_backward",
          "aten::scaled_dot_product_attention", "aten::_scaled_dot_product_flash_attention",
          "aten::_flash_attention_forward", "aten::_scaled_dot_product_flash_attention_backward")
GEMM = re.compile(r"gemm|cutlass|xmma|s884|s1688|h1688|conv|fprop|dgrad|wgrad|flash|fmha", re.I)
# Concrete Inputs positions by op (its ATen signature): stride, padding, dilation, groups
CONV_ARGS = {"aten::conv2d": (3, 4, 5, 6), "aten::convolution": (3, 4, 5, 8),
             "aten::_convolution": (3, 4, 5, 8), "aten::cudnn_convolution": (3, 2, 4, 5)}
CAUSAL_AT = {"aten::scaled_dot_product_attention": 5, "aten::_scaled_dot_product_flash_attention": 4,
             "aten::_flash_attention_forward": 8, "aten::_scaled_dot_product_flash_attention_backward": 11}


def pairs(text, n):
    v = json.loads(text) if text.startswith("[") else [int(text)]
    return v * n if len(v) == 1 else v


def conv(name, dims, concrete):
    """2 x output elements x weights per output; the output from stride/padding/dilation."""
    x, w = dims[0], dims[1]
    spatial = len(x) - 2
    out = list(x[2:])
    if concrete and name in CONV_ARGS:
        st, pa, di, gr = CONV_ARGS[name]
        s, p, d = (pairs(concrete[i], spatial) for i in (st, pa, di))
        if x[1] != w[1] * int(concrete[gr]):
            return None
        out = [(out[i] + 2 * p[i] - d[i] * (w[2 + i] - 1) - 1) // s[i] + 1 for i in range(spatial)]
    n = x[0] * w[0] * math.prod(out)
    return 2 * n * w[1] * math.prod(w[2:])


def attention(name, dims, concrete):
    fwd = not name.endswith("_backward")
    q, k, v = dims[0:3] if fwd else dims[1:4]
    if name == "aten::_flash_attention_forward":  # [b, s, h, d]
        scores = q[0] * q[2] * q[1] * k[1]
    else:
        scores = q[0] * q[1] * q[2] * k[2]
    f = 2 * scores * (q[3] + v[3]) if fwd else 2 * scores * (3 * q[3] + 2 * v[3])
    causal = concrete and concrete[CAUSAL_AT[name]] == "True"
    return f / 2 if causal else f


def flops(name, dims, concrete=None):
    try:
        if name == "aten::convolution_backward":
            go, w = dims[0], dims[2]
            return 2 * 2 * go[0] * go[1] * math.prod(go[2:]) * w[1] * math.prod(w[2:])
        if "conv" in name:
            return conv(name, dims, concrete)
        if "attention" in name:
            return attention(name, dims, concrete)
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
        f = flops(op["name"], op.get("args", {}).get("Input Dims"), op.get("args", {}).get("Concrete Inputs"))
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
