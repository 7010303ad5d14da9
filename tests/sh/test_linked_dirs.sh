#!/bin/bash
# A run directory kept elsewhere and linked into the trial is read as if it
# were there, under the link's name; a link back into a directory it is in
# is a link-loop warning, not a hang; batch finds a trial reached through a
# linked folder.
set -u
. tests/skip.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
. tests/check.sh
src=samples/trials/ddp-scales-well

mkdir -p "$tmp/store" "$tmp/trial"
cp -r "$src/1gpu" "$src/trial.ini" "$tmp/trial/"
cp -r "$src/2gpu" "$tmp/store/run-2gpu"
ln -s ../store/run-2gpu "$tmp/trial/2gpu"
ln -s .. "$tmp/trial/1gpu/up"

"$SCALEAUDIT" analyze "$tmp/trial" > "$tmp/linked.txt" 2>&1
check "linked: status" 0 $?
"$SCALEAUDIT" analyze "$src" > "$tmp/plain.txt" 2>&1
check "linked: same verdict" "$(grep '^Verdict:' "$tmp/plain.txt")" "$(grep '^Verdict:' "$tmp/linked.txt")"
check "linked: 2gpu compared" "2gpu against 1gpu: speedup 1.73x, scaling efficiency 86%, throughput ratio 1.73x" \
	"$(grep '^2gpu against 1gpu' "$tmp/linked.txt")"
check "loop named" "  $tmp/trial/1gpu/up: warning: a symbolic link back into a directory it is in: not followed" \
	"$(grep 'symbolic link' "$tmp/linked.txt")"
"$SCALEAUDIT" analyze --json "$tmp/trial" > "$tmp/linked.json" 2>/dev/null
check "runs in JSON" "1gpu 2gpu" "$(python3 -c 'import json,sys; print(" ".join(r["name"] for r in json.load(open(sys.argv[1]))["runs"]))' "$tmp/linked.json")"

# A link to the trial itself from inside: one warning, the walk ends.
ln -s "$tmp/trial" "$tmp/trial/2gpu/loop"
timeout 60 "$SCALEAUDIT" analyze "$tmp/trial" > "$tmp/loop.txt" 2>&1
check "loop: status" 0 $?
check "loop: warnings" 2 "$(grep -c 'a symbolic link back into a directory it is in' "$tmp/loop.txt")"
rm "$tmp/trial/2gpu/loop"

# batch: a trial reached through a linked folder.
mkdir -p "$tmp/trials"
ln -s ../trial "$tmp/trials/linked"
check "batch --list" "trials--linked	$tmp/trials/linked" "$("$SCALEAUDIT" batch --list "$tmp/trials" 2> "$tmp/stderr")"
check "batch --list: the loop" "$tmp/trials/linked/1gpu/up: warning: a symbolic link back into a directory it is in: not followed" \
	"$(cat "$tmp/stderr")"
exit $fail
