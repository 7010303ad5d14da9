#!/usr/bin/env python3
"""Clock offsets and waiting vs transfer of one run's Kineto traces, computed
on its own from the trace JSON (not from scaleaudit's output), so that
tests/sh/test_clock_realdata.sh can compare the two.

usage: realdata_clock.py [--stragglers] TRACE.json[.gz] ...
                                (the traces of one run's ranks)

Prints JSON: {"ranks": [{"rank", "offset_ns", "matched", "steps": {N: {...}}}],
"mismatched": [[kind, group, counts...]]}. Each step's values are nanoseconds
of its GPU window (first GPU work of step N to first GPU work of step N+1):
exposed_comm, exposed_comm_wait, exposed_comm_transfer, comm_total,
memory_total, kernel_busy. A rank with no closed step (no step, or a single
one, which trails) also has "span": the partition of its whole profiled span
(its first to its last GPU activity) under all ten keys of span_s (compute,
exposed_comm, memory, idle, comm_total, overlapped_comm, exposed_comm_wait,
exposed_comm_transfer, memory_total, kernel_busy; "window" its length), and
"comm_kernels", its count of communication kernels.

--stragglers prints, as text instead, what a straggler rule needs: each
rank's span split, the ranks' waiting (exposed_comm_wait of the span) sorted,
each rank's waiting against half the median of the others' and of all ranks',
and for each matched collective the rank that started last (on the common
clock; a tie counts for the lowest rank), with the others' waiting in it
(per kernel) summed per such rank ("waiting it caused").

Definitions (docs/analysis.md):
- communication kernel: a kernel whose name contains "nccl" (any case);
  memory: gpu_memcpy / gpu_memset; compute: any other kernel.
- kind: the collective's name, from the kernel's "Collective name" or the
  word after the first '_' of its name; a kernel of kind sendrecv, send or
  recv takes the collective of the "nccl:NAME" or "c10d::NAME" op its launch
  ran in (on the launching thread), when that names another (NCCL runs
  all-to-all as SendRecv kernels); process group: "Process Group Name"
  or "Process Group ID". Matched: the k-th kernel of a (kind, group) on each
  rank in start order, when every rank has as many.
- offset of rank r: median over matched kernels of (end on the lowest rank -
  end on r), a half rounded away from zero.
- collectives (ranks without a closed step): per kind and dtype (the word of
  the kernel's name after its collective), calls, kernel time and waiting.
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


KINDS = ("allreduce", "allgather", "reducescatter", "alltoall", "broadcast", "reduce",
         "sendrecv", "send", "recv", "gather", "scatter", "barrier")
P2P = ("sendrecv", "send", "recv")


def normal_kind(k):
    k = k.lower().replace("_", "")
    for known in KINDS:
        if k.startswith(known):
            return known
    return k


def kind_of(w):
    e = w["e"]
    args = e.get("args", {})
    if "Collective name" in args:
        k = str(args["Collective name"])
    else:
        name = e["name"].split("(")[0]
        parts = name.split("_")
        k = parts[1] if len(parts) > 1 else name
    k = normal_kind(k)
    asked = w.get("asked")
    return asked if k in P2P and asked and asked not in P2P else k


DTYPE_WORDS = {"f16": "fp16", "half": "fp16", "f32": "fp32", "float": "fp32", "bf16": "bf16",
               "int8_t": "int8", "int8": "int8", "i8": "int8", "f64": "fp64", "double": "fp64"}


def dtype_of(e):
    """The dtype word of an NCCL kernel's name (after its collective), as scaleaudit names it."""
    words = e["name"].split("(")[0].split("_")[2:]
    return next((DTYPE_WORDS[w] for w in words if w in DTYPE_WORDS), None)


def collectives_of(work):
    """Per (kind, dtype) of a rank's comm kernels: calls, kernel time, waiting (ns)."""
    out = {}
    for w in work:
        if w["cls"] != "comm":
            continue
        c = out.setdefault(f"{kind_of(w)}/{dtype_of(w['e'])}", {"calls": 0, "time": 0, "wait": 0})
        c["calls"] += 1
        c["time"] += w["end"] - w["start"]
        c["wait"] += w["wait"]
    return out


def asked_of(ops, launch):
    """The collective of the innermost nccl:/c10d:: op around a launch (ts, tid)."""
    best = None
    for start, end, tid, name in ops:
        if tid == launch[1] and start <= launch[0] <= end and (best is None or start >= best[0]):
            best = (start, name)
    if best is None:
        return None
    name = best[1].split("::", 1)[1] if best[1].startswith("c10d::") else best[1].split(":", 1)[1]
    k = normal_kind(name)
    return k if k in KINDS else None


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
    steps, launches, work, ops = [], {}, [], []
    for e in events:
        if e.get("ph") != "X" or "ts" not in e:
            continue
        cat, name = e.get("cat", ""), e.get("name", "")
        ts = base + ns(e["ts"])
        end = ts + ns(e.get("dur", 0))
        if cat == "user_annotation" and name.startswith("ProfilerStep#"):
            steps.append((ts, end, int(name.split("#")[1])))
        elif cat in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
            launches[int(e["args"]["correlation"])] = (ts, e.get("tid"))
        elif cat == "cpu_op" and (name.startswith("nccl:") or name.startswith("c10d::")):
            ops.append((ts, end, e.get("tid"), name))
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
            if t is not None and s[0] <= t[0] <= s[1]:
                w["step"] = s[2]
        if w["cls"] == "comm" and t is not None:
            w["asked"] = asked_of(ops, t)
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
            by.setdefault((kind_of(w), group_of(w["e"])), []).append(w)
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
    collectives = []
    for k in matched:
        for j in range(len(lanes[ref][k])):
            group = [(b[k][j], offsets[i]) for i, b in enumerate(lanes)]
            latest = max(w["start"] + o for w, o in group)
            for w, o in group:
                w["wait"] = max(0, min(latest - (w["start"] + o), w["end"] - w["start"]))
            if None not in offsets:
                collectives.append((k, j, [w for w, _ in group],
                                    [w["start"] + o for w, o in group]))
    return offsets, sum(len(lanes[ref][k]) for k in matched), mismatched, collectives


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


SPAN_KEYS = ("compute", "exposed_comm", "memory", "idle", "comm_total", "overlapped_comm",
             "exposed_comm_wait", "exposed_comm_transfer", "memory_total", "kernel_busy")


def partition(work, lo, hi):
    """The six keys of the step check (see sweep)."""
    out = sweep(work, lo, hi)
    return {k: out[k] for k in ("exposed_comm", "exposed_comm_wait", "exposed_comm_transfer",
                                "comm_total", "memory_total", "kernel_busy")}


def span(work):
    """The whole profiled span, first to last GPU activity, under all ten keys."""
    lo = min(w["start"] for w in work)
    hi = max(w["end"] for w in work)
    out = sweep(work, lo, hi)
    out["window"] = hi - lo
    return out


def sweep(work, lo, hi):
    """Sweep of [lo, hi): every instant classed as the definitions say
    (compute > exposed_comm > memory > idle, first match wins)."""
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
    out = dict.fromkeys(SPAN_KEYS, 0)
    t = lo
    for x, d, cls in edges + [(hi, 0, "compute")]:
        seg = x - t
        if seg > 0:
            comm = open_["comm"] > 0 or open_["wait"] > 0
            if open_["compute"] > 0:
                out["compute"] += seg
            elif comm:
                pass
            elif open_["memory"] > 0:
                out["memory"] += seg
            else:
                out["idle"] += seg
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
    out["overlapped_comm"] = out["comm_total"] - out["exposed_comm"]
    return out


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return Fraction(xs[n // 2]) if n % 2 else Fraction(xs[n // 2 - 1] + xs[n // 2], 2)


def ms(v):
    return f"{v / 1e6:.3f}"


def stragglers(ranks, spans, collectives):
    """Text for the straggler rule: who waits, and who is waited for."""
    ids = [r["rank"] for r in ranks]
    cols = ("window", "compute", "exposed_comm", "exposed_comm_wait",
            "exposed_comm_transfer", "memory", "idle")
    heads = ("span", "compute", "exposed_comm", "waiting", "transfer", "memory", "idle")
    print("rank  " + "  ".join(f"{c:>12}" for c in heads) + "   (ms)")
    for i, sp in zip(ids, spans):
        print(f"{i:>4}  " + "  ".join(f"{ms(sp[c]):>12}" for c in cols))
    wait = {i: sp["exposed_comm_wait"] for i, sp in zip(ids, spans)}
    print("waiting sorted (exposed_comm_wait, ms): " +
          ", ".join(f"{i}: {ms(wait[i])}" for i in sorted(ids, key=lambda i: wait[i])))
    share = {i: Fraction(sp["exposed_comm_wait"], sp["window"]) for i, sp in zip(ids, spans)}
    m_all = median(list(wait.values()))
    print(f"median waiting of all ranks {ms(m_all)}")
    for i in ids:
        m = median([wait[j] for j in ids if j != i])
        print(f"rank {i}: waits {ms(wait[i])} ({float(share[i]):.1%} of its span), median of "
              f"the others {ms(m)}, <= half of it: {'yes' if wait[i] <= m / 2 else 'no'}; "
              f"<= half the median of all: {'yes' if wait[i] <= m_all / 2 else 'no'}")
    last = dict.fromkeys(ids, 0)
    caused = dict.fromkeys(ids, 0)
    ties, order = 0, []
    for _, _, group, starts in sorted(collectives, key=lambda c: c[3][0]):
        latest = max(starts)
        who = [ids[n] for n, t in enumerate(starts) if t == latest]
        ties += len(who) > 1
        order.append("=".join(map(str, who)))
        last[who[0]] += 1
        caused[who[0]] += sum(w["wait"] for n, w in enumerate(group) if ids[n] != who[0])
    print(f"matched collectives: {len(collectives)} ({ties} with a tie for the last "
          "start, counted for the lowest of the tied ranks)")
    print("last to start, per collective in the lowest rank's start order: " + " ".join(order))
    for i in sorted(ids, key=lambda i: -caused[i]):
        print(f"rank {i}: started last in {last[i]}, waiting it caused the others "
              f"{ms(caused[i])} ms")


def main(args):
    text = args[:1] == ["--stragglers"]
    ranks = sorted((read_rank(p) for p in args[text:]), key=lambda r: r["rank"])
    offsets, nmatched, mismatched, collectives = match(ranks)
    out = {"ranks": [], "mismatched": mismatched}
    for r, off in zip(ranks, offsets):
        nums, bounds = windows(r["work"])
        steps = {str(n): partition(r["work"], bounds[i], bounds[i + 1])
                 for i, n in enumerate(nums)}
        rank = {"rank": r["rank"], "offset_ns": off, "matched": nmatched, "steps": steps}
        if len(nums) < 2 and r["work"]:
            rank["span"] = span(r["work"])
            rank["comm_kernels"] = sum(w["cls"] == "comm" for w in r["work"])
            rank["collectives"] = collectives_of(r["work"])
        out["ranks"].append(rank)
    if text:
        stragglers(ranks, [span(r["work"]) for r in ranks], collectives)
        return
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
