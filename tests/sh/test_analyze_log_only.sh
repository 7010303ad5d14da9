#!/bin/bash
# Trials without traces: step time, throughput and memory come from the training logs
# (docs/analysis.md, "Runs without traces"). Known answers, computed by hand from the log lines:
# - log-only (plain "step N ... step_time X" lines): 1 GPU takes 0.400 s per step after a
#   0.900 s warm-up step, 2 GPUs 0.220 s after 0.920 s.
# - megatron-log-only: "elapsed time per iteration (ms)" of iterations 1-6; iteration 1 is
#   warm-up (2150 > 1.15 x 805, the median of the second half), so 1 GPU's median is that of
#   820 810 800 805 815 = 810 ms and 2 GPUs' that of 450 440 445 455 440 = 445 ms; global batch
#   8, seq_length 2048; peak memory = "max reserved" MB (MiB) of rank 0: 16022.0 and 9050.0.
# - hf-log-only: HF Trainer logs with no per-step time: step time = train_runtime / "Total
#   optimization steps" = 250.0 / 125 = 2.0 s and 140.0 / 125 = 1.12 s; samples/s as the
#   trainer printed them (8.0, 14.286).
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for t in log-only megatron-log-only hf-log-only; do
  "$SCALEAUDIT" analyze --json "tests/data/trials/$t" > "$tmp/$t.json" 2>/dev/null ||
    { echo "analyze $t failed"; exit 1; }
done
python3 - "$tmp" <<'PY'
import json, sys
def load(t):
    return json.load(open(f"{sys.argv[1]}/{t}.json"))
def codes(a, code):
    return [f["message"] for f in a["findings"] if f["code"] == code]
a = load("log-only")
r1, r2 = a["runs"]
c = a["comparison"]
checks = [
    (r1["name"], "1gpu"), (r2["gpus"], 2),
    (r1["steps"], {"total": 10, "warmup": 1, "measured": 9, "trailing": 0}),
    (r1["step_time_s"]["median"], 0.4), (r2["step_time_s"]["median"], 0.22),
    (r1["step_time_s"]["source"], "log-iterations"),
    (round(c["speedup"], 6), round(0.4 / 0.22, 6)),
    (round(c["scaling_efficiency"], 6), round(0.4 / 0.44, 6)),
    (c["verdict"], "confirmed"), (r2["examples_processed"], 64 * 9),
    (r1["per_gpu"][0]["step_s"]["compute"], None),
    (len(codes(a, "log-timing")), 2), (codes(a, "log-summary-timing"), []),
]
m = load("megatron-log-only")
m1, m2 = m["runs"]
mc = m["comparison"]
MiB = 1048576
checks += [
    ((m1["gpus"], m2["gpus"]), (1, 2)),		# "using world size: N"
    (m1["steps"], {"total": 6, "warmup": 1, "measured": 5, "trailing": 0}),
    ((m1["step_time_s"]["median"], m2["step_time_s"]["median"]), (0.81, 0.445)),
    (round(mc["speedup"], 9), round(0.81 / 0.445, 9)),
    (round(m2["throughput"]["samples_per_s"], 6), round(8 / 0.445, 6)),
    (round(m2["throughput"]["tokens_per_s"], 3), round(8 / 0.445 * 2048, 3)),	# seq_length 2048
    (m1["per_gpu"][0]["peak_memory_bytes"], 16022 * MiB),
    (m1["per_gpu"][0]["peak_memory_source"], "log"),
    (m2["per_gpu"][0]["peak_memory_bytes"], 9050 * MiB),
    (mc["verdict"], "confirmed"),
    (codes(m, "log-timing")[0],
     "run '1gpu': step time (810.0 ms) and throughput come from the training log's per-iteration "
     "lines (5 steady of 6, 1 warm-up), as good as the job's own timer; no trace, so where the "
     "time went is unknown; peak memory is the log's largest reserved figure (16.8 GB)"),
]
h = load("hf-log-only")
h1, h2 = h["runs"]
hc = h["comparison"]
checks += [
    ((h1["step_time_s"]["median"], h2["step_time_s"]["median"]), (2.0, 1.12)),
    ((h1["step_time_s"]["source"], h2["step_time_s"]["source"]), ("log-summary", "log-summary")),
    ((h1["step_time_s"]["p10"], h1["step_time_s"]["p90"]), (None, None)),
    ((h1["throughput"]["samples_per_s"], h2["throughput"]["samples_per_s"]), (8.0, 14.286)),
    (h1["steps"], {"total": 125, "warmup": 0, "measured": 125, "trailing": 0}),
    (h2["examples_processed"], 16 * 125),
    (round(hc["speedup"], 9), round(2.0 / 1.12, 9)),
    (round(hc["scaling_efficiency"], 9), round(2.0 / (2 * 1.12), 9)),
    (hc["verdict"], "confirmed"),
    (len(codes(h, "log-summary-timing")), 2), (codes(h, "log-timing"), []),
]
bad = [f"got {g!r}, want {w!r}" for g, w in checks if g != w]
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
