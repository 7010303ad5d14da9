#!/usr/bin/env python3
"""Clock offsets and waiting vs transfer of one run's Kineto traces, computed
on its own from the trace JSON (not from scaleaudit's output), so that
tests/sh/test_clock_realdata.sh can compare the two.

usage: realdata_clock.py TRACE.json[.gz] ...   (the traces of one run's ranks)

Prints JSON: {"ranks": [{"rank", "offset_ns", "matched", "steps": {N: {...}}}],
"mismatched": [[kind, group, counts...]]}. Each step's values are nanoseconds
of its GPU window (first GPU work of step N to first GPU work of step N+1):
exposed_comm, exposed_comm_wait, exposed_comm_transfer, comm_total,
memory_total, kernel_busy.

Definitions (docs/analysis.md):
- communication kernel: a kernel whose name contains "nccl" (any case);
  memory: gpu_memcpy / gpu_memset; compute: any other kernel.
- kind: the collective's name, from the kernel's "Collective name" or the
  word after the first '_' of its name; process group: "Process Group Name"
  or "Process Group ID". Matched: the k-th kernel of a (kind, group) on each
  rank in start order, when every rank has as many.
- offset of rank r: median over matched kernels of (end on the lowest rank -
  end on r), a half rounded away from zero.
- wait: from the kernel's aligned start to the latest aligned start of its
  match, clipped to the kernel; an instant of communication waits only when no
  communication kernel transfers then.
"""
import gzip
import json
import sys
from decimal import Decimal, ROUND_HALF_UP
from fractions import Fraction


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f, parse_float=Decimal, parse_int=Decimal)


def ns(us):
    """Microseconds as written to integer ns, half away from zero (exact)."""
    return int((Decimal(us) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def kind_of(e):
    args = e.get("args", {})
    if "Collective name" in args:
        k = str(args["Collective name"])
    else:
        name = e["name"].split("(")[0]
        parts = name.split("_")
        k = parts[1] if len(parts) > 1 else name
    return k.lower().replace("_", "")


def group_of(e):
    args = e.get("args", {})
    if "Process Group Name" in args:
        return str(args["Process Group Name"])
    if "Process Group ID" in args:
        return str(int(args["Process Group ID"]))
    return ""


def read_rank(path):
    d = load(path)
    events = d["traceEvents"] if isinstance(d, dict) else d
    dist = d.get("distributedInfo", {}) if isinstance(d, dict) else {}
    base = int(d.get("baseTimeNanoseconds", 0)) if isinstance(d, dict) else 0
    rank = int(dist.get("rank", -1))
    steps, launches, work = [], {}, []
    for e in events:
        if e.get("ph") != "X" or "ts" not in e:
            continue
        cat, name = e.get("cat", ""), e.get("name", "")
        ts = base + ns(e["ts"])
        end = ts + ns(e.get("dur", 0))
        if cat == "user_annotation" and name.startswith("ProfilerStep#"):
            steps.append((ts, end, int(name.split("#")[1])))
        elif cat in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
            launches[int(e["args"]["correlation"])] = ts
        elif cat in ("kernel", "gpu_memcpy", "gpu_memset"):
            if cat != "kernel":
                cls = "memory"
            elif "nccl" in name.lower():
                cls = "comm"
            else:
                cls = "compute"
            work.append({"start": ts, "end": end, "cls": cls, "e": e,
                         "corr": int(e.get("args", {}).get("correlation", -1))})
    steps.sort()
    for w in work:
        t = launches.get(w["corr"])
        w["step"] = -1
        for s in steps:
            if t is not None and s[0] <= t <= s[1]:
                w["step"] = s[2]
    return {"rank": rank, "work": work}


def match(ranks):
    """Offsets, and each comm kernel's wait (set as w['wait'])."""
    for r in ranks:
        for w in r["work"]:
            w["wait"] = 0
    ref = min(range(len(ranks)), key=lambda i: ranks[i]["rank"])
    lanes = []
    for r in ranks:
        by = {}
        for w in sorted((w for w in r["work"] if w["cls"] == "comm"),
                        key=lambda w: (w["start"], w["end"])):
            by.setdefault((kind_of(w["e"]), group_of(w["e"])), []).append(w)
        lanes.append(by)
    keys = sorted(set().union(*[set(b) for b in lanes]))
    matched, mismatched = [], []
    for key in keys:
        counts = [len(b.get(key, [])) for b in lanes]
        if len(ranks) > 1 and len(set(counts)) == 1:
            matched.append(key)
        elif len(ranks) > 1:
            mismatched.append(list(key) + counts)
    offsets = []
    for i, b in enumerate(lanes):
        diffs = [lanes[ref][k][j]["end"] - b[k][j]["end"]
                 for k in matched for j in range(len(b[k]))]
        if i == ref:
            offsets.append(0)
        elif diffs:
            m = Fraction(sorted(diffs)[len(diffs) // 2]) if len(diffs) % 2 else \
                Fraction(sorted(diffs)[len(diffs) // 2 - 1] + sorted(diffs)[len(diffs) // 2], 2)
            offsets.append(int(m + Fraction(1, 2)) if m >= 0 else -int(-m + Fraction(1, 2)))
        else:
            offsets.append(None)
    for k in matched:
        for j in range(len(lanes[ref][k])):
            group = [(b[k][j], offsets[i]) for i, b in enumerate(lanes)]
            latest = max(w["start"] + o for w, o in group)
            for w, o in group:
                w["wait"] = max(0, min(latest - (w["start"] + o), w["end"] - w["start"]))
    return offsets, sum(len(lanes[ref][k]) for k in matched), mismatched


def windows(work):
    first, last = {}, {}
    for w in work:
        if w["step"] < 0:
            continue
        first[w["step"]] = min(first.get(w["step"], w["start"]), w["start"])
        last[w["step"]] = max(last.get(w["step"], w["end"]), w["end"])
    nums = sorted(first)
    bounds = [first[n] for n in nums]
    for i in range(1, len(bounds)):
        bounds[i] = max(bounds[i], bounds[i - 1])
    if nums:
        bounds.append(max(last[nums[-1]], bounds[-1]))
    return nums, bounds


def partition(work, lo, hi):
    """Sweep of [lo, hi): every instant classed as the definitions say."""
    edges = []
    for w in work:
        parts = [("wait", w["start"], w["start"] + w["wait"]),
                 (w["cls"], w["start"] + w["wait"], w["end"])] if w["cls"] == "comm" else \
                [(w["cls"], w["start"], w["end"])]
        for cls, s, e in parts:
            s, e = max(s, lo), min(e, hi)
            if e > s:
                edges += [(s, 1, cls), (e, -1, cls)]
    edges.sort(key=lambda x: x[0])
    open_ = {"compute": 0, "comm": 0, "wait": 0, "memory": 0}
    out = dict.fromkeys(["exposed_comm", "exposed_comm_wait", "exposed_comm_transfer",
                         "comm_total", "memory_total", "kernel_busy"], 0)
    t = lo
    for x, d, cls in edges:
        seg = x - t
        if seg > 0:
            comm = open_["comm"] > 0 or open_["wait"] > 0
            if comm:
                out["comm_total"] += seg
                if open_["compute"] == 0:
                    out["exposed_comm"] += seg
                    out["exposed_comm_" + ("transfer" if open_["comm"] > 0 else "wait")] += seg
            if open_["memory"] > 0:
                out["memory_total"] += seg
            if any(open_.values()):
                out["kernel_busy"] += seg
            t = x
        open_[cls] += d
    return out


def main(paths):
    ranks = sorted((read_rank(p) for p in paths), key=lambda r: r["rank"])
    offsets, nmatched, mismatched = match(ranks)
    out = {"ranks": [], "mismatched": mismatched}
    for r, off in zip(ranks, offsets):
        nums, bounds = windows(r["work"])
        steps = {str(n): partition(r["work"], bounds[i], bounds[i + 1])
                 for i, n in enumerate(nums)}
        out["ranks"].append({"rank": r["rank"], "offset_ns": off, "matched": nmatched,
                             "steps": steps})
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
