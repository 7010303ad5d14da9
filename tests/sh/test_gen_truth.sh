#!/bin/bash
# `scaleaudit analyze --json` against the generator's truth.json, for every
# committed sample trial. Tolerances: step times 2%, per-GPU partition 3% or
# 0.5 ms, workload overlaps 0.005, counts, superlinear causes and weak-evidence
# kinds exact; the rest as docs/generator.md lists them. Every sample has steps
# in its truth, so a sample read without any fails.
set -u
TOP=${TOP:-$(pwd)}
SA=${SCALEAUDIT:-$TOP/scaleaudit}
SAMPLES=$TOP/samples/trials
. "$TOP/tests/skip.sh"
need_tool python3

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for d in "$SAMPLES"/*/; do
	n=$(basename "$d")
	"$SA" analyze "$d" --json >"$tmp/$n.json" 2>"$tmp/$n.err"
	echo $? >"$tmp/$n.rc"
done
for d in "$SAMPLES"/*/; do
	n=$(basename "$d")
	if [ "$(cat "$tmp/$n.rc")" -ne 0 ]; then
		echo "FAIL: $n: scaleaudit analyze exited $(cat "$tmp/$n.rc"): $(head -3 "$tmp/$n.err")"
		fail=1
		continue
	fi
	python3 - "$d/truth.json" "$tmp/$n.json" "$n" <<'PY' || fail=1
import json, math, re, sys

truth = json.load(open(sys.argv[1]))
try:
    got = json.load(open(sys.argv[2]))
except ValueError as e:
    print(f"FAIL: {sys.argv[3]}: analyze --json is not JSON: {e}")
    sys.exit(1)
name = sys.argv[3]
errors = []

def err(path, msg):
    errors.append(f"{path}: {msg}")

def get(obj, key, path):
    if not isinstance(obj, dict) or key not in obj:
        err(path + "." + key, "missing")
        return None
    return obj[key]

def exact(t, g, path):
    if t != g:
        err(path, f"want {t!r}, got {g!r}")

def nullish(x):
    """null, or an object whose members are all null: a missing value is null, never 0."""
    return x is None or (isinstance(x, dict) and all(nullish(v) for v in x.values()))

def want_null(g, path):
    if not nullish(g):
        err(path, f"want null, got {g!r}")

def near(t, g, path, rel=0.0, abs_=0.0):
    """|g - t| <= max(rel*|t|, abs_); a null truth wants null (or absent)."""
    if t is None:
        if g is not None:
            err(path, f"want null, got {g!r}")
        return
    if not isinstance(g, (int, float)) or isinstance(g, bool) or math.isnan(g):
        err(path, f"want {t:.6g}, got {g!r}")
        return
    tol = max(rel * abs(t), abs_)
    if abs(g - t) > tol:
        err(path, f"want {t:.6g} (tol {tol:.3g}), got {g:.6g}")

def by(items, key, path):
    out = {}
    for it in items or []:
        out[it.get(key) if isinstance(it, dict) else None] = it
    return out

STEP = 0.02                  # step times, throughput
PART_REL, PART_ABS = 0.03, 0.0005
RATIO = 0.045                # speedup and ratios: quotients of two 2% quantities

OFFSET_ABS = 5e-6            # clock offsets: collectives end within µs of each other

def cmp_parts(t, g, path):
    if not isinstance(g, dict):
        err(path, f"want an object, got {g!r}")
        return
    for k, v in t.items():
        near(v, g.get(k), f"{path}.{k}", rel=PART_REL, abs_=PART_ABS)

def cmp_gpu(t, g, path):
    for k in ("rank", "device", "name", "memory_total_bytes", "peak_memory_source"):
        exact(t[k], g.get(k), f"{path}.{k}")
    near(t["peak_memory_bytes"], g.get("peak_memory_bytes"), path + ".peak_memory_bytes", abs_=1048576)
    near(t["mean_step_s"], g.get("mean_step_s"), path + ".mean_step_s", rel=STEP)
    near(t["clock_offset_s"], g.get("clock_offset_s"), path + ".clock_offset_s", abs_=OFFSET_ABS)
    # span_s is the partition of a capture without steps; where the analysis
    # also gives it for a run with steps, it must be right
    if t["span_s"] is not None and not nullish(g.get("span_s")):
        cmp_parts(t["span_s"], g["span_s"], path + ".span_s")
    if t["step_s"] is None:
        want_null(g.get("step_s"), path + ".step_s")
        return
    gs = get(g, "step_s", path)
    if not isinstance(gs, dict):
        return
    cmp_parts(t["step_s"], gs, path + ".step_s")
    parts = [gs.get(k) for k in ("compute", "exposed_comm", "memory", "idle")]
    if all(isinstance(x, (int, float)) for x in parts) and isinstance(g.get("mean_step_s"), (int, float)):
        if abs(sum(parts) - g["mean_step_s"]) > 1e-6 * max(1.0, g["mean_step_s"]):
            err(path + ".step_s", f"parts add up to {sum(parts):.9f}, mean_step_s is {g['mean_step_s']:.9f}")

TIE = 1e-3   # ranks whose mean steps are this close tie for "slowest"

def tied_ranks(run):
    """analysis.json reads some values on the slowest rank (largest mean_step_s). In
    synchronous runs the ranks' windows agree to microseconds, so any rank
    within TIE of the largest mean is accepted as the slowest."""
    top = max(g["mean_step_s"] for g in run["per_gpu"])
    return [g["rank"] for g in run["per_gpu"] if g["mean_step_s"] >= (1 - TIE) * top]

def coll_errors(c, gc, p):
    global errors
    saved, errors = errors, []
    near(c["bytes_per_step"], gc.get("bytes_per_step"), p + ".bytes_per_step", rel=0.001)
    near(c["time_per_step_s"], gc.get("time_per_step_s"), p + ".time_per_step_s", rel=PART_REL, abs_=PART_ABS)
    near(c["busbw_gbps"], gc.get("busbw_gbps"), p + ".busbw_gbps", rel=0.05)
    near(c["transfer_busbw_gbps"], gc.get("transfer_busbw_gbps"), p + ".transfer_busbw_gbps", rel=0.05)
    if "calls_per_step" in gc:
        near(c["calls_per_step"], gc["calls_per_step"], p + ".calls_per_step", abs_=1e-9)
    found, errors = errors, saved
    return found

def cmp_comm(t, g, path, run):
    if t["transport"] is not None:
        exact(t["transport"], g.get("transport"), path + ".transport")
        exact(t["nccl_version"], g.get("nccl_version"), path + ".nccl_version")
    gc = {(c.get("op"), c.get("dtype")): c for c in g.get("collectives") or []}
    exact(sorted((c["op"], c["dtype"]) for c in t["collectives"]), sorted(gc), path + ".collectives (op, dtype)")
    for c in t["collectives"]:       # the mean over ranks
        key = (c["op"], c["dtype"])
        if key in gc:
            errors.extend(coll_errors(c, gc[key], f"{path}.collectives[{key[0]}/{key[1]}]"))

def cmp_windows(t, gw, path):
    """Every window of every rank: flags exact; duration and partition with the
    partition's tolerance except the trailing window's (its end is a guess);
    start_ns on the rank's own trace clock or the aligned one, within 1 µs."""
    if not isinstance(gw, list):
        err(path, f"want a list, got {gw!r}")
        return
    offs = {x["rank"]: x["clock_offset_s"] for x in t["per_gpu"]}
    got = {(w.get("step"), w.get("rank")): w for w in gw if isinstance(w, dict)}
    exact(sorted(((w["step"], w["rank"]) for w in t["step_windows"]), key=str), sorted(got, key=str), path + " (step, rank)")
    for tw in t["step_windows"]:
        w = got.get((tw["step"], tw["rank"]))
        if w is None:
            continue
        p = f"{path}[step {tw['step']} rank {tw['rank']}]"
        exact((tw["warmup"], tw["trailing"]), (w.get("warmup"), w.get("trailing")), p + " (warmup, trailing)")
        s = w.get("start_ns")
        if tw["start_ns"] is None:          # a log's iteration: no instant on any clock
            if s is not None:
                err(p + ".start_ns", f"want null, got {s!r}")
        else:
            own, aligned = tw["start_ns"], tw["start_ns"] + round(offs[tw["rank"]] * 1e9)
            if not isinstance(s, int) or min(abs(s - own), abs(s - aligned)) > 1000:
                err(p + ".start_ns", f"want {own} (own clock) or {aligned} (aligned), got {s!r}")
        if tw["trailing"]:
            continue
        for k in ("dur_s", "compute", "exposed_comm", "memory", "idle"):
            near(tw[k], w.get(k), f"{p}.{k}", rel=PART_REL, abs_=PART_ABS)

def cmp_run(t, g, path):
    for k in ("gpus", "status", "strategy", "global_batch", "micro_batch", "grad_accum", "seq_len"):
        exact(t[k], g.get(k), f"{path}.{k}")
    tp, gp = t["precision"], get(g, "precision", path) or {}
    exact(tp["declared"], gp.get("declared"), path + ".precision.declared")
    exact(tp["observed"], gp.get("observed"), path + ".precision.observed")
    if tp["matmul_share"] is not None:
        # shares are of all matmul-class time; time whose dtype no name or
        # input type shows stays in the denominator (truth: unknown_share)
        gs = gp.get("matmul_share") or {}
        for d in (set(tp["matmul_share"]) | set(gs)) - {"unknown"}:
            near(tp["matmul_share"].get(d, 0.0), gs.get(d, 0.0), f"{path}.precision.matmul_share.{d}", abs_=0.02)
        if "unknown" in gs:
            near(tp["unknown_share"], gs["unknown"], f"{path}.precision.matmul_share.unknown", abs_=0.02)
    if t["steps"] is None:
        want_null(g.get("step_time_s"), path + ".step_time_s")
    else:
        gsteps = get(g, "steps", path) or {}
        for k in ("total", "warmup", "measured", "trailing"):
            exact(t["steps"][k], gsteps.get(k), f"{path}.steps.{k}")
        gst = get(g, "step_time_s", path) or {}
        for k in ("median", "p10", "p90"):
            near(t["step_time_s"][k], gst.get(k), f"{path}.step_time_s.{k}", rel=STEP)
        near(t["step_time_s"]["cv"], gst.get("cv"), path + ".step_time_s.cv", abs_=0.01)
        exact(t["step_time_s"]["source"], gst.get("source"), path + ".step_time_s.source")
        gth = get(g, "throughput", path) or {}
        for k in ("samples_per_s", "tokens_per_s"):
            near(t["throughput"][k], gth.get(k), f"{path}.throughput.{k}", rel=STEP)
        exact(t["examples_processed"], g.get("examples_processed"), path + ".examples_processed")
    gg = by(g.get("per_gpu"), "rank", path)
    exact(len(t["per_gpu"]), len(g.get("per_gpu") or []), path + ".per_gpu count")
    for tg in t["per_gpu"]:
        if tg["rank"] in gg:
            cmp_gpu(tg, gg[tg["rank"]], f"{path}.per_gpu[{tg['rank']}]")
    if t["steps"] is not None:
        cmp_comm(t["comm"], get(g, "comm", path) or {}, path + ".comm", t)
        cmp_windows(t, g.get("step_windows"), path + ".step_windows")
    if t["imbalance"] is not None:
        gi = get(g, "imbalance", path) or {}
        exact(t["imbalance"]["flagged"], gi.get("flagged"), path + ".imbalance.flagged")
        if t["imbalance"]["waiting"] and "wait" not in str(gi.get("reason")).lower():
            err(path + ".imbalance.reason", f"GPU {t['imbalance']['waiting'][0]['rank']} waits for its peer; the reason does not say so: {gi.get('reason')!r}")
        near(t["imbalance"]["memory_ratio"], gi.get("memory_ratio"), path + ".imbalance.memory_ratio", rel=0.02)
        near(t["imbalance"]["busy_ratio"], gi.get("busy_ratio"), path + ".imbalance.busy_ratio", rel=0.05)

def cmp_criterion(t, g, path):
    """A sentence; under a speed hypothesis it states the threshold."""
    if not isinstance(g, str) or not g.strip():
        err(path, f"want a sentence, got {g!r}")
        return
    if truth["trial"]["hypothesis"] == "feasibility":
        return
    nums = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", g)]
    if not any(abs(x - t["expected_speedup"]) < 0.005 for x in nums):
        err(path, f"does not state the threshold {t['expected_speedup']:g}: {g!r}")

def cmp_options(t, g, path):
    """Each option (1 GPU and n GPUs), matched by its GPU count."""
    got = {o.get("gpus"): o for o in g or [] if isinstance(o, dict)}
    exact(sorted((o["gpus"] for o in t), key=str), sorted(got, key=str), path + " (gpus)")
    for o in t:
        go = got.get(o["gpus"])
        if go is None:
            continue
        p = f"{path}[{o['gpus']} GPU]"
        for k in ("samples_per_s", "gpu_hours_per_million_samples", "days_to_target", "cost",
                  "window_gpu_hours"):
            near(o[k], go.get(k), f"{p}.{k}", rel=STEP)
        for k in ("window_days", "windows", "lots"):
            exact(o[k], go.get(k), f"{p}.{k}")

OVERLAP_ABS = 0.005          # workload overlaps: shares of kernel time

def cmp_workload(t, g, path):
    """How the runs were found to be one job: basis exact, overlaps (null unless
    kernels were compared) to 0.005."""
    if not isinstance(g, dict):
        err(path, f"want an object, got {g!r}")
        return
    exact(t["basis"], g.get("basis"), path + ".basis")
    for k in ("baseline_overlap", "candidate_overlap"):
        near(t[k], g.get(k), f"{path}.{k}", abs_=OVERLAP_ABS)

def cmp_superlinear(t, g, path):
    """null, or the efficiency and the causes that hold, in their order."""
    if t is None:
        want_null(g, path)
        return
    if not isinstance(g, dict):
        err(path, f"want an object, got {g!r}")
        return
    near(t["efficiency"], g.get("efficiency"), path + ".efficiency", rel=RATIO)
    exact(t["causes"], g.get("causes"), path + ".causes")

def cmp_weak(t, g, path):
    """The set of what weakens the verdict, each with a message."""
    if not isinstance(g, list):
        err(path, f"want a list whose whats are {t}, got {g!r}")
        return
    items = g
    exact(t, sorted({w.get("what") for w in items if isinstance(w, dict)}), path + " (what)")
    for w in items:
        if isinstance(w, dict) and not (isinstance(w.get("message"), str) and w["message"].strip()):
            err(path, f"{w.get('what')!r} has no message")

def cmp_comparison(t, g, path, n):
    global errors
    for k in ("baseline", "candidate", "verdict"):
        exact(t[k], g.get(k), f"{path}.{k}")
    for k in ("speedup", "throughput_ratio", "scaling_efficiency"):
        near(t[k], g.get(k), f"{path}.{k}", rel=RATIO)
    exact(t["answer"], g.get("answer"), path + ".answer")
    cmp_criterion(t, g.get("criterion"), path + ".criterion")
    cmp_options(t["options"], g.get("options"), path + ".options")
    tc = sorted((c["what"], c["severity"]) for c in t["confounds"])
    gc = sorted((c.get("what"), c.get("severity")) for c in g.get("confounds") or [])
    exact(tc, gc, path + ".confounds (what, severity)")
    cmp_workload(t["workload"], g.get("workload"), path + ".workload")
    cmp_superlinear(t["superlinear"], g.get("superlinear"), path + ".superlinear")
    cmp_weak(t["weak_evidence_what"], g.get("weak_evidence"), path + ".weak_evidence")
    if t["attribution_s"] is None:
        want_null(g.get("attribution_s"), path + ".attribution_s")
        return
    ga = get(g, "attribution_s", path) or {}
    r1, rn = truth["runs"][0], truth["runs"][1]
    best = None
    for a in tied_ranks(r1):
        for b in tied_ranks(rn):
            saved, errors = errors, []
            g1, gn = r1["per_gpu"][a]["step_s"], rn["per_gpu"][b]["step_s"]
            for k in ("compute", "exposed_comm", "memory", "idle"):
                # n*Xn - X1 carries the partition's tolerance on each of its n+1 means
                tol = PART_REL * (n * gn[k] + g1[k]) + (n + 1) * PART_ABS
                near(n * gn[k] - g1[k], ga.get(k), f"{path}.attribution_s.{k}", abs_=tol)
            found, errors = errors, saved
            if best is None or len(found) < len(best):
                best = found
    errors.extend(best)
    vals = [ga.get(k) for k in ("compute", "exposed_comm", "memory", "idle")]
    if all(isinstance(x, (int, float)) for x in vals):
        mean = lambda run: max(x["mean_step_s"] for x in (run.get("per_gpu") or [{}]) if isinstance(x.get("mean_step_s"), (int, float)))
        gr = by(got.get("runs"), "name", "runs")
        try:
            want = n * mean(gr[rn["name"]]) - mean(gr[r1["name"]])
            if abs(sum(vals) - want) > 1e-6:
                err(path + ".attribution_s", f"terms add up to {sum(vals):.9f}, n*mean_n - mean_1 is {want:.9f}")
        except (KeyError, ValueError):
            pass

exact(truth["trial"]["hypothesis"], (got.get("trial") or {}).get("hypothesis"), "trial.hypothesis")
exact(truth["trial"]["question"], (got.get("trial") or {}).get("question"), "trial.question")
gruns = by(got.get("runs"), "name", "runs")
for tr in truth["runs"]:
    if tr["name"] not in gruns:
        err(f"runs[{tr['name']}]", "missing")
        continue
    cmp_run(tr, gruns[tr["name"]], f"runs[{tr['name']}]")
n = truth["comparison"]["n"]          # candidate GPUs / baseline GPUs
cmp_comparison(truth["comparison"], got.get("comparison") or {}, "comparison", n)
gids = {r.get("id") for r in got.get("recommendations") or []}
for r in truth["recommendations"]:
    if r["id"] not in gids:
        err("recommendations", f"missing {r['id']!r} (got {sorted(map(str, gids))})")
for r in truth["recommendations_absent"]:
    if r["id"] in gids:
        err("recommendations", f"{r['id']!r} is not warranted here")

def about_run(f, run):
    """A run's finding names it: 'run' in its message or the run's directory in its source."""
    text = f"{f.get('message')} {f.get('source')}"
    return f"'{run}'" in text or f"{run}/" in text

gf = [f for f in got.get("findings") or [] if isinstance(f, dict)]
for want in truth["findings_expected"]:
    hits = [f for f in gf if f.get("code") == want["code"] and f.get("severity") == want["severity"]]
    if want["run"] is not None:
        hits = [f for f in hits if about_run(f, want["run"])]
    if not hits:
        err("findings", f"no {want['severity']} {want['code']!r}" + (f" on run {want['run']!r}" if want["run"] else "")
            + f" (got {sorted({(f.get('code'), f.get('severity')) for f in gf})})")
for code in truth["findings_absent"]:
    for f in gf:
        if f.get("code") == code:
            err("findings", f"{code!r} does not apply here: {f.get('message')!r}")

# The one sample whose truth has every cause of idle keeps them large enough
# (over 1 ms per step on each GPU of its 2-GPU run, twice PART_ABS) that a
# cause counted under another fails the comparison of step_s above.
if name == "host-bound-input":
    for g in truth["runs"][1]["per_gpu"]:
        for k in ("idle_host", "idle_sync", "idle_other"):
            if not g["step_s"][k] > 0.001:
                err(f"truth 2gpu GPU {g['rank']}.step_s.{k}", f"{g['step_s'][k]} is not over 1 ms")

if errors:
    print(f"FAIL: {name}: {len(errors)} differences from truth.json")
    for e in errors[:40]:
        print("   ", e)
    sys.exit(1)
print(f"ok: {name}")
PY
done
exit $fail
