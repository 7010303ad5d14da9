#!/usr/bin/env python3
"""Idle time by cause of Kineto traces, computed from the trace JSON alone.

An independent check of scaleaudit's idle split (docs/analysis.md, "Idle
by cause"): it reads no output of scaleaudit. The step windows, warm-up and
steady steps are those of tests/realdata_steps.py. Usage:

    realdata_idle.py RUN=TRACE[,TRACE...] ...

prints, per run and rank, the idle per steady step (or over the span when
no step closes) and its split: host, sync, other (seconds), and beside it
HTA's per-stream breakdown of the trace less its last step (host wait,
kernel wait, other, ns, all streams summed) for comparison.

Definitions, restated here on purpose:
- a gap is a time when no GPU event (kernel, memcpy, memset) runs on any
  stream of the rank; it begins when the last one running ends;
- the events that start when the gap ends close it; the earliest start of
  their runtime/driver calls (same correlation id, the first such call in
  the file) decides: after the gap began -> host, at or before -> sync, no
  call known, no event before the gap, or no event after it -> other;
- a gap cut by a window keeps its cause in each window.
HTA (hta/analyzers/breakdown_analysis.py, _analyze_idle_time_for_stream):
per stream, kernels by ts; gap = ts - previous end on the stream; host wait
if the launch began after the previous kernel ended, else kernel wait if
the gap is under consecutive_kernel_delay (30 ns), else other; HTA drops
the last ProfilerStep (here: events that start in the last step's window).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import realdata_steps as rs  # noqa: E402

GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")


def read(path):
    d = rs.load(path)
    base = int(d.get("baseTimeNanoseconds") or 0)
    rank = (d.get("distributedInfo") or {}).get("rank", 0)
    launch, gpu = {}, []
    for e in d["traceEvents"]:
        cat, args = e.get("cat"), e.get("args") or {}
        if e.get("ph") != "X" or "ts" not in e:
            continue
        start = rs.ns(e["ts"]) + base
        if cat in rs.LAUNCH_CATS and "correlation" in args:
            launch.setdefault(args["correlation"], start)
        elif cat in GPU_CATS:
            gpu.append((start, start + rs.ns(e.get("dur", 0)), args.get("correlation"),
                        args.get("stream"), e["ts"], e.get("dur", 0)))
    return rank, launch, gpu


def gaps(launch, gpu):
    """(begin, end, cause) of every gap between the first and last event."""
    ev = sorted((s, e, launch.get(c)) for s, e, c, _, _, _ in gpu if e > s)
    out, busy_end, i = [], None, 0
    while i < len(ev):
        t = ev[i][0]
        group = []
        while i < len(ev) and ev[i][0] == t:
            group.append(ev[i])
            i += 1
        if busy_end is not None and t > busy_end:
            known = [la for _, _, la in group if la is not None]
            cause = "other" if not known else "host" if min(known) > busy_end else "sync"
            out.append((busy_end, t, cause))
        ends = max(e for _, e, _ in group)
        busy_end = ends if busy_end is None else max(busy_end, ends)
    return out, busy_end


def split(gap_list, tail, lo, hi):
    out = {"host": 0, "sync": 0, "other": 0}
    for a, b, cause in gap_list + [(tail, None, "other")]:
        b = hi if b is None else b
        a = lo if a is None else a
        if b > lo and a < hi:
            out[cause] += min(b, hi) - max(a, lo)
    return out


def hta(launch, gpu, before):
    """HTA's categories in ns, all streams summed, events starting before `before`."""
    by_stream = {}
    for s, e, c, stream, _, _ in gpu:
        if s < before:
            by_stream.setdefault(stream, []).append((s, e, c))
    out = {"host_wait": 0, "kernel_wait": 0, "other": 0}
    for evs in by_stream.values():
        evs.sort(key=lambda x: x[0])
        for (_, pend, _), (s, _, c) in zip(evs, evs[1:]):
            gap = s - pend
            la = launch.get(c)
            if la is not None and la > pend:
                out["host_wait"] += gap
            elif gap < 30:
                out["kernel_wait"] += gap
            else:
                out["other"] += gap
    return out


def run(paths):
    want = rs.run(paths)
    res = []
    for p in paths:
        rank, launch, gpu = read(p)
        _, events = rs.trace_events(p)
        wins = rs.windows(rank, events)
        g = next(x for x in want["per_gpu"] if x["rank"] == rank)
        gl, tail = gaps(launch, gpu)
        last_warm = None
        st = want["steps"]
        if st and st["warmup"]:
            closed = [w["step"] for w in wins if not w["trailing"]]
            last_warm = closed[st["warmup"] - 1] if len(closed) >= st["warmup"] else None
        steady = [w for w in wins if not w["trailing"] and
                  (last_warm is None or w["step"] > last_warm)]
        last = max((w["start_ns"] for w in wins), default=None)
        r = {"rank": rank, "hta_ns": hta(launch, gpu, last if last is not None else 1 << 62)}
        if steady and g.get("steady"):
            tot = {"host": 0, "sync": 0, "other": 0}
            for w in steady:
                for k, v in split(gl, tail, w["start_ns"], w["start_ns"] + w["dur_ns"]).items():
                    tot[k] += v
            r["step_s"] = {k: v / len(steady) / 1e9 for k, v in tot.items()}
            r["step_s"]["idle"] = g["step_s"]["idle"]
        if "span_s" in g:
            lo = min(s for s, e, _, _, _, _ in gpu if e > s)
            hi = max(e for s, e, _, _, _, _ in gpu if e > s)
            r["span_s"] = {k: v / 1e9 for k, v in split(gl, tail, lo, hi).items()}
            r["span_s"]["idle"] = g["span_s"]["idle"]
        res.append(r)
    return res


def main(argv):
    out = {}
    for arg in argv:
        name, _, files = arg.partition("=")
        out[name] = run(files.split(","))
    json.dump(out, sys.stdout, indent=1, default=float)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
