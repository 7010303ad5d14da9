#!/bin/bash
# batch -o DIR removes and replaces only what batch wrote. A killed batch's
# staging folders (DIR/<id>.tmp-PID, .old-PID of a dead PID, holding the
# .scaleaudit-batch mark) go; the user's files and folders whose names only
# look like staging stay, and a folder of the user's where a trial's output
# would go is left alone with a message naming it. A results.sqlite that is
# a link to another program's database is refused, that database untouched.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
. tests/check.sh

mkdir -p "$tmp/trials"
cp -r samples/trials/ddp-scales-well "$tmp/trials/one"
id=$("$SCALEAUDIT" batch --list "$tmp/trials" | cut -f1)
check "trial id" "trials--one" "$id"
sh -c 'exit 0' & dead=$!; wait $dead	# a pid that no longer runs

out="$tmp/out"
mkdir -p "$out/thesis.old-2023" "$out/plain.tmp-$dead" "$out/stale.tmp-$dead" "$out/stale.old-$dead"
echo keep > "$out/thesis.old-2023/chapter1.txt"
echo keep > "$out/notes.tmp-$dead.txt"
echo keep > "$out/plain.tmp-$dead/data.csv"
echo 'written by scaleaudit batch' > "$out/stale.tmp-$dead/.scaleaudit-batch"
echo 'written by scaleaudit batch' > "$out/stale.old-$dead/.scaleaudit-batch"

"$SCALEAUDIT" batch "$tmp/trials" -o "$out" > "$tmp/stdout" 2> "$tmp/stderr"
check "first run: status" 0 $?
check "user folder kept" keep "$(cat "$out/thesis.old-2023/chapter1.txt" 2>&1)"
check "user file kept" keep "$(cat "$out/notes.tmp-$dead.txt" 2>&1)"
check "unmarked folder kept" keep "$(cat "$out/plain.tmp-$dead/data.csv" 2>&1)"
[ -e "$out/stale.tmp-$dead" ] && { echo "stale staging folder not removed"; fail=1; }
[ -e "$out/stale.old-$dead" ] && { echo "stale old folder not removed"; fail=1; }
[ -f "$out/$id/.scaleaudit-batch" ] || { echo "output folder without its mark"; fail=1; }
[ -f "$out/$id/analysis.json" ] || { echo "no analysis.json"; fail=1; }

# Run again with --force: batch's own output is replaced.
"$SCALEAUDIT" batch --force "$tmp/trials" -o "$out" > /dev/null 2>&1
check "forced run: status" 0 $?
[ -f "$out/$id/analysis.json" ] || { echo "forced run: no analysis.json"; fail=1; }
check "forced run: what is left" "index.html index.md notes.tmp-$dead.txt plain.tmp-$dead results.sqlite summary.csv summary.json thesis.old-2023 $id" \
	"$(ls "$out" | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')"


# A folder of the user's in the output's place is left alone, and said.
out2="$tmp/out2"
mkdir -p "$out2/$id"
echo mine > "$out2/$id/results.txt"
"$SCALEAUDIT" batch "$tmp/trials" -o "$out2" > "$tmp/stdout" 2> "$tmp/stderr"
check "user's folder: status" 3 $?
check "user's folder kept" mine "$(cat "$out2/$id/results.txt" 2>&1)"
check "user's folder: only its file" results.txt "$(ls -A "$out2/$id")"
check "user's folder: message" "scaleaudit: $out2/$id: exists and was not written by scaleaudit batch; left alone (move it, or choose another -o)" \
	"$(grep 'left alone' "$tmp/stderr")"
ls -d "$out2"/*.tmp-* "$out2"/*.old-* 2>/dev/null && { echo "user's folder: staging left"; fail=1; }

# Outputs inside the trial: -o the trial itself is refused; -o a folder inside it is never read
# as part of the trial, so a second batch finds the trial unchanged.
in="$tmp/trials/one"
"$SCALEAUDIT" batch "$in" -o "$in/" > "$tmp/stdout" 2> "$tmp/stderr"
check "-o the trial: status" 2 $?
check "-o the trial: message" "scaleaudit batch: -o $in/ is also a PATH to analyse: its summaries would change the trial's files on every run; give -o a directory of its own (one inside the PATH is fine)" \
	"$(head -1 "$tmp/stderr")"
"$SCALEAUDIT" batch "$in" -o "$in/results" > /dev/null 2>&1
check "-o inside the trial: status" 0 $?
"$SCALEAUDIT" batch "$in" -o "$in/results" > "$tmp/stdout" 2>&1
check "-o inside the trial: second run" "1 trial: 0 analysed, 1 skipped (unchanged), 0 failed" "$(head -1 "$tmp/stdout")"
"$SCALEAUDIT" analyze --json "$in" > "$tmp/in.json" 2>/dev/null
check "-o inside the trial: runs" "1gpu 2gpu" "$(python3 -c 'import json,sys; print(" ".join(r["name"] for r in json.load(open(sys.argv[1]))["runs"]))' "$tmp/in.json")"
rm -rf "$in/results"

# The database is never opened through a link.
out3="$tmp/out3"
mkdir -p "$out3"
printf 'another program' > "$tmp/other.db"
ln -s "$tmp/other.db" "$out3/results.sqlite"
"$SCALEAUDIT" batch "$tmp/trials" -o "$out3" > "$tmp/stdout" 2> "$tmp/stderr"
check "linked database: status" 1 $?
check "linked database: message" "$out3/results.sqlite: is a symbolic link: not followed (batch writes only a database of its own)" \
	"$(cat "$tmp/stderr")"
check "linked database: untouched" "another program" "$(cat "$tmp/other.db")"
exit $fail
