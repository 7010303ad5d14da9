#!/bin/bash
# The files say what truth.json says: an independent reading of each sample's
# Kineto traces, training logs and nvidia-smi CSV (python3, standard library)
# must give the same step windows (trailing step apart), warm-up, partition
# and idle by cause (waiting and transfer apart, after aligning the ranks' clocks on matched
# collectives), step statistics, collectives, peaks and workload overlaps (kernel
# families by the written rule, not the generator's hand labels) as the truth
# the generator computed from its model. Guards the writers, not the analysis:
# timestamps, correlation ids, args and names must encode the model exactly.
set -u
TOP=${TOP:-$(pwd)}
SAMPLES=$TOP/samples/trials
. "$TOP/tests/skip.sh"
need_tool python3
[ -d "$SAMPLES" ] || { echo "FAIL: no $SAMPLES"; exit 1; }

exec python3 - "$SAMPLES" <<'PY'
import csv, decimal, glob, gzip, json, os, re, statistics, sys

def ns(v):
    return int(decimal.Decimal(v) * 1000)

def load_rank(path):
    t = json.load(gzip.open(path), parse_float=decimal.Decimal)
    base = int(t["baseTimeNanoseconds"])
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
        l = launch.get(e["args"]["correlation"])
        idx = [i for i, (n, a, b) in enumerate(steps) if l is not None and a <= l <= b]
        assert l is None or len(idx) == 1, f"{path}: launch of correlation {e['args']['correlation']} in {len(idx)} steps"
        idx = idx or [-1]   # no launch record (host-bound-input's loader thread copies): no step
        e["_launch"] = None if l is None else base + l     # on the same clock as the GPU times
        # absolute ns on the rank's own clock; [start, end, class, step index, event, transfer start]
        gpu.append([base + ns(e["ts"]), base + ns(e["ts"]) + ns(e["dur"]), cls, idx[0], e, None])
    return t, steps, gpu

def comm_op(e):
    return e["name"].split("(")[0].split("_")[1]

def align(ranks):
    """Clock offsets (median over matched collectives of end on rank 0 - end on
    rank r), then each collective's transfer start = the latest aligned start."""
    colls = []
    for t, steps, gpu in ranks:
        by = {}
        for g in sorted((g for g in gpu if g[2] == "comm"), key=lambda g: g[0]):
            by.setdefault(comm_op(g[4]), []).append(g)
        colls.append(by)
    offs = [0]
    for r in range(1, len(ranks)):
        d = [a[1] - b[1] for op in colls[0] for a, b in zip(colls[0][op], colls[r].get(op, []))]
        offs.append(round(statistics.median(d)) if d else 0)   # whole ns: floats lose them at 1e18
    for op in colls[0]:
        assert all(len(c.get(op, [])) == len(colls[0][op]) for c in colls), f"unmatched {op} counts"
        for k in range(len(colls[0][op])):
            xs = max(c[op][k][0] + offs[r] for r, c in enumerate(colls))
            for r, c in enumerate(colls):
                c[op][k][5] = xs - offs[r]          # back on rank r's clock
    return offs

KEYS = ("compute", "exposed_comm", "exposed_comm_wait", "exposed_comm_transfer", "memory", "idle",
        "comm_total", "overlapped_comm", "memory_total", "kernel_busy")

def partition(gpu, a, b):
    edges = []
    def add(s, e, cls):
        s, e = max(s, a), min(e, b)
        if e > s:
            edges.extend([(s, 1, cls), (e, -1, cls)])
    for s, e, cls, _, _, xs in gpu:
        if cls == "comm":
            x = min(max(xs, s), e) if xs is not None else s
            add(s, x, "wait")
            add(x, e, "xfer")
        else:
            add(s, e, cls)
    edges.sort(key=lambda x: (x[0], x[1]))
    cnt = dict(compute=0, wait=0, xfer=0, memory=0)
    part = {k: 0 for k in KEYS}
    t = a
    for x, d, cls in edges + [(b, 0, "compute")]:
        if x > t:
            comm = cnt["wait"] or cnt["xfer"]
            if cnt["compute"]:
                part["compute"] += x - t
            elif comm:
                part["exposed_comm"] += x - t
                part["exposed_comm_transfer" if cnt["xfer"] else "exposed_comm_wait"] += x - t
            else:
                part["memory" if cnt["memory"] else "idle"] += x - t
            if comm:
                part["comm_total"] += x - t
            if cnt["memory"]:
                part["memory_total"] += x - t
            if cnt["compute"] or comm:
                part["kernel_busy"] += x - t
            t = x
        cnt[cls] += d
    part["overlapped_comm"] = part["comm_total"] - part["exposed_comm"]
    return part

CAUSES = ("idle_host", "idle_sync", "idle_other")

def idle_causes(gpu, a, b):
    """Idle of [a, b) by the cause of its gap (nothing runs on the GPU from the last
    end before to the first start after): host when the earliest launch recorded
    among the activities that start then came after the gap began, sync when not,
    other when none is recorded, nothing ran before or nothing closes the gap."""
    out = dict.fromkeys(CAUSES, 0)
    busy = sorted((s, e) for s, e, *_ in gpu)
    gaps, end = [], None
    for s, e in busy:
        if end is not None and s > end:
            gaps.append((end, s))
        end = e if end is None else max(end, e)
    gaps = [(None, busy[0][0])] + gaps + [(end, None)]
    for g0, g1 in gaps:
        lo, hi = max(a, g0 if g0 is not None else a), min(b, g1 if g1 is not None else b)
        if hi <= lo:
            continue
        la = [g[4]["_launch"] for g in gpu if g[0] == g1 and g[4]["_launch"] is not None]
        cause = "idle_other" if g0 is None or g1 is None or not la else \
                "idle_host" if min(la) > g0 else "idle_sync"
        out[cause] += hi - lo
    return out

def quantile(v, q):
    v = sorted(v); pos = q * (len(v) - 1); lo = int(pos); hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)

def warmup(st, numbered0):
    """Step numbered 0 always; then leading steps while > 1.15 x the median of
    the second half of the non-trailing steps."""
    m = len(st)
    med2, k = statistics.median(st[m // 2:]), 1 if numbered0 else 0
    while k < m and st[k] > 1.15 * med2:
        k += 1
    return k

# Kernel family: what a kernel computes. A matmul-class kernel is its class
# (gemm, conv, attention); an ATen launcher its kind and the first operation
# its template arguments name; any other kernel its name without template
# arguments, argument lists, dtype, tile and launch words (and Inductor's
# numeric suffix).
DTYPE = re.compile(r"bf16|fp16|fp32|fp8|tf32|f16|f32|bf16bf16|bf16f32|f16f16|f16f32|f32f32|tf32f32|"
                   r"tst|sss|hsh|float|half|double|bfloat16")
TILE = re.compile(r"\d+|\d+x\d+(?:x\d+)?|\d+cta|tilesize\w*|warpgroupsize\w*|cga\w*|[vh]|bz|[TN]{3}|splitK")
LAUNCHERS = {"vectorized_elementwise_kernel": "elementwise", "unrolled_elementwise_kernel": "elementwise",
             "elementwise_kernel": "elementwise", "reduce_kernel": "reduce",
             "multi_tensor_apply_kernel": "multi_tensor_apply"}
WRAPPERS = {"void", "at", "native", "detail", "std", "array", "char", "int", "unsigned", "long", "float",
            "double", "bool", "c10", "BFloat16", "Half", "TensorListMetadata", "BinaryFunctor",
            "UnaryFunctor", "lambda", "operator", "const", "ul"}

def family(name):
    n = name.replace("(anonymous namespace)::", "")
    n = n[5:] if n.startswith("void ") else n
    if not n.startswith("triton_"):
        for cls, pat in (("attention", r"flash|fmha|attention"), ("conv", r"fprop|dgrad|wgrad|conv"),
                         ("gemm", r"gemm|nvjet")):
            if re.search(pat, n, re.I):
                return cls
    head = re.split(r"[<(]", n, maxsplit=1)[0]
    base = head.split("::")[-1]
    if base in LAUNCHERS:
        op = next(t for t in re.findall(r"[A-Za-z_]\w*", n[len(head):]) if t not in WRAPPERS)
        return LAUNCHERS[base] + " " + op
    return "_".join(t for t in base.split("_") if t and not DTYPE.fullmatch(t) and not TILE.fullmatch(t))

def families(ranks, warm, m):
    """Kernel time by family: non-communication kernels launched in steady steps, summed over ranks."""
    fam = {}
    for t, steps, gpu in ranks:
        for s, e, cls, i, ev, xs in gpu:
            if cls == "compute" and warm <= i < m:
                f = family(ev["name"])
                fam[f] = fam.get(f, 0) + e - s
    return fam

def overlap(a, b):
    return sum(v for f, v in a.items() if f in b) / sum(a.values())

def triton_mostly(fam):
    return sum(v for f, v in fam.items() if f.startswith("triton_")) > 0.5 * sum(fam.values())

def log_iterations(path):
    """Megatron-LM's 'elapsed time per iteration (ms)' of each iteration line, in s."""
    it = re.compile(r"\biteration\s+(\d+)/\s*\d+ \|.*?elapsed time per iteration \(ms\): ([\d.]+) \|")
    rows = [(int(m.group(1)), float(m.group(2)) / 1e3) for m in map(it.search, open(path)) if m]
    return [t for _, t in sorted(rows)]

errors = []
def close(want, got, what, rel=1e-6, abs_=2e-9):
    if want is None or got is None:
        if want is not got:
            errors.append(f"{what}: truth {want!r}, files give {got!r}")
        return
    if abs(want - got) > max(rel * abs(want), abs_):
        errors.append(f"{what}: truth {want!r}, files give {got!r}")

def check_log_run(tr, rdir, where):
    """A run without traces: its steps are the log's iterations (numbered from
    1, so only the 15% rule finds warm-up), none trailing; statistics over the
    steady ones; the log's windows sit on the first GPU."""
    st = log_iterations(os.path.join(rdir, "train.log"))
    n = len(st)
    close(tr["steps"]["total"], n, f"{where} steps")
    close(tr["steps"]["trailing"], 0, f"{where} trailing")
    warm = warmup(st, False)
    close(tr["steps"]["warmup"], warm, f"{where} warmup")
    med2 = statistics.median(st[n // 2:])
    for k in range(min(warm + 1, n)):
        if abs(st[k] - 1.15 * med2) < 0.02 * 1.15 * med2:
            errors.append(f"{where}: iteration {k + 1} ({st[k] * 1e3:.1f} ms) is within 2% of the warm-up threshold")
    close(tr["steps"]["measured"], n - warm, f"{where} measured")
    v = st[warm:]
    close(tr["step_time_s"]["median"], quantile(v, 0.5), f"{where} median")
    close(tr["step_time_s"]["p10"], quantile(v, 0.1), f"{where} p10")
    close(tr["step_time_s"]["p90"], quantile(v, 0.9), f"{where} p90")
    close(tr["step_time_s"]["cv"], statistics.pstdev(v) / statistics.mean(v), f"{where} cv", abs_=1e-9)
    close(tr["per_gpu"][0]["mean_step_s"], statistics.mean(v), f"{where} gpu0 mean_step_s")
    got = [(w["step"], w["rank"], w["dur_s"], w["warmup"], w["trailing"]) for w in tr["step_windows"]]
    want = [(k + 1, 0, st[k], k < warm, False) for k in range(n)]
    if len(got) != len(want) or any(g[:2] != w[:2] or g[3:] != w[3:] or abs(g[2] - w[2]) > 1e-9
                                    for g, w in zip(got, want)):
        errors.append(f"{where}: step_windows are not the log's iterations")

def check_workload(truth, fams):
    """Kernel families compared only between two traced runs whose kernel
    time is, on both or neither side, mostly Inductor's; the overlaps then
    follow from the names in the traces."""
    w = truth["comparison"]["workload"]
    a, b = (fams[r["name"]] for r in truth["runs"])
    comparable = a is not None and b is not None and triton_mostly(a) == triton_mostly(b)
    if (w["basis"] == "kernels") != comparable:
        errors.append(f"{truth['scenario']}: workload basis {w['basis']!r}, the traces say names are "
                      f"{'' if comparable else 'not '}comparable")
        return
    if comparable:
        close(w["baseline_overlap"], overlap(a, b), f"{truth['scenario']} baseline_overlap")
        close(w["candidate_overlap"], overlap(b, a), f"{truth['scenario']} candidate_overlap")

for trial in sorted(glob.glob(os.path.join(sys.argv[1], "*", ""))):
    truth = json.load(open(os.path.join(trial, "truth.json")))
    name = truth["scenario"]
    fams = {}
    for tr in truth["runs"]:
        rdir = os.path.join(trial, tr["name"])
        where = f"{name}/{tr['name']}"
        rows = list(csv.reader(open(os.path.join(rdir, "nvidia-smi.csv")), skipinitialspace=True))
        for g in tr["per_gpu"]:
            peak = max(int(r[6].split()[0]) for r in rows[1:] if int(r[1]) == g["rank"]) * 1048576
            close(g["peak_memory_bytes"], peak, f"{where} gpu{g['rank']} nvidia-smi peak", abs_=0)
        traces = sorted(glob.glob(os.path.join(rdir, "rank*.pt.trace.json.gz")))
        if tr["status"] == "completed" and tr["step_time_s"]["source"] == "log-iterations":
            if traces:
                errors.append(f"{where}: a run whose truth has no trace has traces")
            check_log_run(tr, rdir, where)
            fams[tr["name"]] = None
            continue
        if tr["status"] != "completed":
            if traces:
                errors.append(f"{where}: a failed run has traces")
            if "OutOfMemoryError: CUDA out of memory" not in open(os.path.join(rdir, "train.log")).read():
                errors.append(f"{where}: no OOM message in train.log")
            fams[tr["name"]] = None
            continue
        ranks = [load_rank(p) for p in traces]
        offs = align(ranks)
        n = len(ranks[0][1])
        m = n - 1                                   # the last step is trailing
        close(tr["steps"]["total"], n, f"{where} steps")
        close(tr["steps"]["trailing"], 1, f"{where} trailing")
        wins = []
        for t, steps, gpu in ranks:
            first = [min(g[0] for g in gpu if g[3] == k) for k in range(n)]
            last = max(g[1] for g in gpu if g[3] == n - 1)
            wins.append([(first[k], first[k + 1] if k + 1 < n else last) for k in range(n)])
        st = [max(w[k][1] - w[k][0] for w in wins) for k in range(m)]
        numbered0 = ranks[0][1][0][0] == 0
        warm = warmup(st, numbered0)
        close(tr["steps"]["warmup"], warm, f"{where} warmup")
        # guard: no step the rule reads lies within 2% of its threshold, so a
        # reading a few µs off cannot flip the count
        med2 = statistics.median(st[m // 2:])
        for k in range(min(warm + 1, m)):
            if abs(st[k] - 1.15 * med2) < 0.02 * 1.15 * med2:
                errors.append(f"{where}: step index {k} ({st[k] / 1e6:.2f} ms) is within 2% of the warm-up threshold")
        close(tr["steps"]["measured"], m - warm, f"{where} measured")
        fams[tr["name"]] = families(ranks, warm, m)
        # guard: the definitions do not say whose step time the warm-up rule reads;
        # the samples must give the same count from any one rank's windows
        for r, w in enumerate(wins):
            k = warmup([b - a for a, b in w[:m]], numbered0)
            if k != warm:
                errors.append(f"{where}: rank {r}'s windows alone give {k} warm-up steps, not {warm}")
        means = []
        tw = {(w["step"], w["rank"]): w for w in tr["step_windows"]}
        close(len(tw), n * len(ranks), f"{where} step_windows")
        for r, (t, steps, gpu) in enumerate(ranks):
            parts = [partition(gpu, a, b) for a, b in wins[r][warm:m]]
            mean = {k: sum(p[k] for p in parts) / len(parts) / 1e9 for k in KEYS}
            mstep = sum(b - a for a, b in wins[r][warm:m]) / len(parts) / 1e9
            means.append(mstep)
            g = tr["per_gpu"][r]
            close(g["mean_step_s"], mstep, f"{where} gpu{r} mean_step_s")
            close(g["clock_offset_s"], offs[r] / 1e9, f"{where} gpu{r} clock_offset_s")
            for k in KEYS:
                close(g["step_s"][k], mean[k], f"{where} gpu{r} {k}")
            causes = [idle_causes(gpu, a, b) for a, b in wins[r][warm:m]]
            for k in CAUSES:
                close(g["step_s"][k], sum(c[k] for c in causes) / len(causes) / 1e9, f"{where} gpu{r} {k}")
            a, b = min(x[0] for x in gpu), max(x[1] for x in gpu)
            span = partition(gpu, a, b)
            for k in KEYS:
                close(g["span_s"][k], span[k] / 1e9, f"{where} gpu{r} span {k}")
            for i, (a, b) in enumerate(wins[r]):
                w = tw.get((steps[i][0], r))
                if w is None:
                    errors.append(f"{where}: no step_windows entry for step {steps[i][0]} rank {r}")
                    continue
                p = partition(gpu, a, b)
                close(w["start_ns"], a, f"{where} step {steps[i][0]} rank {r} start_ns", abs_=0)
                close(w["dur_s"], (b - a) / 1e9, f"{where} step {steps[i][0]} rank {r} dur_s")
                for k in ("compute", "exposed_comm", "memory", "idle"):
                    close(w[k], p[k] / 1e9, f"{where} step {steps[i][0]} rank {r} {k}")
                if (w["warmup"], w["trailing"]) != (i < warm, i == n - 1):
                    errors.append(f"{where}: step {steps[i][0]} rank {r} flags {w['warmup'], w['trailing']}")
            dp = t["deviceProperties"][r]
            close(g["memory_total_bytes"], dp["totalGlobalMem"], f"{where} gpu{r} totalGlobalMem", abs_=0)
            mem = [e for e in t["traceEvents"] if e.get("name") == "[memory]"]
            close(g["peak_memory_reserved_bytes"], max(e["args"]["Total Reserved"] for e in mem), f"{where} gpu{r} reserved", abs_=0)
        slow = max(range(len(means)), key=lambda r: (means[r], -r))
        close(tr["slowest_rank"], slow, f"{where} slowest rank", abs_=0)
        v = [(b - a) / 1e9 for a, b in wins[slow][warm:m]]
        close(tr["step_time_s"]["median"], quantile(v, 0.5), f"{where} median")
        close(tr["step_time_s"]["p10"], quantile(v, 0.1), f"{where} p10")
        close(tr["step_time_s"]["p90"], quantile(v, 0.9), f"{where} p90")
        close(tr["step_time_s"]["cv"], statistics.pstdev(v) / statistics.mean(v), f"{where} cv", abs_=1e-9)
        size = {"Float": 4, "BFloat16": 2, "Half": 2}
        coll = {}
        for t, steps, gpu in ranks:              # summed over ranks: the run's is their mean
            for s, e, cls, i, ev, xs in gpu:
                if cls != "comm" or i < warm or i >= m:
                    continue
                a = ev["args"]
                c = coll.setdefault(comm_op(ev), [0, 0, 0, 0])
                c[0] += max(a["In msg nelems"], a["Out msg nelems"]) * size[a["dtype"]]
                c[1] += e - s
                c[2] += 1
                c[3] += e - min(max(xs, s), e)
        div = (m - warm) * len(ranks)
        for c in tr["comm"]["collectives"]:
            got = coll.get(c["op"])
            if not got:
                errors.append(f"{where}: no {c['op']} kernels in the trace")
                continue
            close(c["bytes_per_step"], got[0] / div, f"{where} {c['op']} bytes")
            close(c["time_per_step_s"], got[1] / div / 1e9, f"{where} {c['op']} time")
            close(c["calls_per_step"], got[2] / div, f"{where} {c['op']} calls")
            close(c["transfer_time_per_step_s"], got[3] / div / 1e9, f"{where} {c['op']} transfer time")
        if not tr["comm"]["collectives"] and coll:
            errors.append(f"{where}: collectives in a run whose truth has none")
    check_workload(truth, fams)
    print(f"checked {name}")
if errors:
    for e in errors[:50]:
        print("FAIL:", e)
    sys.exit(1)
PY
