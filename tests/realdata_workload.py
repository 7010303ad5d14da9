#!/usr/bin/env python3
"""Workload overlap of two runs' Kineto traces, computed from the trace JSON alone.

An independent check of scaleaudit's workload identity (docs/analysis.md,
"Workload identity"): it reads no output of scaleaudit. Usage:

    realdata_workload.py TRACE[,TRACE...] TRACE[,TRACE...]

the first argument the baseline's rank traces, the second the candidate's;
prints a JSON object: each run's overlap (the share of its kernel time in
families the other run also has), its kernel time in seconds, its share in
Triton-generated kernels, and its largest families found on its side only.

Definitions, restated here on purpose and written another way than the C
code (regular expressions instead of token scans):
- kernel time is the sum of the durations of the trace's `kernel` events,
  communication kernels (NCCL, RCCL, SendRecv, symmetric memory) left out,
  whose launch (the runtime call of the same correlation id) falls in a
  steady ProfilerStep of that rank (steady as tests/realdata_steps.py
  computes it: neither warm-up nor trailing); when the run has no steady
  step (one ProfilerStep per rank, which no next step closes), over the
  whole profiled span: every such kernel of the rank;
- a run's families are the union over its ranks, and its time per family
  the sum over its ranks;
- the family of a kernel: a matmul-class kernel (GEMM, convolution,
  attention: the token lists below) is its class; an ATen launcher
  (elementwise, reduce, multi-tensor apply, index) is the launcher's kind
  with the first operation its template arguments name; any other kernel is
  its name without return type, namespaces, template arguments and argument
  list, without the '_'-separated words that spell a dtype, an architecture,
  a layout, a tile or launch shape, or a number.
"""
import json
import re
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import realdata_steps  # noqa: E402  the step rules, restated once for every real-data check

COMM = re.compile(r"ncclSymkDevKernel|ncclDevKernel|ncclKernel|rcclKernel|rccl|SendRecv|"
                  r"multimem_all_reduce|one_shot_all_reduce|two_shot_all_reduce|"
                  r"multimem_all_gather|multimem_reduce_scatter")
MATMUL = re.compile(r"gemm|Gemm|GEMM|nvjet|xmma|cutlass|cublas|s16816|h16816|s1688|h1688|884|"
                    r"flash|fmha|attention|Attention|sdpa|fprop|dgrad|wgrad|conv|Conv|cudnn|"
                    r"bmm_|matmul|Matmul|triton_tem_|addmm|Cijk_")
NEVER_MATMUL = re.compile(r"fbgemm|triton_poi_|triton_per_|triton_red_|cudnn::bn_|cudnn::ops::")
CLASSES = [(re.compile(r"flash|fmha|ttention"), "attention"),
           (re.compile(r"conv|fprop|grad|Conv"), "conv")]
LAUNCHERS = {
    "vectorized_elementwise_kernel": "elementwise", "unrolled_elementwise_kernel": "elementwise",
    "elementwise_kernel": "elementwise", "elementwise_kernel_with_index": "elementwise",
    "reduce_kernel": "reduce", "multi_tensor_apply_kernel": "multi_tensor_apply",
    "index_elementwise_kernel": "index",
}
NOT_AN_OP = set("""
    void bool char short int long unsigned signed float double half const true false auto
    Half BFloat16 bfloat16 bfloat16_t half_t Float8_e4m3fn Float8_e5m2 complex
    int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
    anonymous namespace lambda operator decltype nullptr
    gpu_kernel_impl gpu_kernel_impl_nocast gpu_index_kernel ReduceOp func_wrapper_t
    AUnaryFunctor BUnaryFunctor BinaryFunctor UnaryFunctor TensorListMetadata
    FusedOptimizerTensorListMetadata OpaqueType Array array TrivialOffsetCalculator
    OffsetCalculator LoadWithCast StoreWithCast LoadWithoutCast StoreWithoutCast
    TensorIteratorBase TensorIterator Scalar
""".split())
# Triton-generated kernels: "triton" in the name, unless a library named earlier claims it.
TRITON = re.compile(r"^(?!.*(?:nvjet|rccl|nccl|multimem_|one_shot_all_reduce|two_shot_all_reduce|"
                    r"symmetric_memory|cudnn|flash|fbgemm|cutlass|cublas|xmma|gemv|gemmk1|"
                    r"splitKreduce|ampere_|volta_|turing_|maxwell_|hopper_)).*triton")
DROP_WORD = re.compile(
    r"\d+|"                                             # a number (Inductor's _12)
    r"bf16|fp16|f16|half|fp32|f32|float|tf32|bfloat16|fp64|f64|double|fp8|e4m3|e5m2|"
    r"int8|s8|i8|u8|fp4|e2m1|stages|"                   # dtypes, a launch word
    r"sm\d+[af]?|"                                      # architectures
    r"tn|nn|nt|tt|TN|NN|NT|TT|[TN]{3}|v|h|bz|splitK|f2f|"   # layouts and launch flags
    r"[\dx]*\d[\dx]*|\d+cta|"                           # tiles: 128x256, 5x, 2cta
    r"(?:ldg|align|stages?|tilesize|warpgroupsize|warpsize|sliced|tensor)[\dx]*\d[\dx]*|"
    r"(?:\d+d)+e?")                                     # Triton signatures: 0d1d2de


def family(name):
    if COMM.search(name):
        return None
    if MATMUL.search(name) and not NEVER_MATMUL.search(name):
        for pat, cls in CLASSES:
            if pat.search(name):
                return cls
        return "gemm"
    s = re.sub(r"^void ", "", name).replace("(anonymous namespace)::", "")
    m = re.match(r"((?:[\w~]+::)*)([\w~]+)", s)
    if not m:
        return s
    head, rest = m.group(2), s[m.end():]
    if head in LAUNCHERS and rest.startswith("<"):
        for w in re.finditer(r"(?<!\w)[A-Za-z_]\w*", rest):
            if rest.startswith("::", w.end()) or w.group() in NOT_AN_OP:
                continue
            return LAUNCHERS[head] + " " + w.group()
        return LAUNCHERS[head]
    words = [w for w in head.split("_") if w and not DROP_WORD.fullmatch(w)]
    return "_".join(words) if words else head


ns = realdata_steps.ns


def load(path):
    d = realdata_steps.load(path)
    return d["traceEvents"] if isinstance(d, dict) else d


def steady_steps(paths):
    """Per trace, the numbers of its steady steps (realdata_steps.py's rules); {} when none."""
    ranks = [realdata_steps.trace_events(p) for p in paths]
    wins = [realdata_steps.windows(rank, ev) for rank, ev in ranks]
    ref = max(wins, key=len)
    closed = [w["step"] for w in ref if not w["trailing"]]
    times = [max(w["dur_ns"] for r in wins for w in r if w["step"] == n and not w["trailing"])
             for n in closed]
    warm = realdata_steps.warmup_count(closed, times)
    last = closed[warm - 1] if warm else None
    steady = {p: {w["step"] for w in r if not w["trailing"] and (last is None or w["step"] > last)}
              for p, r in zip(paths, wins)}
    return steady if any(steady.values()) else {}


def kernel_steps(events):
    """Each kernel event's ProfilerStep number, by the step holding its launch; None outside."""
    marks = sorted((ns(e["ts"]), ns(e["ts"]) + ns(e.get("dur", 0)), int(e["name"].split("#")[1]))
                   for e in events if isinstance(e, dict) and e.get("cat") == "user_annotation"
                   and str(e.get("name", "")).startswith("ProfilerStep#") and e.get("ph") == "X")
    launch = {e["args"]["correlation"]: ns(e["ts"]) for e in events
              if isinstance(e, dict) and e.get("cat") in ("cuda_runtime", "cuda_driver")
              and e.get("ph") == "X" and "correlation" in (e.get("args") or {})}
    out = {}
    for i, e in enumerate(events):
        ts = launch.get((e.get("args") or {}).get("correlation")) if isinstance(e, dict) else None
        hit = [n for lo, hi, n in marks if ts is not None and lo <= ts <= hi]
        out[i] = hit[-1] if hit else None
    return out


def rank_families(path, steady, out):
    """Adds one trace's kernel time by family to out: over steady steps, or its whole span."""
    events = load(path)
    step = kernel_steps(events) if steady is not None else {}
    for i, e in enumerate(events):
        if not isinstance(e, dict) or e.get("cat") != "kernel" or e.get("ph") != "X":
            continue
        if steady is not None and step.get(i) not in steady:
            continue
        name = e.get("name", "")
        fam = family(name)
        if fam is None:
            continue
        t = ns(e.get("dur", 0))
        out["fams"][fam] = out["fams"].get(fam, 0) + t
        out["triton"] += t if TRITON.search(name) else 0


def run_families(arg):
    paths = arg.split(",")
    steady = steady_steps(paths)
    run = {"fams": {}, "triton": 0, "basis": "steady" if steady else "span"}
    for path in paths:
        rank_families(path, steady.get(path, set()) if steady else None, run)
    return run


def side(run, other):
    mine, triton = run["fams"], run["triton"]
    total = sum(mine.values())
    only = sorted(((t, f) for f, t in mine.items() if f not in other["fams"]),
                  key=lambda x: (-x[0], x[1]))
    return {
        "overlap": sum(t for f, t in mine.items() if f in other["fams"]) / total if total else None,
        "kernel_time_s": total / 1e9,
        "triton_share": triton / total if total else None,
        "only": [{"family": f, "share": t / total} for t, f in only[:3]],
        "families": len(mine),
        "basis": run["basis"],
    }


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    b, c = run_families(sys.argv[1]), run_families(sys.argv[2])
    json.dump({"baseline": side(b, c), "candidate": side(c, b)},
              sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
