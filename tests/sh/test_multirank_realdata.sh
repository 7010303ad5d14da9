#!/bin/bash
# Every rank of two real 8-GPU jobs (Megatron-LM tensor parallel 8 on A100,
# DLRM on V100), each rank with a single ProfilerStep that no next step
# closes: the run has no step time, its one step trails, and each GPU's whole
# profiled span is partitioned. The span split (all ten span_s keys, to the
# nanosecond), the clock offsets and the trailing step's split that
# `analyze --json` gives must equal what tests/realdata_clock.py computes on
# its own from the trace JSON.
set -u
. tests/skip.sh
need_shared
need_tool python3
k=$SHARED/realdata/kineto_multirank
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/t/megatron" "$tmp/t/dlrm"
ln -s "$k"/astrasim_megatron_tp8_8xA100/megatron_kineto_[0-7].json.gz "$tmp/t/megatron/"
ln -s "$k"/param_dlrm_8xV100/worker[0-7]_step_12.*.pt.trace.json.gz "$tmp/t/dlrm/"
for run in megatron dlrm; do
	n=$(ls "$tmp/t/$run" | wc -l)
	[ "$n" -eq 8 ] || { echo "FAIL: $run: $n traces in $k, want 8"; exit 1; }
done
"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/out.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || { echo "analyze exited $rc"; cat "$tmp/err"; exit 1; }
for run in megatron dlrm; do
	python3 tests/realdata_clock.py "$tmp/t/$run"/* > "$tmp/$run.want" || exit 1
done
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
a = json.load(open(f"{tmp}/out.json"))
runs = {r["name"]: r for r in a["runs"]}
bad, checked = [], 0
span_keys = ("compute", "exposed_comm", "memory", "idle", "comm_total", "overlapped_comm",
             "exposed_comm_wait", "exposed_comm_transfer", "memory_total", "kernel_busy")
step_keys = ("exposed_comm", "exposed_comm_wait", "exposed_comm_transfer", "comm_total",
             "memory_total", "kernel_busy")
device = {"megatron": "NVIDIA A100-SXM4-80GB", "dlrm": "Tesla V100-SXM2-32GB"}


def same(v, want):
    return v is not None and round(v * 1e9) == want


for name in ("megatron", "dlrm"):
    want = json.load(open(f"{tmp}/{name}.want"))
    r = runs.get(name)
    if r is None:
        bad.append(f"{name}: no such run in analyze's output")
        continue
    if r["gpus"] != 8 or r["status"] != "incomplete":
        bad.append(f"{name}: gpus {r['gpus']}, status {r['status']}; want 8, incomplete")
    if r["steps"] != {"total": 1, "warmup": 0, "measured": 0, "trailing": 1}:
        bad.append(f"{name}: steps {r['steps']}, want total 1, warmup 0, measured 0, trailing 1")
    if r["step_time_s"]["median"] is not None:
        bad.append(f"{name}: step_time_s.median {r['step_time_s']['median']}, want null "
                   "(a single step trails and enters no statistic)")
    gpus = {g["rank"]: g for g in r["per_gpu"]}
    if sorted(gpus) != [w["rank"] for w in want["ranks"]] or len(gpus) != 8:
        bad.append(f"{name}: ranks {sorted(gpus)}, want {[w['rank'] for w in want['ranks']]}")
        continue
    windows = {}
    for s in r["step_windows"]:
        windows.setdefault(s["rank"], []).append(s)
    for w in want["ranks"]:
        g, rank = gpus[w["rank"]], w["rank"]
        if g["name"] != device[name]:
            bad.append(f"{name} GPU {rank}: name {g['name']!r}, want {device[name]!r}")
        if not same(g["clock_offset_s"], w["offset_ns"]):
            bad.append(f"{name} GPU {rank}: clock_offset_s {g['clock_offset_s']}, "
                       f"want {w['offset_ns']} ns")
        checked += 1
        for key in span_keys:
            v = (g["span_s"] or {}).get(key)
            checked += 1
            if not same(v, w["span"][key]):
                bad.append(f"{name} GPU {rank} span_s.{key}: {v}, want {w['span'][key]} ns")
        parts = sum(w["span"][key] for key in ("compute", "exposed_comm", "memory", "idle"))
        if parts != w["span"]["window"]:
            bad.append(f"{name} GPU {rank}: the script's span parts add to {parts} ns, "
                       f"not its span {w['span']['window']} ns")
        if g["step_s"]["compute"] is not None or g["mean_step_s"] is not None:
            bad.append(f"{name} GPU {rank}: step_s/mean_step_s set without a closed step")
        (n, parts), = w["steps"].items()
        steps = [s for s in g["steps"] if str(s["step"]) == n]
        if len(g["steps"]) != 1 or not steps or not steps[0]["trailing"]:
            bad.append(f"{name} GPU {rank}: steps {g['steps']}, want one trailing step {n}")
            continue
        for key in step_keys:
            checked += 1
            if not same(steps[0][key], parts[key]):
                bad.append(f"{name} GPU {rank} step {n} {key}: {steps[0][key]}, "
                           f"want {parts[key]} ns")
        sw = windows.get(rank, [])
        if len(sw) != 1 or str(sw[0]["step"]) != n or sw[0]["trailing"] is not True \
                or sw[0]["warmup"] is not False:
            bad.append(f"{name} GPU {rank}: step_windows {sw}, want step {n} trailing, "
                       "not warm-up")
    if len(r["step_windows"]) != 8:
        bad.append(f"{name}: {len(r['step_windows'])} step_windows, want 8")
    if want["mismatched"]:
        bad.append(f"{name}: the script found collective counts that differ: "
                   f"{want['mismatched']}")

# the script found what the traces hold: 84 all-reduces (Megatron) and 8
# collectives (DLRM) matched on every rank, ranks off the lowest rank's clock,
# rank 4 waiting 445.4 ms and rank 0 191.2 ms, ranks 0 and 6 idle 200-230 ms
m = {w["rank"]: w for w in json.load(open(f"{tmp}/megatron.want"))["ranks"]}
d = {w["rank"]: w for w in json.load(open(f"{tmp}/dlrm.want"))["ranks"]}
if not (len(m) == 8 and all(w["matched"] == 84 and w["comm_kernels"] == 84 for w in m.values())
        and m[1]["offset_ns"] != 0
        and round(m[4]["span"]["exposed_comm_wait"] / 1e5) == 4454
        and round(m[0]["span"]["exposed_comm_wait"] / 1e5) == 1912
        and all(200e6 < m[i]["span"]["idle"] < 230e6 for i in (0, 6))):
    bad.append(f"megatron: the independent script found nothing to check: {m}")
if not (len(d) == 8 and all(w["matched"] == 8 and w["comm_kernels"] == 8 for w in d.values())
        and d[1]["offset_ns"] != 0 and all(w["span"]["exposed_comm_wait"] > 0
                                           for w in d.values())):
    bad.append(f"dlrm: the independent script found nothing to check: {d}")
# strategy, collectives over the span and stragglers. The collectives: per op
# and dtype, the script's calls, kernel time and waiting summed over the 8
# ranks, over 8 (per GPU, over the span). The stragglers by the rule of
# docs/analysis.md, from the script's spans: a rank whose waiting is at most
# half the median of the other ranks', while theirs is at least 25% of their
# span; host-bound when its idle time above the others' median exceeds its
# busy time above theirs.
OPS = {"allreduce": "AllReduce", "alltoall": "AllToAll"}
strategy = {"megatron": "tensor", "dlrm": "ddp+alltoall"}
stragglers = {"megatron": [0, 6], "dlrm": [7]}


def median(v):
    v = sorted(v)
    return (v[len(v) // 2] + v[(len(v) - 1) // 2]) / 2


for name in ("megatron", "dlrm"):
    want = json.load(open(f"{tmp}/{name}.want"))["ranks"]
    r = runs[name]
    if r["strategy"] != strategy[name] or r["strategy_inferred"] != strategy[name]:
        bad.append(f"{name}: strategy {r['strategy']} ({r['strategy_inferred']}), "
                   f"want {strategy[name]}")
    comm = r["comm"]
    if comm["collectives_per"] != "span":
        bad.append(f"{name}: collectives_per {comm['collectives_per']}, want span")
    sums = {}
    for w in want:
        for key, c in w["collectives"].items():
            t = sums.setdefault(key, [0, 0, 0])
            for i, f in enumerate(("calls", "time", "wait")):
                t[i] += c[f]
    got = {f"{c['op']}/{c['dtype']}": c for c in comm["collectives"]}
    if len(got) != len(sums):
        bad.append(f"{name}: collectives {sorted(got)}, want {sorted(sums)}")
    for key, (calls, time, wait) in sums.items():
        kind, dtype = key.split("/")
        c = got.get(f"{OPS[kind]}/{dtype if dtype != 'None' else 'int8'}")
        checked += 3
        if c is None or c["calls_per_step"] != calls / 8 or \
                round(c["time_per_step_s"] * 8e9) != time or \
                round(c["wait_time_per_step_s"] * 8e9) != wait:
            bad.append(f"{name} {key}: {c}, want calls {calls / 8}, time {time / 8} ns, "
                       f"wait {wait / 8} ns per GPU")
    spans = {w["rank"]: w["span"] for w in want}
    share = {i: s["exposed_comm_wait"] / s["window"] for i, s in spans.items()}
    found = [i for i in sorted(spans)
             if spans[i]["exposed_comm_wait"] <= median([spans[j]["exposed_comm_wait"]
                                                        for j in spans if j != i]) / 2
             and median([share[j] for j in spans if j != i]) >= 0.25]
    others = [i for i in spans if i not in found]
    idle = median([spans[i]["idle"] for i in others])
    busy = median([spans[i]["compute"] + spans[i]["memory"] for i in others])
    im = r["imbalance"]
    got_ranks = [s["rank"] for s in im["stragglers"] or []]
    if found != stragglers[name] or im["straggler_ranks"] != found or got_ranks != found \
            or im["flagged"] is not True or im["per"] != "span":
        bad.append(f"{name}: stragglers {im['straggler_ranks']} ({got_ranks}, flagged "
                   f"{im['flagged']}, per {im['per']}); the rule on the script's spans gives "
                   f"{found}, the traces show {stragglers[name]}")
    for s in im["stragglers"] or []:
        x = spans[s["rank"]]
        cause = "host-bound" if x["idle"] - idle >= x["compute"] + x["memory"] - busy \
            else "computing"
        checked += 1
        if s["cause"] != cause or not same(s["wait_s"], x["exposed_comm_wait"]) \
                or not same(s["idle_s"], x["idle"]):
            bad.append(f"{name} straggler {s}: want cause {cause}, wait "
                       f"{x['exposed_comm_wait']} ns, idle {x['idle']} ns")
    cost = median([spans[i]["exposed_comm_wait"] for i in others])
    if not same(im["straggler_cost_s"], round(cost)):
        bad.append(f"{name}: straggler_cost_s {im['straggler_cost_s']}, want {cost} ns")
    if name == "megatron" and not (im["straggler_reason"] or "").startswith(
            "GPUs 0 and 6 are stragglers: the other 6 GPUs wait a median 431.7 ms over the "
            "profiled span (69% of their span) in collectives for them; GPUs 0 and 6 are "
            "host-bound (their GPUs idle 222.5 and 208.7 ms, the others a median 9.5 ms)"):
        bad.append(f"megatron: straggler_reason {im['straggler_reason']!r}")
if checked < 100:
    bad.append(f"only {checked} values checked")
print("\n".join(bad) or f"ok ({checked} values)")
sys.exit(1 if bad else 0)
PY
[ $? -eq 0 ] || exit 1
# the Megatron run alone: its stragglers on analyze's first screen, and the
# advice for a host-bound straggler (not to move layers between GPUs)
mkdir -p "$tmp/m" && mv "$tmp/t/megatron" "$tmp/m/"
"$SCALEAUDIT" analyze "$tmp/m" > "$tmp/m.txt" 2>&1 || { echo "analyze exited $?"; cat "$tmp/m.txt"; exit 1; }
line=$(grep -n '^Stragglers in megatron: GPUs 0 and 6 are stragglers: ' "$tmp/m.txt" | cut -d: -f1)
[ -n "$line" ] && [ "$line" -le 8 ] || { echo "no straggler line on the first screen:"; head -12 "$tmp/m.txt"; exit 1; }
grep -qF "  - feed GPUs 0 and 6 of megatron: they idle waiting for the host while the other GPUs wait a median 431.7 ms over the profiled span (69%) in collectives for them; give the data loader more workers" "$tmp/m.txt" ||
	{ echo "no host-bound advice:"; grep -A3 '^Recommendations' "$tmp/m.txt"; exit 1; }
grep -qF "  AllReduce     fp16         81 calls         - MB/span    399.6 ms/span (349.8 ms waiting)" "$tmp/m.txt" ||
	{ echo "no collective over the span:"; grep -A5 '^Communication' "$tmp/m.txt"; exit 1; }
# ... and at the head of summary.md, by the verdict, with chart 13 drawn over the span
"$SCALEAUDIT" report -o "$tmp/rep" "$tmp/m" > /dev/null 2> "$tmp/rep.err" || { echo "report exited $?"; cat "$tmp/rep.err"; exit 1; }
sed -n '1,8p' "$tmp/rep/summary.md" | grep -q '^Stragglers in megatron: GPUs 0 and 6 are stragglers: ' ||
	{ echo "summary.md does not open with the stragglers:"; head -8 "$tmp/rep/summary.md"; exit 1; }
[ -s "$tmp/rep/charts/13-waiting.svg" ] || { echo "no chart 13 over the span"; ls "$tmp/rep/charts"; exit 1; }
exit 0
