#!/bin/bash
# The real traces of ../shared/realdata analysed as runs of a trial: no
# error, and numbers checked against counts taken independently from the
# files (distinct ProfilerStep#N annotations, world sizes, GPU names), and
# the step windows against tests/realdata_steps.py, which computes them from
# the trace JSON alone: the trailing step, warm-up, the steady means and the
# whole-span partition of a single-step capture.
set -u
. tests/skip.sh
need_shared
need_tool python3
k=$SHARED/realdata/kineto_trace
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/t/nccl" "$tmp/t/sampled" "$tmp/t/ns" "$tmp/t/triton"
ln -s "$k/hta__nccl_parser_config__nccl_data.json.gz" "$tmp/t/nccl/"
ln -s "$k/hta__trace_filter__sampled_rank-0.json.gz" "$k/hta__trace_filter__sampled_rank-1.json.gz" "$tmp/t/sampled/"
ln -s "$k/hta__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" "$tmp/t/ns/"
ln -s "$k/hta__triton_example__triton_example.json.gz" "$tmp/t/triton/"
python3 tests/realdata_steps.py \
    "nccl=$k/hta__nccl_parser_config__nccl_data.json.gz" \
    "sampled=$k/hta__trace_filter__sampled_rank-0.json.gz,$k/hta__trace_filter__sampled_rank-1.json.gz" \
    "ns=$k/hta__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" \
    "triton=$k/hta__triton_example__triton_example.json.gz" > "$tmp/want.json" ||
    { echo "tests/realdata_steps.py failed"; exit 1; }
"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/out.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || { echo "analyze exited $rc"; cat "$tmp/err"; exit 1; }
python3 - "$tmp/out.json" "$tmp/t" "$tmp/want.json" <<'PY'
import gzip, json, os, re, sys
out, trial, want_file = sys.argv[1:]
want = json.load(open(want_file))
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
    expect(f"{name} warm-up + measured + trailing", r["warmup"] + r["measured"] + r["trailing"], r["total"])

PARTS = ("compute", "exposed_comm", "memory", "idle")

def close(what, got, want):
    if got is None or want is None or abs(got - want) > 1e-9:
        if got != want:
            bad.append(f"{what}: got {got!r}, want {want!r}")

# the step windows, computed from the traces by tests/realdata_steps.py
for name, w in want.items():
    r = runs[name]
    expect(f"{name} steps", r["steps"], w["steps"])
    close(f"{name} step median", r["step_time_s"]["median"], w["median_s"])
    for g, wg in zip(r["per_gpu"], w["per_gpu"]):
        where = f"{name} GPU {wg['rank']}"
        expect(f"{where} rank", g["rank"], wg["rank"])
        close(f"{where} mean_step_s", g["mean_step_s"], wg.get("mean_step_s"))
        for k in PARTS:
            close(f"{where} step_s.{k}", g["step_s"][k], wg.get("step_s", {}).get(k))
            close(f"{where} span_s.{k}", g["span_s"][k], wg.get("span_s", {}).get(k))
    got = [(x["step"], x["rank"], x["start_ns"], x["trailing"]) for x in r["step_windows"]]
    expect(f"{name} step_windows", got,
           [(x["step"], x["rank"], x["start_ns"], x["trailing"]) for x in w["step_windows"]])
    for x, wx in zip(r["step_windows"], w["step_windows"]):
        close(f"{name} step {x['step']} rank {x['rank']} dur_s", x["dur_s"], wx["dur_s"])
# known answers: each capture's last step trails; the 3-step nccl trace keeps 2
# steady steps, so its trailing window (18.9 ms of exposed comm against ~10 ms)
# stays out of the mean; a single step leaves no step time and says so
expect("trailing steps", [runs[n]["steps"]["trailing"] for n in ("nccl", "ns", "sampled", "triton")],
       [1, 1, 1, 1])
expect("nccl steady steps", runs["nccl"]["steps"]["measured"], 2)
expect("ns steady steps", runs["ns"]["steps"]["measured"], 4)
expect("triton step time", runs["triton"]["step_time_s"]["median"], None)

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
expect("no-step-windows findings",
       [m.split("'")[1] for c, m in codes if c == "no-step-windows"], ["triton"])
expect("missing-rank findings", sorted(m.split("'")[1] for c, m in codes if c == "missing-rank"),
       ["nccl", "sampled"])
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
