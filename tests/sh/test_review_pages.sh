#!/bin/bash
# A second reviewer's pass over every page of nccl-over-sockets,
# gpu-model-mismatch, ddp-scales-well and page 1 of ddp-2-vs-4, read beside
# analysis.json: what a page said that the analysis does not.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }
report() { SOURCE_DATE_EPOCH=0 "$SCALEAUDIT" report -o "$tmp/$1" "samples/trials/$1" > "$tmp/$1.log" 2>&1 ||
	fail "$1: report failed: $(tail -3 "$tmp/$1.log")"; }
has() { grep -qF -- "$2" "$1" || fail "$1: missing: $2"; }
hasnt() { ! grep -qF -- "$2" "$1" || fail "$1: still says: $2"; }

for t in nccl-over-sockets; do report $t; done
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
echo ok
