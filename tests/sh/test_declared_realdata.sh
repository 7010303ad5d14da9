#!/bin/bash
# Real training logs as runs of a trial: the batch lines of a real HF Trainer
# + DeepSpeed log (its banner: "Batch Size per Device: 4", "Gradient
# Accumulation Steps: 2", "World Size: 2", "Effective Batch Size: 16") reach
# analysis.json as the 2-GPU run's values used, each with `facts` saying
# `log` and its line; a run.ini saying global_batch = 32 is a manifest-conflict
# naming both lines, and 4 x 2 GPUs (ddp) x 2 = 16 is consistent. The real
# DeepSpeed config dump's gradient_accumulation_steps and bfloat16_enabled
# lines against a run.ini that says otherwise. Expected values come from
# tests/realdata_batch.py, which reads the logs with its own patterns.
set -u
. tests/skip.sh
need_shared
need_tool python3
logs=$SHARED/realdata/training_logs
hf=$logs/daekeun-ml_2nodes_1xA10G_each_DeepSpeed_HF-Trainer_NCCL2.23.4_stdout.txt
ds=$logs/deepspeed_config-dump_precision-and-batch-keys_4-issues.txt
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 tests/realdata_batch.py "$hf" > "$tmp/hf.json" || { echo "tests/realdata_batch.py failed"; exit 1; }
python3 tests/realdata_batch.py "$ds" > "$tmp/ds.json" || { echo "tests/realdata_batch.py failed"; exit 1; }
mkdir -p "$tmp/t/1gpu" "$tmp/t/2gpu" "$tmp/t/ds"
cp samples/trials/ddp-scales-well/1gpu/* "$tmp/t/1gpu/"
ln -s "$hf" "$tmp/t/2gpu/train.log"
ln -s "$ds" "$tmp/t/ds/train.log"
printf '[trial]\nhypothesis = step-time\nbaseline = 1gpu\n' > "$tmp/t/trial.ini"
fail=0
check() {	# check STAGE: analyze --json the trial and check it against the expected facts
	"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/a.json" 2> "$tmp/err" ||
		{ echo "$1: analyze exited $?"; cat "$tmp/err"; fail=1; return; }
	python3 - "$1" "$tmp/a.json" "$tmp/hf.json" "$tmp/ds.json" <<'PY' || fail=1
import json, sys
stage, out, hf, ds = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3])), json.load(open(sys.argv[4]))
runs = {r["name"]: r for r in out["runs"]}
conflicts = [f["message"] for f in out["findings"] if f["code"] == "manifest-conflict"]
bad = []

def expect(what, got, want):
    if got != want:
        bad.append(f"{stage}: {what}: got {got!r}, want {want!r}")

r = runs["2gpu"]
for key in ("global_batch", "micro_batch", "grad_accum"):
    expect(f"2gpu {key}", r[key], hf[key]["value"])
expect("2gpu gpus", r["gpus"], hf["gpus"]["value"])
for key in ("global_batch", "micro_batch", "grad_accum", "gpus"):
    f = r["facts"][key]
    expect(f"2gpu facts.{key}", (f["value"], f["from"], f["at"]),
           (hf[key]["value"], "log", "2gpu/train.log:%d" % hf[key]["line"]))
expect("2gpu throughput", round(r["throughput"]["samples_per_s"], 3), 21.283)
expect("batch-inconsistent", [f for f in out["findings"] if f["code"] == "batch-inconsistent"], [])
d = runs["ds"]
expect("ds grad_accum", d["facts"]["grad_accum"]["at"], "ds/train.log:%d" % ds["grad_accum"]["line"])
expect("ds precision", (d["facts"]["precision"]["value"], d["facts"]["precision"]["from"]),
       (ds["precision"]["value"], "log"))
if stage == "declared":
    g = hf["global_batch"]
    expect("2gpu declared", (r["facts"]["global_batch"]["declared"], r["facts"]["global_batch"]["declared_at"]),
           (32, "2gpu/run.ini:2"))
    want = [f"run '2gpu': run.ini:2 says global_batch = 32, but train.log:{g['line']} says {g['value']} "
            f"(Effective Batch Size): {g['value']} is used",
            f"run 'ds': run.ini:2 says precision = fp16, but train.log:{ds['precision']['line']} says "
            f"{ds['precision']['value']}: {ds['precision']['value']} is used",
            f"run 'ds': run.ini:3 says grad_accum = 1, but train.log:{ds['grad_accum']['line']} says "
            f"{ds['grad_accum']['value']} (gradient_accumulation_steps): {ds['grad_accum']['value']} is used"]
    expect("manifest-conflicts", sorted(conflicts), sorted(want))
else:
    expect("manifest-conflicts", conflicts, [])
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
}
check logs-only
printf '[run]\nglobal_batch = 32\nstrategy = ddp\n' > "$tmp/t/2gpu/run.ini"
printf '[run]\nprecision = fp16\ngrad_accum = 1\n' > "$tmp/t/ds/run.ini"
check declared
exit $fail
