#!/bin/bash
# What a reviewer reads beside analysis.json, on the samples: chart 07's
# caption names the step it draws (not "the median steady step of each GPU"
# while the subtitle says "step 5 of 2gpu") and its hatch; chart 05 does not
# call the unused NVLink "the link's nominal ceiling" nor blame message size;
# chart 10 says its GPU-hours are used, not rented as in the note above it;
# the decision names a confound in words (GPU model, not gpu_model); a chart
# left out names what supplies it.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
. tests/report_cache.sh
need_tool pdftotext
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/review.sh

for t in pipeline-bubble nccl-over-sockets gpu-model-mismatch ddp-2-vs-4; do report $t; done

# 07: the step shown is one step number per run, as the subtitle says
cap07="One steady step of each run, lane by lane: the same step number on every GPU of the run, the one whose slowest GPU is nearest the run's median step."
hatch="Hatched: time a GPU waited inside a collective for a slower peer (a pipeline bubble or a straggler), not time spent moving data."
has "$tmp/pipeline-bubble/summary.md" "$cap07"
has "$tmp/pipeline-bubble/summary.md" "$hatch"
has "$tmp/nccl-over-sockets/summary.md" "$cap07"
hasnt "$tmp/nccl-over-sockets/summary.md" "$hatch"
for t in pipeline-bubble nccl-over-sockets ddp-2-vs-4; do hasnt "$tmp/$t/summary.md" "The median steady step of each GPU"; done

# 05: the dashed line on nccl-over-sockets is the NVLink NCCL did not use
unused="the dashed line is the nominal bandwidth of the GPUs' own link, which NCCL did not use: the distance to it comes from the transport NCCL chose, not from the message size."
has "$tmp/nccl-over-sockets/summary.md" "$unused"
hasnt "$tmp/nccl-over-sockets/summary.md" "small messages never reach it"
has "$tmp/pipeline-bubble/summary.md" "against the link's nominal ceiling (dashed); the messages are large, so the distance to it does not come from their size."

# 10: 1.27 GPU-hours used per M samples beside a note of 2.55 rented
pdftotext -q "$tmp/nccl-over-sockets/charts/10-options.pdf" - | tr '\n' ' ' | tr -s ' ' > "$tmp/10.txt"
has "$tmp/10.txt" "GPU-hours used by the runs, while the note counts GPU-hours rented, in lots of 2 GPUs: the 1-GPU option leaves 1 of a lot idle"
has "$tmp/10.txt" "GPU-hours used per M samples"
has "$tmp/10.txt" "2.55 GPU-hours per million samples"
pdftotext -q "$tmp/ddp-2-vs-4/charts/10-options.pdf" - | tr '\n' ' ' > "$tmp/10b.txt"
hasnt "$tmp/10b.txt" "GPU-hours used"

# the decision in words, and the charts left out with what supplies them
"$SCALEAUDIT" analyze samples/trials/gpu-model-mismatch > "$tmp/g.txt" 2>&1
has "$tmp/g.txt" "Decision: Rent nothing yet: the runs differ in GPU model, which makes their throughputs incomparable"
has "$tmp/gpu-model-mismatch/summary.md" "- 10-options: no options chart: the runs differ in GPU model (H100 SXM against B200), a blocking confound that makes the runs' throughputs incomparable; a trial without that difference supplies them"
has "$tmp/gpu-model-mismatch/summary.md" "- 09-replay: no replay: the trial has no replay.json of its kernels re-run on a GPU (write one with scaleaudit replay TRIAL -o TRIAL/replay.json on a machine with the GPU)"

# 08: the runs' profiled steps are overlaid from 0 s, and the subtitle says so
pdftotext -q "$tmp/gpu-model-mismatch/charts/08-monitor.pdf" - | tr '\n' ' ' | tr -s ' ' > "$tmp/08.txt"
has "$tmp/08.txt" "shaded: the runs' profiled steps, overlaid from 0 s (the longest shows)"
echo ok
