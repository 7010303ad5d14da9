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
if checked < 100:
    bad.append(f"only {checked} values checked")
print("\n".join(bad) or f"ok ({checked} values)")
sys.exit(1 if bad else 0)
PY
