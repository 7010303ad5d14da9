#!/usr/bin/env python3
"""Step windows of Kineto traces, computed from the trace JSON alone.

An independent check of scaleaudit's step definitions (docs/analysis.md,
"Steps"): it reads no output of scaleaudit. Usage:

    realdata_steps.py RUN=TRACE[,TRACE...] ...

prints, per run, a JSON object with what analysis.json should say:
steps (total, warmup, measured, trailing), the median of the slowest
rank's steady windows, per rank the mean steady window and its partition,
the whole-span partition of a rank without a closed window, and every
window (step, rank, start_ns, dur_s, trailing).

Definitions, restated here on purpose:
- a GPU event (cat kernel, gpu_memcpy, gpu_memset) belongs to the
  ProfilerStep#N (CPU user_annotation) whose range holds the ts of the
  runtime/driver call with the same correlation id;
- times are the trace's microseconds as decimals, times 1000, rounded half
  away from zero, plus baseTimeNanoseconds when given;
- step N's window runs from its first GPU event's start to the next step's;
  the last step's ends with its last GPU event and is trailing;
- warm-up: on the run's time per step (largest closed window of any rank),
  step 0 always, then leading steps while more than 15% above the median
  of the second half of the closed steps;
- the partition, instant by instant: compute (a kernel not NCCL) > exposed
  comm (NCCL) > memory (memcpy/memset) > idle.
"""
import decimal
import gzip
import json
import statistics
import sys

GPU_CATS = {"kernel": "kernel", "gpu_memcpy": "memory", "gpu_memset": "memory"}
LAUNCH_CATS = {"cuda_runtime", "cuda_driver"}


def ns(us):
    d = decimal.Decimal(str(us)) * 1000
    return int(d.quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f, parse_float=decimal.Decimal)


def trace_events(path):
    d = load(path)
    base = int(d.get("baseTimeNanoseconds") or 0)
    rank = (d.get("distributedInfo") or {}).get("rank", 0)
    steps, launches, gpu = [], {}, []
    for e in d["traceEvents"]:
        cat, name, args = e.get("cat"), e.get("name", ""), e.get("args") or {}
        if e.get("ph") != "X" or "ts" not in e:
            continue
        start = ns(e["ts"]) + base
        end = start + ns(e.get("dur", 0))
        if cat == "user_annotation" and name.startswith("ProfilerStep#"):
            steps.append((start, end, int(name.split("#")[1])))
        elif cat in LAUNCH_CATS and "correlation" in args:
            launches[args["correlation"]] = start
        elif cat in GPU_CATS and end > start:
            if GPU_CATS[cat] == "memory":
                cls = "memory"
            elif "nccl" in name.lower() or "Collective name" in args:
                cls = "comm"
            else:
                cls = "compute"
            gpu.append((start, end, cls, args.get("correlation")))
    steps.sort()
    events = []
    for start, end, cls, corr in gpu:
        step = None
        ts = launches.get(corr)
        for s0, s1, n in steps:
            if ts is not None and s0 <= ts <= s1:
                step = n
        events.append((start, end, cls, step))
    return rank, events


def partition(events, lo, hi):
    """compute, exposed_comm, memory, idle (ns) of [lo, hi)."""
    cuts = sorted({lo, hi} | {t for s, e, _, _ in events for t in (s, e) if lo < t < hi})
    out = {"compute": 0, "exposed_comm": 0, "memory": 0, "idle": 0}
    live = [(max(s, lo), min(e, hi), c) for s, e, c, _ in events if e > lo and s < hi]
    for a, b in zip(cuts, cuts[1:]):
        here = {c for s, e, c in live if s <= a and e >= b}
        key = ("compute" if "compute" in here else "exposed_comm" if "comm" in here
               else "memory" if "memory" in here else "idle")
        out[key] += b - a
    return out


def windows(rank, events):
    first, last = {}, {}
    for s, e, _, step in events:
        if step is None:
            continue
        first[step] = min(first.get(step, s), s)
        last[step] = max(last.get(step, e), e)
    nums = sorted(first)
    out = []
    for i, n in enumerate(nums):
        lo = first[n]
        hi = first[nums[i + 1]] if i + 1 < len(nums) else last[n]
        out.append({"step": n, "rank": rank, "start_ns": lo, "dur_ns": hi - lo,
                    "trailing": i + 1 == len(nums), "parts": partition(events, lo, hi)})
    return out


def warmup_count(nums, times):
    if not times:
        return 0
    half = times[len(times) // 2:]
    med = statistics.median(half)
    warm = 1 if nums[0] == 0 else 0
    while warm < len(times) and times[warm] > med * 1.15:
        warm += 1
    return warm


def run(paths):
    ranks = [trace_events(p) for p in paths]
    wins = {rank: windows(rank, ev) for rank, ev in ranks}
    ref = max(wins.values(), key=len)
    closed = [w["step"] for w in ref if not w["trailing"]]
    times = [max(w["dur_ns"] for r in wins.values() for w in r
                 if w["step"] == n and not w["trailing"]) for n in closed]
    warm = warmup_count(closed, times)
    last_warm = closed[warm - 1] if warm else None
    per_gpu = []
    for rank, ev in ranks:
        steady = [w for w in wins[rank] if not w["trailing"] and
                  (last_warm is None or w["step"] > last_warm)]
        g = {"rank": rank, "steady": len(steady)}
        if steady:
            g["mean_step_s"] = sum(w["dur_ns"] for w in steady) / len(steady) / 1e9
            g["step_s"] = {k: sum(w["parts"][k] for w in steady) / len(steady) / 1e9
                           for k in ("compute", "exposed_comm", "memory", "idle")}
            g["windows_s"] = [w["dur_ns"] / 1e9 for w in steady]
        if len(wins[rank]) < 2 and ev:
            lo, hi = min(s for s, _, _, _ in ev), max(e for _, e, _, _ in ev)
            g["span_s"] = {k: v / 1e9 for k, v in partition(ev, lo, hi).items()}
        per_gpu.append(g)
    slow = max((g for g in per_gpu if "mean_step_s" in g), key=lambda g: g["mean_step_s"], default=None)
    trailing = 1 if ref and ref[-1]["trailing"] else 0
    return {
        "steps": {"total": len(ref), "warmup": warm, "trailing": trailing,
                  "measured": len(ref) - trailing - warm} if ref else None,
        "median_s": statistics.median(slow["windows_s"]) if slow else None,
        "per_gpu": sorted(per_gpu, key=lambda g: g["rank"]),
        "step_windows": [{"step": w["step"], "rank": w["rank"], "start_ns": w["start_ns"],
                          "dur_s": w["dur_ns"] / 1e9, "trailing": w["trailing"]}
                         for r in sorted(wins) for w in wins[r]],
    }


def main(argv):
    out = {}
    for arg in argv:
        name, _, files = arg.partition("=")
        out[name] = run(files.split(","))
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
