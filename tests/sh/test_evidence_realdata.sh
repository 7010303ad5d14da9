#!/bin/bash
# A logs-only feasibility trial made of real files of ../shared/realdata: the
# CUDA out-of-memory messages of several PyTorch eras as the 1-GPU run, the
# stdout of a real 2-rank Hugging Face Trainer + DeepSpeed job and an
# nccl-tests output of A10Gs as the 2-GPU run. Nothing gives the 2-GPU run's
# peak memory, so the verdict is inconclusive and names it (unknown is not
# refuted); its step time is train_runtime over the steps run, checked
# against tests/realdata_hf_summary.py, which reads the log itself. Asked as
# step-time, the same trial is inconclusive with use-feasibility. Out-of-memory
# messages name no GPU count: the 1-GPU run's count is unknown (null), which
# feasibility's criterion does not need: an unverified gpus confound, not a
# blocking one.
set -u
. tests/skip.sh
need_shared
need_tool python3
logs=$SHARED/realdata/training_logs
hf=$logs/daekeun-ml_2nodes_1xA10G_each_DeepSpeed_HF-Trainer_NCCL2.23.4_stdout.txt
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for h in feasibility step-time; do
	mkdir -p "$tmp/$h/1gpu" "$tmp/$h/2gpu"
	printf '[trial]\ntitle = real logs only\nhypothesis = %s\nbaseline = 1gpu\n' "$h" > "$tmp/$h/trial.ini"
	ln -s "$logs/cuda-oom-messages_by-pytorch-era.txt" "$tmp/$h/1gpu/train.log"
	ln -s "$hf" "$tmp/$h/2gpu/train.log"
	ln -s "$SHARED/realdata/nccl_tests/issue-nccl-tests-249_A10G_leading-hash-stripped_blocking.txt" "$tmp/$h/2gpu/"
	"$SCALEAUDIT" analyze --json "$tmp/$h" > "$tmp/$h.json" 2> "$tmp/$h.err" ||
		{ echo "$h: analyze exited $?"; cat "$tmp/$h.err"; exit 1; }
done
python3 tests/realdata_hf_summary.py "$hf" > "$tmp/want.json" || { echo "realdata_hf_summary.py failed"; exit 1; }
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
want = json.load(open(f"{tmp}/want.json"))
bad = []
def check(what, got, exp):
    if got != exp:
        bad.append(f"{what}: got {got!r}, want {exp!r}")
f = json.load(open(f"{tmp}/feasibility.json"))
base, cand = f["runs"]
c = f["comparison"]
check("1gpu status", (base["status"], base["gpus"]), ("failed-oom", None))
check("gpus confound", [(x["severity"], x["message"]) for x in c["confounds"] if x["what"] == "gpus"],
      [("unverified", "GPU count of 1gpu unknown: no trace or log says it; set gpus = N in 1gpu/run.ini")])
check("2gpu status", (cand["status"], cand["gpus"]), ("completed", 2))
check("2gpu steps", cand["steps"], {"total": want["steps_run"], "warmup": 0,
      "measured": want["steps_run"], "trailing": 0})
got = cand["step_time_s"]["median"]
if got is None or abs(got - want["step_s"]) > 1e-9 * want["step_s"]:
    bad.append(f"2gpu step time: got {got!r}, want {want['step_s']!r}")
check("2gpu step source", cand["step_time_s"]["source"], "log-summary")
check("2gpu samples/s", cand["throughput"]["samples_per_s"], want["train_samples_per_second"])
check("2gpu global batch", cand["global_batch"], want["global_batch"])
check("verdict", c["verdict"], "inconclusive")
check("reason", c["reason"].split(";")[0],
      "peak memory of 2gpu GPUs 0 and 1 unknown: record nvidia-smi or profile with profile_memory=True")
check("weak evidence", c["weak_evidence"], [])
check("log-inconsistent", [x for x in f["findings"] if x["code"] == "log-inconsistent"], [])
s = json.load(open(f"{tmp}/step-time.json"))
check("step-time verdict", s["comparison"]["verdict"], "inconclusive")
check("step-time advice", [r["id"] for r in s["recommendations"]][:1], ["use-feasibility"])
check("step-time advice text", s["recommendations"][0]["text"],
      "the trial answered whether the run is possible, not how fast it is: run '1gpu' did not run its "
      "steps: it ran out of GPU memory (it failed to allocate 2.4 GB); on 2 GPUs it completed "
      f"{want['steps_run']} steady steps; the peak memory of its GPUs unknown; set hypothesis = "
      "feasibility in trial.ini")
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
