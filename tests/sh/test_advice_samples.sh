#!/bin/bash
# The advice on the samples, in order and in exact words:
# - the order: what the run can fix itself (transport, bubble, split) before
#   the alternatives (independent runs, another GPU), the rental last; in
#   nccl-over-sockets unsetting NCCL_P2P_DISABLE comes first; with
#   question = hparam-sweep, independent runs first.
# - pipeline-bubble: GPUs that wait for each other with balanced compute
#   (40.4 against 44.0 ms) are a bubble: more micro-batches, not moving work;
#   p = 2 stages, m = grad_accum = 1 (run.ini), (p-1)/(m+p-1) = 1/2 = 50%,
#   and with 4 per stage, m = 8: 1/9 = 11%.
# - gpu-model-mismatch: the one run that answers (a 1x B200 baseline) and
#   the rentals' throughput ratio as another question, 377.4 / 100.3 = 3.76x.
# - unrelated-jobs: the one run names the largest family each side ran alone.
# - ddp-global-batch-changed: the one run with global batch 16, and the
#   global-batch reading, 377.9 / 195.8 = 1.93x, 96% of 2x.
# - page 1's "Why" (summary.md), its numbers from the generator's truth.json
#   (slowest GPU of each run, n = c / b): pipeline-bubble's exposed comm
#   named as a bubble, n x its waiting - the baseline's; ddp-2-vs-4 with
#   n = 4 / 2 = 2, never 4 as if the baseline had one GPU; host-bound-input's
#   idle named as host-bound, n x its host wait - the baseline's.
# - host-bound-input: both GPUs of the 2-GPU run wait for their data loaders
#   (no straggler), idle is the largest part of the loss and host wait over
#   half of it: fix-host-bound first, with the slowest GPU's idle by cause.
set -u
. tests/skip.sh
. tests/report_cache.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for s in pipeline-bubble nccl-over-sockets gpu-model-mismatch ddp-global-batch-changed ddp-2-vs-4 \
	 hparam-sweep-independent unrelated-jobs host-bound-input; do
	"$SCALEAUDIT" analyze --json "samples/trials/$s" > "$tmp/$s.json" || { echo "FAIL: analyze $s"; exit 1; }
done
for s in pipeline-bubble ddp-2-vs-4 host-bound-input; do
	r=$(report_of "samples/trials/$s")	# the report the other scripts share, read as $tmp/$s
	[ "$(cat "$r.rc")" = 0 ] || { echo "FAIL: report $s"; exit 1; }
	ln -s "$r" "$tmp/$s"
done
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
fail = 0
def recs(s):
    return json.load(open(f"{d}/{s}.json"))["recommendations"]
def ids(s):
    return [r["id"] for r in recs(s)]
def text(s, i):
    return [r["text"] for r in recs(s) if r["id"] == i]
def check(what, got, want):
    global fail
    if got != want:
        print(f"FAIL {what}:\n  got  {got!r}\n  want {want!r}")
        fail = 1
check("pipeline-bubble order", ids("pipeline-bubble"),
      ["fix-pipeline-bubble", "two-independent-runs", "fits-h200", "rental-window"])
check("nccl-over-sockets order", ids("nccl-over-sockets"),
      ["fix-nccl-transport", "two-independent-runs", "fits-mi300x", "rental-window"])
check("nccl-over-sockets first", recs("nccl-over-sockets")[0]["text"].split(": ")[1],
      "the log sets NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1")
check("sweep order", ids("hparam-sweep-independent")[0], "two-independent-runs")
check("ddp-2-vs-4 order", ids("ddp-2-vs-4"), ["two-independent-runs", "fits-h200", "rental-window"])
# unrelated-jobs: a transformer on 1gpu, a conv net on 2gpu (the generator's scenario); the one run
# names each side's largest family the other lacks, with the shares analysis.json gives them
w = json.load(open(f"{d}/unrelated-jobs.json"))["comparison"]["workload"]
check("unrelated-jobs order", ids("unrelated-jobs"), ["repeat-trial", "next-trial"])
check("unrelated-jobs next-trial", text("unrelated-jobs", "next-trial"), [
    "one run answers the question: run the same job on both GPU counts (only '1gpu' ran attention "
    f"({100 * w['baseline_only'][0]['share']:.0f}% of its kernel time), only '2gpu' ran conv "
    f"({100 * w['candidate_only'][0]['share']:.0f}%)): run '1gpu' again with the job '2gpu' ran (or "
    "'2gpu' with the job of '1gpu'), holding the batch, the precision and the GPU model constant"])
check("unrelated-jobs families", (w["baseline_only"][0]["family"], w["candidate_only"][0]["family"]),
      ("attention", "conv"))
check("bubble", text("pipeline-bubble", "fix-pipeline-bubble"), [
    "shrink the pipeline bubble: GPU 0 waits 41.1 ms per step (49% of its 83.4 ms mean step) for GPU 1; "
    "GPU 1 waits 39.0 ms per step (46% of its 85.0 ms mean step) for GPU 0; compute is balanced (busiest "
    "GPU 1.09x the least busy), so the stages wait for each other at the start and end of each step; "
    "with 2 stages and 1 micro-batch per step the bubble is (p-1)/(m+p-1) = 1/2 = 50% of the step, "
    "with 8 micro-batches (4 per stage) 11%: split the batch into more micro-batches per step "
    "(grad_accum) or use an interleaved schedule (several model chunks per GPU), rather than moving "
    "layers between the GPUs or tuning NCCL"])
check("no rebalance on a bubble", text("pipeline-bubble", "rebalance"), [])
check("gpu-model-mismatch order", ids("gpu-model-mismatch"), ["repeat-trial", "next-trial", "another-question"])
check("gpu-model next trial", text("gpu-model-mismatch", "next-trial"), [
    "one run answers the question: a 1x B200 baseline, run '1gpu' again on B200 (as '2gpu' ran), "
    "holding the model, the batch, the precision and the sequence length constant, and compare "
    "'2gpu' with it"])
check("gpu-model another question", text("gpu-model-mismatch", "another-question"), [
    "another question, not the one asked: the same runs compare two rentals, 2x B200 against 1x "
    "H100 SXM: 3.76x the throughput (377.4 against 100.3 samples/s), which says nothing about what "
    "the extra GPU adds"])
check("global batch order", ids("ddp-global-batch-changed"),
      ["next-trial", "another-question", "fits-h200", "rental-window"])
check("global batch next trial", text("ddp-global-batch-changed", "next-trial"), [
    "one run answers the question: run '1gpu' again with the global batch 16 (as '2gpu' ran), "
    "holding the model, the precision, the sequence length and the GPU model constant, and compare "
    "'2gpu' with it"])
check("global batch another question", text("ddp-global-batch-changed", "another-question"), [
    "another question, not the one asked: under hypothesis = global-batch (more GPUs carry a larger "
    "global batch) the same runs read 1.93x the throughput (377.9 against 195.8 samples/s), a "
    "scaling efficiency of 96% by samples per second; set hypothesis = global-batch in trial.ini if "
    "that is the question"])

def truth(s):
    t = json.load(open(f"samples/trials/{s}/truth.json"))
    def slowest(r):
        return max(r["per_gpu"], key=lambda g: g["mean_step_s"])
    b = [r for r in t["runs"] if r["name"] == t["trial"]["baseline"]][0]
    c = [r for r in t["runs"] if r["name"] == t["trial"]["candidate"]][0]
    return b, slowest(b), c, slowest(c), c["gpus"] / b["gpus"]
def why(s):
    return [l for l in open(f"{d}/{s}/summary.md") if l.startswith("Why:")]
def ms(v):
    return f"{v * 1e3:.1f} ms"
# the loss is counted on mean steps, and says so once instead of quoting a second step time
BASIS = "counted on mean steps, so that the parts add up"

b, gb, c, gc, n = truth("pipeline-bubble")
loss = n * gc["mean_step_s"] - gb["mean_step_s"]
comm = n * gc["step_s"]["exposed_comm"] - gb["step_s"]["exposed_comm"]
wait = n * gc["step_s"]["exposed_comm_wait"] - gb["step_s"]["exposed_comm_wait"]
check("bubble why", why("pipeline-bubble"), [
    f"Why: 2 GPUs lose {ms(loss)} of GPU time per step against perfect scaling ({BASIS}); the largest part is waiting for the other stage of the pipeline (a "
    f"bubble): {ms(wait)} of the {ms(comm)} of exposed communication\n"])
b, gb, c, gc, n = truth("ddp-2-vs-4")
check("2 vs 4 n", n, 2.0)
loss = n * gc["mean_step_s"] - gb["mean_step_s"]
compute = n * gc["step_s"]["compute"] - gb["step_s"]["compute"]
check("2 vs 4 why", why("ddp-2-vs-4"), [
    f"Why: 4 GPUs lose {ms(loss)} of GPU time per step against perfect scaling from 2 GPUs ({BASIS}); "
    f"the largest part is compute: "
    f"{ms(compute)}\n"])

b, gb, c, gc, n = truth("host-bound-input")
loss = n * gc["mean_step_s"] - gb["mean_step_s"]
idle = n * gc["step_s"]["idle"] - gb["step_s"]["idle"]
host = n * gc["step_s"]["idle_host"] - gb["step_s"]["idle_host"]
check("host-bound premise", (idle > max(n * gc["step_s"][k] - gb["step_s"][k] for k in ("compute", "exposed_comm", "memory")),
                             host > idle / 2), (True, True))
check("host-bound why", why("host-bound-input"), [
    f"Why: 2 GPUs lose {ms(loss)} of GPU time per step against perfect scaling ({BASIS}); the largest part is "
    f"idle waiting for the CPU to launch work (host-bound): {ms(host)} of the {ms(idle)} of idle\n"])
check("host-bound order", ids("host-bound-input"), ["fix-host-bound", "two-independent-runs", "fits-h200", "rental-window"])
g = gc["step_s"]
check("host-bound advice", text("host-bound-input", "fix-host-bound"), [
    f"feed the GPUs of 2gpu: idle is the largest part of the loss against perfect scaling, {ms(idle)} per step, "
    f"and {ms(host)} of it is waiting for the CPU to launch work; its slowest GPU idles {ms(g['idle'])} per step "
    f"(host {ms(g['idle_host'])}, sync {ms(g['idle_sync'])}, other {ms(g['idle_other'])}); give each rank's data "
    "loader more workers (within its share of the host's cores), pinned memory and prefetching, move CPU "
    "preprocessing out of the step (pre-tokenize or decode on the GPU), take Python work out of the step "
    "(torch.compile, CUDA graphs), and pin each rank's process to the CPU cores and NUMA node of its GPU"])
sys.exit(fail)
PY
