#!/bin/bash
# One clock per run and waiting vs transfer on real multi-rank traces: the
# clock offsets and each step's split of communication that `analyze --json`
# gives must equal what tests/realdata_clock.py computes on its own from the
# trace JSON (two ranks of HTA's sampled 128-rank job, and rank 0 of the
# 2-rank nccl_data job, whose kernels have no peer trace to match).
set -u
. tests/skip.sh
need_shared
need_tool python3
k=$SHARED/realdata/kineto_trace
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/t/sampled" "$tmp/t/nccl"
ln -s "$k/hta__trace_filter__sampled_rank-0.json.gz" "$k/hta__trace_filter__sampled_rank-1.json.gz" "$tmp/t/sampled/"
ln -s "$k/hta__nccl_parser_config__nccl_data.json.gz" "$tmp/t/nccl/"
"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/out.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || { echo "analyze exited $rc"; cat "$tmp/err"; exit 1; }
for run in sampled nccl; do
	python3 tests/realdata_clock.py "$tmp/t/$run"/* > "$tmp/$run.want" || exit 1
done
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
a = json.load(open(f"{tmp}/out.json"))
runs = {r["name"]: r for r in a["runs"]}
bad, checked = [], 0
keys = ("exposed_comm", "exposed_comm_wait", "exposed_comm_transfer", "comm_total",
        "memory_total", "kernel_busy")
for name in ("sampled", "nccl"):
    want = json.load(open(f"{tmp}/{name}.want"))
    gpus = {g["rank"]: g for g in runs[name]["per_gpu"]}
    for w in want["ranks"]:
        g = gpus[w["rank"]]
        got = g["clock_offset_s"]
        if got is None or round(got * 1e9) != w["offset_ns"]:
            bad.append(f"{name} GPU {w['rank']}: clock_offset_s {got}, want {w['offset_ns']} ns")
        steps = {str(s["step"]): s for s in g["steps"]}
        for n, parts in w["steps"].items():
            for key in keys:
                v = steps[n][key]
                checked += 1
                if v is None or round(v * 1e9) != parts[key]:
                    bad.append(f"{name} GPU {w['rank']} step {n} {key}: {v}, want {parts[key]} ns")
    codes = [f for f in a["findings"] if f["code"] == "collective-count-mismatch"
             and f"run '{name}'" in f["message"]]
    if len(codes) != len(want["mismatched"]):
        bad.append(f"{name}: {len(codes)} count-mismatch findings, want {len(want['mismatched'])}")
# the values are not all trivial: the sampled ranks wait, nccl's rank only transfers
s = json.load(open(f"{tmp}/sampled.want"))["ranks"]
if not (s[1]["offset_ns"] != 0 and all(r["matched"] == 10 for r in s)
        and s[0]["steps"]["551"]["exposed_comm_wait"] > 0):
    bad.append(f"sampled: the independent script found nothing to check: {s}")
# the sampled job is TorchRec's: DDP all-reduces in the backward pass and
# all-to-all exchanges of embeddings, both run as SendRecv kernels, which the
# ops that launched them name; its optimizer's all-gather alone is no FSDP
r = runs["sampled"]
ops = sorted((c["op"], c["calls_per_step"]) for c in r["comm"]["collectives"])
if r["strategy"] != "ddp+alltoall" or ops != [("AllGather", 1), ("AllReduce", 2), ("AllToAll", 2)] \
        or r["comm"]["collectives_per"] != "step":
    bad.append(f"sampled: strategy {r['strategy']}, collectives {ops}; want ddp+alltoall, "
               "AllGather 1, AllReduce 2, AllToAll 2 per step")
if checked < 40:
    bad.append(f"only {checked} values checked")
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
