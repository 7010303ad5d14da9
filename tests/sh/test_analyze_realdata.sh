#!/bin/bash
# The real traces of ../shared/realdata analysed as runs of a trial: no
# error, and numbers checked against counts taken independently from the
# files (distinct ProfilerStep#N annotations, world sizes, GPU names).
set -u
. tests/skip.sh
need_shared
need_tool python3
k=$SHARED/realdata/kineto_trace
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/t/nccl" "$tmp/t/sampled" "$tmp/t/ns"
ln -s "$k/hta__nccl_parser_config__nccl_data.json.gz" "$tmp/t/nccl/"
ln -s "$k/hta__trace_filter__sampled_rank-0.json.gz" "$k/hta__trace_filter__sampled_rank-1.json.gz" "$tmp/t/sampled/"
ln -s "$k/hta__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" "$tmp/t/ns/"
"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/out.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || { echo "analyze exited $rc"; cat "$tmp/err"; exit 1; }
python3 - "$tmp/out.json" "$tmp/t" <<'PY'
import gzip, json, os, re, sys
out, trial = sys.argv[1:]
a = json.load(open(out))
runs = {r["name"]: r for r in a["runs"]}
bad = []

def expect(what, got, want):
    if got != want:
        bad.append(f"{what}: got {got!r}, want {want!r}")

def steps_in(path):
    """Distinct ProfilerStep#N of the CPU annotations, read with Python's json."""
    d = json.load(gzip.open(path))
    return len({e["name"] for e in d["traceEvents"]
                if e.get("cat") == "user_annotation" and e.get("name", "").startswith("ProfilerStep#")})

for name in ("nccl", "ns"):
    f = os.path.join(trial, name, os.listdir(os.path.join(trial, name))[0])
    expect(f"{name} steps", runs[name]["steps"]["total"], steps_in(f))
    r = runs[name]["steps"]
    expect(f"{name} warm-up + measured", r["warmup"] + r["measured"], r["total"])

expect("nccl gpus (world size)", runs["nccl"]["gpus"], 2)
expect("sampled gpus (world size)", runs["sampled"]["gpus"], 128)
expect("nccl device", runs["nccl"]["per_gpu"][0]["name"], "NVIDIA A100-PG509-200")
expect("ns device", runs["ns"]["per_gpu"][0]["name"], "Tesla V100-SXM2-32GB")
expect("nccl strategy", runs["nccl"]["strategy"], "ddp")
expect("nccl NCCL version", runs["nccl"]["comm"]["nccl_version"], "2.17.1")
ops = {(c["op"], c["dtype"]) for c in runs["nccl"]["comm"]["collectives"]}
expect("nccl all-reduce seen", ("AllReduce", "fp32") in ops, True)
for r in a["runs"]:
    for g in r["per_gpu"]:
        s = g["step_s"]
        if g["mean_step_s"] is None:
            continue
        total = s["compute"] + s["exposed_comm"] + s["memory"] + s["idle"]
        if abs(total - g["mean_step_s"]) > 1e-9:
            bad.append(f"{r['name']} GPU {g['rank']}: parts add up to {total}, not {g['mean_step_s']}")
codes = [(f["code"], f["message"]) for f in a["findings"]]
expect("missing-rank findings", sorted(m.split("'")[1] for c, m in codes if c == "missing-rank"),
       ["nccl", "sampled"])
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
