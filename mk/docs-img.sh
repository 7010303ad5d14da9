#!/bin/sh
# Draws the pictures of docs/report.md from the bundled sample trials:
# each chart from the sample that shows it best, and page 1 of one report.
# Usage: mk/docs-img.sh ./scaleaudit   (run by `make docs-img`; needs pdftoppm)
set -eu
bin=$1
out=docs/img
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000
mkdir -p "$out"
# chart id, then the sample trial it is shown from
while read -r id trial; do
	[ -d "$tmp/$trial" ] || "$bin" report "samples/trials/$trial" -o "$tmp/$trial" >/dev/null
	cp "$tmp/$trial/charts/$id.png" "$out/$id.png"
done <<LIST
01-step-time ddp-precision-changed
02-breakdown pipeline-bubble
03-waterfall ddp-global-batch-changed
04-memory pipeline-oom-feasibility
05-communication ddp-scales-well
06-top-kernels ddp-scales-well
07-timeline clock-offset
08-monitor ddp-scales-well
10-options expected-speedup-missed
11-sweep hparam-sweep-independent
12-precision ddp-precision-changed
13-waiting pipeline-bubble
14-roofline ddp-scales-well
15-diff nccl-over-sockets
LIST
# chart 09 needs a replay.json: the made-up one of tests/data/replay beside a copy of the trial
cp -r samples/trials/ddp-scales-well "$tmp/replayed"
cp tests/data/replay/ddp-scales-well-h200.json "$tmp/replayed/replay.json"
"$bin" report "$tmp/replayed" -o "$tmp/replayed-report" >/dev/null
cp "$tmp/replayed-report/charts/09-replay.png" "$out/09-replay.png"
"$bin" report samples/trials/nccl-over-sockets -o "$tmp/page1" >/dev/null
pdftoppm -png -r 80 -f 1 -l 1 -singlefile "$tmp/page1/report.pdf" "$out/page1"
