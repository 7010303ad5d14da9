#!/bin/bash
# The files say what truth.json says: an independent reading of each sample's
# Kineto traces and nvidia-smi CSV (python3, standard library) must give the
# same step windows, partition, step statistics, collectives and peaks as the
# truth the generator computed from its model. Guards the writers, not the
# analysis: timestamps, correlation ids and args must encode the model exactly.
set -u
TOP=${TOP:-$(pwd)}
SAMPLES=$TOP/samples/trials
. "$TOP/tests/skip.sh"
need_tool python3
[ -d "$SAMPLES" ] || { echo "FAIL: no $SAMPLES"; exit 1; }

exec python3 - "$SAMPLES" <<'PY'
import csv, decimal, glob, gzip, json, os, statistics, sys

def ns(v):
    return int(decimal.Decimal(v) * 1000)

def load_rank(path):
    t = json.load(gzip.open(path), parse_float=decimal.Decimal)
    ev = t["traceEvents"]
    steps = sorted((int(e["name"].split("#")[1]), ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]))
                   for e in ev if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#"))
    launch = {e["args"]["correlation"]: ns(e["ts"]) for e in ev
              if e.get("cat") == "cuda_runtime" and e["name"] != "cudaStreamSynchronize"}
    gpu = []
    for e in ev:
        cat = e.get("cat")
        if cat not in ("kernel", "gpu_memcpy", "gpu_memset"):
            continue
        cls = "memory" if cat != "kernel" else "comm" if e["name"].startswith("nccl") else "compute"
        l = launch[e["args"]["correlation"]]
        idx = [i for i, (n, a, b) in enumerate(steps) if a <= l <= b]
        assert len(idx) == 1, f"{path}: launch of correlation {e['args']['correlation']} in {len(idx)} steps"
        gpu.append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), cls, idx[0], e))
    return t, steps, gpu

def partition(gpu, a, b):
    edges = []
    for s, e, cls, _, _ in gpu:
        if e <= a or s >= b or e <= s:
            continue
        edges += [(max(s, a), 1, cls), (min(e, b), -1, cls)]
    edges.sort(key=lambda x: (x[0], x[1]))
    cnt = {"compute": 0, "comm": 0, "memory": 0}
    part = dict(compute=0, exposed_comm=0, memory=0, idle=0, comm_total=0)
    t = a
    for x, d, cls in edges + [(b, 0, "compute")]:
        if x > t:
            k = "compute" if cnt["compute"] else "exposed_comm" if cnt["comm"] else "memory" if cnt["memory"] else "idle"
            part[k] += x - t
            if cnt["comm"]:
                part["comm_total"] += x - t
            t = x
        cnt[cls] += d
    part["overlapped_comm"] = part["comm_total"] - part["exposed_comm"]
    return part

def quantile(v, q):
    v = sorted(v); pos = q * (len(v) - 1); lo = int(pos); hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)

errors = []
def close(want, got, what, rel=1e-6, abs_=2e-9):
    if abs(want - got) > max(rel * abs(want), abs_):
        errors.append(f"{what}: truth {want!r}, files give {got!r}")

for trial in sorted(glob.glob(os.path.join(sys.argv[1], "*", ""))):
    truth = json.load(open(os.path.join(trial, "truth.json")))
    name = truth["scenario"]
    for tr in truth["runs"]:
        rdir = os.path.join(trial, tr["name"])
        where = f"{name}/{tr['name']}"
        rows = list(csv.reader(open(os.path.join(rdir, "nvidia-smi.csv")), skipinitialspace=True))
        for g in tr["per_gpu"]:
            peak = max(int(r[6].split()[0]) for r in rows[1:] if int(r[1]) == g["rank"]) * 1048576
            close(g["peak_memory_bytes"], peak, f"{where} gpu{g['rank']} nvidia-smi peak", abs_=0)
        traces = sorted(glob.glob(os.path.join(rdir, "rank*.pt.trace.json.gz")))
        if tr["status"] != "completed":
            if traces:
                errors.append(f"{where}: a failed run has traces")
            if "OutOfMemoryError: CUDA out of memory" not in open(os.path.join(rdir, "train.log")).read():
                errors.append(f"{where}: no OOM message in train.log")
            continue
        ranks = [load_rank(p) for p in traces]
        n = len(ranks[0][1])
        close(tr["steps"]["total"], n, f"{where} steps")
        wins = []
        for t, steps, gpu in ranks:
            first = [min(s for s, e, c, i, _ in gpu if i == k) for k in range(n)]
            last = max(e for s, e, c, i, _ in gpu if i == n - 1)
            wins.append([(first[k], first[k + 1] if k + 1 < n else last) for k in range(n)])
        st = [max(w[k][1] - w[k][0] for w in wins) for k in range(n)]
        med2 = statistics.median(st[n // 2:])
        warm = 1
        while warm < n and st[warm] > 1.15 * med2:
            warm += 1
        close(tr["steps"]["warmup"], warm, f"{where} warmup")
        # guard: the definitions do not say whose step time the warm-up rule reads;
        # the samples must give the same count from any one rank's windows
        for r, w in enumerate(wins):
            sr = [b - a for a, b in w]
            m2, k = statistics.median(sr[n // 2:]), 1
            while k < n and sr[k] > 1.15 * m2:
                k += 1
            if k != warm:
                errors.append(f"{where}: rank {r}'s windows alone give {k} warm-up steps, not {warm}")
        means = []
        for r, (t, steps, gpu) in enumerate(ranks):
            parts = [partition(gpu, a, b) for a, b in wins[r][warm:]]
            mean = {k: sum(p[k] for p in parts) / len(parts) / 1e9 for k in parts[0]}
            mstep = sum(b - a for a, b in wins[r][warm:]) / len(parts) / 1e9
            means.append(mstep)
            g = tr["per_gpu"][r]
            close(g["mean_step_s"], mstep, f"{where} gpu{r} mean_step_s")
            for k, v in g["step_s"].items():
                close(v, mean[k], f"{where} gpu{r} {k}")
            dp = t["deviceProperties"][r]
            close(g["memory_total_bytes"], dp["totalGlobalMem"], f"{where} gpu{r} totalGlobalMem", abs_=0)
            mem = [e for e in t["traceEvents"] if e.get("name") == "[memory]"]
            close(g["peak_memory_reserved_bytes"], max(e["args"]["Total Reserved"] for e in mem), f"{where} gpu{r} reserved", abs_=0)
        slow = max(range(len(means)), key=lambda r: (means[r], -r))
        close(tr["slowest_rank"], slow, f"{where} slowest rank", abs_=0)
        v = [(b - a) / 1e9 for a, b in wins[slow][warm:]]
        close(tr["step_time_s"]["median"], quantile(v, 0.5), f"{where} median")
        close(tr["step_time_s"]["p10"], quantile(v, 0.1), f"{where} p10")
        close(tr["step_time_s"]["p90"], quantile(v, 0.9), f"{where} p90")
        close(tr["step_time_s"]["cv"], statistics.pstdev(v) / statistics.mean(v), f"{where} cv", abs_=1e-9)
        size = {"Float": 4, "BFloat16": 2, "Half": 2}
        coll = {}
        for t, steps, gpu in ranks:              # summed over ranks: the run's is their mean
            for s, e, cls, i, ev in gpu:
                if cls != "comm" or i < warm:
                    continue
                a = ev["args"]
                op = ev["name"].split("(")[0].split("_")[1]
                c = coll.setdefault(op, [0, 0, 0])
                c[0] += max(a["In msg nelems"], a["Out msg nelems"]) * size[a["dtype"]]
                c[1] += e - s
                c[2] += 1
        m = (n - warm) * len(ranks)
        for c in tr["comm"]["collectives"]:
            got = coll.get(c["op"])
            if not got:
                errors.append(f"{where}: no {c['op']} kernels in the trace")
                continue
            close(c["bytes_per_step"], got[0] / m, f"{where} {c['op']} bytes")
            close(c["time_per_step_s"], got[1] / m / 1e9, f"{where} {c['op']} time")
            close(c["calls_per_step"], got[2] / m, f"{where} {c['op']} calls")
        if not tr["comm"]["collectives"] and coll:
            errors.append(f"{where}: collectives in a run whose truth has none")
    print(f"checked {name}")
if errors:
    for e in errors[:50]:
        print("FAIL:", e)
    sys.exit(1)
PY
