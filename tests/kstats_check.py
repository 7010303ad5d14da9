#!/usr/bin/env python3
"""Per-kernel and launch statistics of Kineto traces, from the trace JSON alone.

An independent check of scaleaudit's `kernel_stats` and `launch`
(docs/analysis.md, "Per-kernel statistics" and "Launch statistics"): it
reads no output of scaleaudit. The step windows, warm-up and the slowest
rank are those of tests/realdata_steps.py. Usage:

    kstats_check.py [--top N] RUN=TRACE[,TRACE...] ...

prints, per run, {"kernel_stats": {...}, "launch": {...}} with the keys
analysis.json uses.

Definitions, restated here on purpose:
- the rank: the one with the largest mean steady window; without a
  steady step (a span-only capture), the lowest rank, over all its events;
  a trace that names no rank (distributedInfo) is rank 0;
- a GPU event (kernel, gpu_memcpy, gpu_memset) is in the window when the
  ProfilerStep (CPU user_annotation) holding the start of its launch (the
  first cuda_runtime/cuda_driver event of its correlation id, in file
  order) is after the last warm-up step and before the trailing one;
- kernel statistics group the window's events by full name; the names
  with the most total time are kept (ties by name); p50/p90 interpolate
  linearly between closest ranks (numpy's default);
- launch statistics take kernels only (cat kernel) with a launch:
  delay = kernel start - (launch ts + launch dur); a short kernel runs
  shorter than its launch call; launch CPU time counts each launch call
  once; a kernel's top-level op is the outermost cpu_op of the launch's
  thread that encloses the launch (the op whose External id the launch
  carries when that op encloses it, else the innermost enclosing op, then
  up); each top-level op's dur counts once, in the step holding its start,
  with the kernels launched within it; per step = summed over the steady
  steps / their count (over the span: not divided).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import realdata_steps as rs  # noqa: E402

GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")


def pct(v, p):
    s = sorted(v)
    pos = p / 100 * (len(s) - 1)
    lo = int(pos)
    frac = pos - lo
    return s[lo] + (s[lo + 1] - s[lo]) * frac if lo + 1 < len(s) else s[lo]


def read(path):
    d = rs.load(path)
    base = int(d.get("baseTimeNanoseconds") or 0)
    rank = (d.get("distributedInfo") or {}).get("rank", 0)
    steps, launch, gpu, ops = [], {}, [], []
    for e in d["traceEvents"]:
        cat, name, args = e.get("cat"), e.get("name", ""), e.get("args") or {}
        if e.get("ph") != "X" or "ts" not in e:
            continue
        start = rs.ns(e["ts"]) + base
        end = start + rs.ns(e.get("dur", 0))
        if cat == "user_annotation" and name.startswith("ProfilerStep#"):
            steps.append((start, end, int(name.split("#")[1])))
        elif cat in rs.LAUNCH_CATS and "correlation" in args:
            launch.setdefault(args["correlation"],
                              (start, end, e.get("tid"), args.get("External id")))
        elif cat in GPU_CATS and end >= start:
            gpu.append((start, end, name, cat, args.get("correlation")))
        elif (cat or "").lower() in ("cpu_op", "operator"):
            ops.append((start, end, e.get("tid"), args.get("External id")))
    steps.sort()
    return rank, steps, launch, gpu, ops


def step_of(steps, ts):
    hit = None
    for s0, s1, n in steps:
        if s0 <= ts <= s1:
            hit = n
    return hit


class Ops:
    """The top-level op of a launch: its thread's ops as a forest by nesting."""

    def __init__(self, ops):
        self.by_tid = {}
        def tid_key(t):
            return (0, t, "") if isinstance(t, int) else (1, 0, str(t))
        for o in sorted(ops, key=lambda o: (tid_key(o[2]), o[0], -o[1])):
            self.by_tid.setdefault(o[2], []).append(o)
        self.parent = {}
        for tid, lst in self.by_tid.items():
            stack = []
            for i, o in enumerate(lst):
                while stack and lst[stack[-1]][1] < o[0]:
                    stack.pop()
                self.parent[(tid, i)] = stack[-1] if stack else None
                stack.append(i)
        self.by_ext = {}
        for tid, lst in self.by_tid.items():
            for i, o in enumerate(lst):
                if o[3] is not None:
                    self.by_ext.setdefault(o[3], (tid, i))

    def root(self, ts, tid, ext):
        at = None
        if ext is not None and ext in self.by_ext:
            t, i = self.by_ext[ext]
            o = self.by_tid[t][i]
            if o[0] <= ts <= o[1]:
                at = (t, i)
        if at is None:
            lst = self.by_tid.get(tid, [])
            best = None
            for i, o in enumerate(lst):
                if o[0] <= ts <= o[1]:
                    best = i
            if best is None:
                return None
            at = (tid, best)
        t, i = at
        while self.parent[(t, i)] is not None:
            i = self.parent[(t, i)]
        return (t, i)


def kernel_stats(events, top):
    by = {}
    for s, e, name in events:
        by.setdefault(name, []).append(e - s)
    rows = sorted(by.items(), key=lambda kv: (-sum(kv[1]), kv[0]))[:top]
    out = []
    for name, d in rows:
        out.append({"name": name, "calls": len(d), "total_s": sum(d) / 1e9,
                    "mean_s": sum(d) / len(d) / 1e9, "min_s": min(d) / 1e9,
                    "max_s": max(d) / 1e9, "p50_s": pct(d, 50) / 1e9,
                    "p90_s": pct(d, 90) / 1e9})
    return out


def launch_stats(rank, steps, launch, gpu, ops, inside, per):
    forest = Ops(ops)
    delays, shorts, kernels = [], 0, 0
    seen_launch, seen_root = set(), set()
    launch_ns = op_cpu = op_gpu = 0
    for s, e, name, cat, corr in gpu:
        if cat != "kernel" or corr not in launch:
            continue
        l0, l1, tid, ext = launch[corr]
        root = forest.root(l0, tid, ext)
        if root is not None:
            o = forest.by_tid[root[0]][root[1]]
            if inside(step_of(steps, o[0])):
                op_gpu += e - s
                if root not in seen_root:
                    seen_root.add(root)
                    op_cpu += o[1] - o[0]
        if not inside(step_of(steps, l0)):
            continue
        kernels += 1
        delays.append(s - l1)
        shorts += (e - s) < (l1 - l0)
        if corr not in seen_launch:
            seen_launch.add(corr)
            launch_ns += l1 - l0
    if not delays:
        return {"rank": rank, "kernels": None}
    return {"rank": rank, "kernels": kernels,
            "delay_p50_s": pct(delays, 50) / 1e9, "delay_p90_s": pct(delays, 90) / 1e9,
            "delay_max_s": max(delays) / 1e9, "launch_cpu_s": launch_ns / 1e9 / per,
            "op_cpu_s": op_cpu / 1e9 / per if op_gpu else None,
            "op_kernel_s": op_gpu / 1e9 / per if op_gpu else None,
            "short_kernels": shorts, "short_share": shorts / kernels,
            "bound": None if not op_gpu else "host-bound" if op_cpu > op_gpu else "gpu-bound"}


def run(paths, top):
    want = rs.run(paths)
    reads = {p: read(p) for p in paths}
    st = want["steps"]
    span = not st or st["measured"] <= 0
    if span:
        path = min(paths, key=lambda p: reads[p][0])
    else:
        slow = max((g for g in want["per_gpu"] if "mean_step_s" in g),
                   key=lambda g: g["mean_step_s"])
        path = next(p for p in paths if reads[p][0] == slow["rank"])
    rank, steps, launch, gpu, ops = reads[path]
    nsteady = 0
    if span:
        def inside(step):
            return True
    else:
        _, events = rs.trace_events(path)
        wins = rs.windows(rank, events)
        closed = [w["step"] for w in wins if not w["trailing"]]
        last_warm = closed[st["warmup"] - 1] if st["warmup"] else None
        trailing = wins[-1]["step"] if wins and wins[-1]["trailing"] else None
        nsteady = sum(1 for n in closed if last_warm is None or n > last_warm)

        def inside(step):
            return (step is not None and (last_warm is None or step > last_warm) and
                    (trailing is None or step < trailing))
    events = []
    for s, e, name, cat, corr in gpu:
        la = launch.get(corr)
        if span or (la is not None and inside(step_of(steps, la[0]))):
            events.append((s, e, name))
    per = 1 if span else nsteady
    return {"kernel_stats": {"per": "span" if span else "step", "rank": rank,
                             "steps": None if span else nsteady,
                             "kernels": kernel_stats(events, top)},
            "launch": dict(launch_stats(rank, steps, launch, gpu, ops, inside, per),
                           per="span" if span else "step")}


def main(argv):
    top = 20
    if argv[:1] == ["--top"]:
        top, argv = int(argv[1]), argv[2:]
    out = {}
    for arg in argv:
        name, _, files = arg.partition("=")
        out[name] = run(files.split(","), top)
    json.dump(out, sys.stdout, indent=1, default=float)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
