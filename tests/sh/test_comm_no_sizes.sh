#!/bin/bash
# Chart 05 on a trial whose traces hold collectives without message sizes:
# ddp-scales-well with Kineto's "In msg nelems" / "Out msg nelems" args
# taken out of the 2-GPU run's traces (those give a collective's bytes; its
# "Collective name" and "dtype" stay). analyze still lists the AllReduce,
# with no bytes. With its ProfilerSteps kept, report draws the overlap
# panel and says why there is no bandwidth panel; with the steps taken out
# too, it leaves the chart out naming the sizes and the steps as missing,
# and the capture options that give them, never "no collectives".
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }

# strip TRIAL STEPS: the sizes out of TRIAL/2gpu's traces, and the ProfilerSteps when STEPS is "nosteps"
strip() {
	for f in "$1"/2gpu/rank*.pt.trace.json.gz; do
		gzip -dc "$f" | python3 -c '
import json, sys
d = json.load(sys.stdin)
ev = []
for e in d["traceEvents"]:
    if sys.argv[1] == "nosteps" and str(e.get("name", "")).startswith("ProfilerStep"):
        continue
    for k in ("In msg nelems", "Out msg nelems"):
        e.get("args", {}).pop(k, None)
    ev.append(e)
d["traceEvents"] = ev
json.dump(d, sys.stdout)' "$2" | gzip > "$f.new" && mv "$f.new" "$f" || fail "cannot rewrite $f"
		if gzip -dc "$f" | grep -q 'msg nelems'; then fail "$f still has message sizes"; fi
	done
}

for shape in steps nosteps; do
	t=$tmp/$shape
	cp -r samples/trials/ddp-scales-well "$t"
	strip "$t" "$shape"
	"$SCALEAUDIT" analyze "$t" > "$tmp/$shape.txt" 2>&1 || fail "$shape: analyze failed: $(tail -3 "$tmp/$shape.txt")"
	grep -Eq '^  AllReduce +fp32 .* - MB/(step|span) ' "$tmp/$shape.txt" ||
		fail "$shape: analyze does not list the AllReduce without bytes: $(grep -i allreduce "$tmp/$shape.txt")"
	SOURCE_DATE_EPOCH=0 "$SCALEAUDIT" report -o "$tmp/$shape.r" "$t" > "$tmp/$shape.log" 2>&1 ||
		fail "$shape: report failed: $(tail -3 "$tmp/$shape.log")"
	grep -q 'no collectives' "$tmp/$shape.r/summary.md" && fail "$shape: summary.md says no collectives"
done

s=$tmp/steps.r/summary.md
[ -f "$tmp/steps.r/charts/05-communication.svg" ] || fail "steps: chart 05 left out"
grep -qF "How much of each GPU's communication runs with nothing else on the GPU (exposed) rather than hidden under compute. No bandwidth panel: the multi-GPU runs' traces hold collectives but no message sizes (profile with record_shapes=True, or add nccl-tests output)." "$s" ||
	fail "steps: chart 05's caption does not say why it has no bandwidth panel: $(grep -A2 '05-comm' "$s")"

s=$tmp/nosteps.r/summary.md
[ -f "$tmp/nosteps.r/charts/05-communication.svg" ] && fail "nosteps: chart 05 drawn without sizes or steps"
grep -qxF -- "- 05-communication: no communication chart: the multi-GPU runs' traces hold collectives but no message sizes (profile with record\_shapes=True, or add nccl-tests output) and no steady profiler step to split exposed from overlapped time (call prof.step() every step)" "$s" ||
	fail "nosteps: the reason is not the one expected: $(grep '05-comm' "$s")"
echo ok
