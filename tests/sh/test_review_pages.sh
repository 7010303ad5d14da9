#!/bin/bash
# A second reviewer's pass over every page of nccl-over-sockets,
# gpu-model-mismatch, ddp-scales-well and page 1 of ddp-2-vs-4, read beside
# analysis.json: what a page said that the analysis does not.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
. tests/report_cache.sh
need_tool python3
need_tool pdftotext
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/review.sh

for t in nccl-over-sockets gpu-model-mismatch; do report $t; done
"$SCALEAUDIT" analyze samples/trials/nccl-over-sockets > "$tmp/nccl.txt" 2>&1

# A share above zero that rounds to 0.0 (2gpu's foreign_share is 0.000165):
# "under 0.1%", never "0.0%", in readiness and the finding alike.
for f in "$tmp/nccl.txt" "$tmp/nccl-over-sockets/summary.md"; do
	has "$f" "2gpu: not tuned for this GPU: under 0.1% of GPU kernel time ran in kernels built for another generation"
	has "$f" ", under 0.1%)"
	has "$f" "1gpu: not tuned for this GPU: 0.2% of GPU kernel time"
	hasnt "$f" "0.0%"
done
has "$tmp/nccl.txt" "note: run '2gpu' on B200 (sm_100): under 0.1% of its GPU kernel time ran in 1 kernel built for another GPU generation"

# 03 on gpu-model-mismatch: the ideal bar is the baseline's mean step (159.5
# ms, ideal_s) where every other page quotes the median (159.6 ms), and the
# tallest bar is compute's -78.8 ms, saved by a faster GPU, not a cost to fix.
g=$tmp/gpu-model-mismatch/summary.md
has "$g" "Each middle bar is the extra GPU time one category took; a bar that points down is GPU time the candidate saved, not lost; the tallest one that points up is what to fix first."
has "$tmp/nccl-over-sockets/summary.md" "Each middle bar is the extra GPU time one category took; the tallest one is what to fix first."
pdftotext -q "$tmp/gpu-model-mismatch/charts/03-waterfall.pdf" - | tr '\n' ' ' > "$tmp/g03.txt"
has "$tmp/g03.txt" "ideal = the baseline's mean step; actual = 2 GPUs x the candidate's mean step"
has "$tmp/g03.txt" "159.5 ms"
has "$tmp/g03.txt" "-78.8 ms"

# 13 on gpu-model-mismatch: GPU 0 of 2gpu waits 0.118 ms of its 42.3 ms step
# (peer_wait_share 0.0028): "0.3%", not "0%"; GPU 1 does not wait at all.
pdftotext -q "$tmp/gpu-model-mismatch/charts/13-waiting.pdf" - | tr '\n' ' ' | tr -s ' ' > "$tmp/g13.txt"
has "$tmp/g13.txt" "the most waiting: 2gpu GPU 0, 0.3% of its step (dashed: 25%)"
has "$tmp/g13.txt" "waits 0.3%"
has "$tmp/g13.txt" "waits 0%"

# A blocking confound that is no difference between the runs (too few steps,
# an unknown GPU count): the options chart left out gives the confound's own
# message, and page 1's chart does not say "the runs differ in steady steps".
# ddp-scales-well's analysis.json with such a confound, drawn again from it.
report ddp-scales-well
steps="run '2gpu' has 1 steady step of 3 profiled (1 warm-up, 1 trailing); a step time needs 3 on each side: profile 7 or more active steps (torch.profiler.schedule(wait=1, warmup=1, active=7))"
gpus="the trial needs two runs with different GPU counts to compare: the GPU count of 2gpu is unknown (no trace or log says it); set gpus = N in 2gpu/run.ini"
block() {	# block NAME WHAT BASELINE CANDIDATE MESSAGE
	python3 - "$tmp/ddp-scales-well/analysis.json" "$tmp/$1.json" "$2" "$3" "$4" "$5" <<'PY' || fail "$1: could not edit analysis.json"
import json, sys
src, dst, what, b, c, msg = sys.argv[1:]
a = json.load(open(src))
cmp = a["comparison"]
cmp["confounds"] = [{"what": what, "baseline": b or None, "candidate": c or None,
                     "severity": "blocking", "why": msg, "message": msg}]
cmp["verdict"] = "inconclusive"
cmp["options"] = []
cmp["decision"].update({"rent": None, "run": None, "samples_per_s": None,
                        "gpu_hours_per_million_samples": None, "alternatives": [], "why": msg})
json.dump(a, open(dst, "w"))
PY
	SOURCE_DATE_EPOCH=0 "$SCALEAUDIT" report -o "$tmp/$1" "$tmp/$1.json" > "$tmp/$1.log" 2>&1 ||
		fail "$1: report failed: $(tail -3 "$tmp/$1.log")"
}
block steps steps 7 1 "$steps"
has "$tmp/steps/summary.md" "- 10-options: no options chart: a blocking confound stands: $steps"
hasnt "$tmp/steps/summary.md" "the runs differ in steady steps"
pdftotext -q "$tmp/steps/charts/00-throughput.pdf" - | tr '\n' ' ' > "$tmp/steps00.txt"
has "$tmp/steps00.txt" "not comparable: too few steady steps"
hasnt "$tmp/steps00.txt" "differ"
block gpus gpus "" "" "$gpus"
has "$tmp/gpus/summary.md" "- 10-options: no options chart: a blocking confound stands: $gpus"
hasnt "$tmp/gpus/summary.md" "GPU count stands"
echo ok
