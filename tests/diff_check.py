#!/usr/bin/env python3
"""The per-op and per-kernel diff of two runs, computed from their Kineto traces alone.

An independent check of scaleaudit's comparison.diff (docs/analysis.md,
"Per-op diff"). Usage:

    diff_check.py TRACE[,TRACE...] TRACE[,TRACE...] B_GPUS C_GPUS [ANALYSIS_JSON]

the baseline's rank traces, the candidate's, and each run's GPU count.
Without ANALYSIS_JSON it prints every row (none left out) as JSON; with it,
it compares that file's comparison.diff with its own rows (kept rows, their
order, the left-out counts and the totals, times to 1e-9 s) and exits 1 on
the first difference.

Definitions, restated here on purpose (the steps and families come from
tests/realdata_steps.py and tests/realdata_workload.py, which read no output
of scaleaudit either):
- a GPU event is a `kernel`, `gpu_memcpy` or `gpu_memset` event; it counts
  when its launch (the runtime call of its correlation id) falls in a steady
  ProfilerStep of its rank; when either run has no steady step, every event
  counts, over the whole profiled span (per = "span");
- its op is the CPU op whose External id the launch carries, if that op
  encloses the launch; otherwise the innermost CPU op of the launch's thread
  that encloses it; none: null;
- its kernel row is its family (realdata_workload.family), else its name
  (communication kernels, memcpy, memset);
- per GPU, calls and time are divided by its steady steps (1 over the span);
  a side's value is the sum over its GPUs with GPU work, divided by their
  number, times the run's GPUs over the baseline's;
- added = candidate - baseline; rows ranked by added, largest first, equal
  ones by name (null last), the first 10 of each kind kept.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import realdata_steps  # noqa: E402
import realdata_workload  # noqa: E402

ns = realdata_steps.ns
GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")
TOP = 10


def cat(e):
    return str(e.get("cat", "")).lower()


def ops_of(events):
    """The CPU ops: (tid, start, end, name, ext), in the order of (tid, start, -end, file order)."""
    ops = []
    for i, e in enumerate(events):
        if isinstance(e, dict) and cat(e) in ("cpu_op", "operator") and e.get("ph") == "X":
            s = ns(e["ts"])
            ext = (e.get("args") or {}).get("External id")
            ops.append((e.get("tid"), s, s + max(ns(e.get("dur", 0)), 0), i, e.get("name"), ext))
    ops.sort(key=lambda o: (str(o[0]), o[1], -o[2], o[3]))
    return ops


def op_name(ops, by_ext, launch):
    tid, ts, ext = launch
    o = by_ext.get(ext)
    if ext is not None and o is not None and o[1] <= ts <= o[2]:
        return o[4]
    inner = None
    for o in ops:
        if o[0] == tid and o[1] <= ts <= o[2]:
            inner = o	# the last of the sort order that encloses ts: the innermost
    return inner[4] if inner else None


def rank_rows(path, steady, rows):
    """One trace's (calls, ns) by row, before its division by its steps; False without GPU events."""
    events = realdata_workload.load(path)
    step = realdata_workload.kernel_steps(events)
    ops = ops_of(events)
    by_ext = {}
    for o in ops:
        if o[5] is not None:
            by_ext.setdefault(o[5], o)
    launch = {}
    for e in events:
        a = (e.get("args") or {}) if isinstance(e, dict) else {}
        if isinstance(e, dict) and cat(e) in ("cuda_runtime", "cuda_driver", "runtime", "driver") \
                and "correlation" in a:
            launch.setdefault(a["correlation"], (e.get("tid"), ns(e["ts"]), a.get("External id")))
    any_event = False
    for i, e in enumerate(events):
        if not isinstance(e, dict) or cat(e) not in GPU_CATS or e.get("ph") != "X":
            continue
        any_event = True
        if steady is not None and step.get(i) not in steady:
            continue
        la = launch.get((e.get("args") or {}).get("correlation"))
        op = op_name(ops, by_ext, la) if la else None
        name = e.get("name", "")
        fam = realdata_workload.family(name) if cat(e) == "kernel" else None
        t = max(ns(e.get("dur", 0)), 0)
        for key in (("op", op), ("kernel", fam if fam is not None else name)):
            c = rows.setdefault(key, [0, 0])
            c[0] += 1
            c[1] += t
    return any_event


def run_rows(paths, steady, span, scale_num, scale_den):
    out, gpus = {}, 0
    for p in paths:
        st = None if span else steady.get(p, set())
        steps = 1 if span else len(st)
        if steps == 0:
            continue
        rows = {}
        if not rank_rows(p, st, rows):
            continue
        gpus += 1
        for k, (c, t) in rows.items():
            o = out.setdefault(k, [0.0, 0.0])
            o[0] += c / steps
            o[1] += t / steps
    if not gpus:
        sys.exit(f"no GPU work in {paths}")
    f = scale_num / gpus / scale_den
    return {k: (c * f, t / 1e9 * f) for k, (c, t) in out.items()}


def diff(base, cand, b_gpus, c_gpus):
    sb, sc = realdata_workload.steady_steps(base), realdata_workload.steady_steps(cand)
    span = not sb or not sc
    rb = run_rows(base, sb, span, b_gpus, b_gpus)
    rc = run_rows(cand, sc, span, c_gpus, b_gpus)
    tot = {s: sum(t for (k, _), (c, t) in r.items() if k == "kernel") for s, r in (("b", rb), ("c", rc))}
    rows = []
    for key in sorted(set(rb) | set(rc), key=lambda k: (k[0], str(k[1]))):
        side = {}
        for s, r in (("baseline", rb), ("candidate", rc)):
            c, t = r.get(key, (0.0, 0.0))
            total = tot[s[0]]
            side[s] = {"calls": c, "time_s": t, "mean_s": t / c if c > 0 else None,
                       "share": t / total if total > 0 else None}
        rows.append({"kind": key[0], "name": key[1], **side,
                     "added_s": side["candidate"]["time_s"] - side["baseline"]["time_s"]})
    rows.sort(key=lambda r: (-r["added_s"], r["name"] is None, r["name"] or ""))
    return {"per": "span" if span else "step", "rows": rows,
            "total_s": {"baseline": tot["b"], "candidate": tot["c"]}}


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def check(want, got_file):
    got = json.load(open(got_file))["comparison"]["diff"]
    bad = []
    if got is None or got.get("per") != want["per"]:
        return [f"per {got and got.get('per')!r}, want {want['per']!r} ({got and got.get('why')})"]
    for s in ("baseline", "candidate"):
        if not close(got["total_s"][s], want["total_s"][s]):
            bad.append(f"total_s.{s} {got['total_s'][s]!r}, want {want['total_s'][s]!r}")
    for kind in ("op", "kernel"):
        w = [r for r in want["rows"] if r["kind"] == kind]
        g = [r for r in got["rows"] if r["kind"] == kind]
        if len(g) != min(len(w), TOP) or got["left_out"][kind] != len(w) - len(g):
            bad.append(f"{kind}: {len(g)} rows and {got['left_out'][kind]} left out, want "
                       f"{min(len(w), TOP)} and {len(w) - min(len(w), TOP)}")
        for gr, wr in zip(g, w):
            if gr["name"] != wr["name"]:
                bad.append(f"{kind} row {wr['name']!r}: got {gr['name']!r} in its place")
                break
            for s in ("baseline", "candidate"):
                for f in ("calls", "time_s", "mean_s", "share"):
                    if not close(gr[s][f], wr[s][f]):
                        bad.append(f"{kind} {wr['name']!r} {s}.{f} {gr[s][f]!r}, want {wr[s][f]!r}")
            if not close(gr["added_s"], wr["added_s"]):
                bad.append(f"{kind} {wr['name']!r} added_s {gr['added_s']!r}, want {wr['added_s']!r}")
    return bad


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__)
    want = diff(sys.argv[1].split(","), sys.argv[2].split(","), int(sys.argv[3]), int(sys.argv[4]))
    if len(sys.argv) == 5:
        json.dump(want, sys.stdout, indent=1)
        print()
        return
    bad = check(want, sys.argv[5])
    for b in bad[:20]:
        print("FAIL:", b)
    if bad:
        sys.exit(1)
    print(f"ok: {len(want['rows'])} rows ({want['per']}), totals "
          f"{want['total_s']['baseline']:.9f} and {want['total_s']['candidate']:.9f} s")


if __name__ == "__main__":
    main()
