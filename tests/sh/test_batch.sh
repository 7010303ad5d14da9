#!/bin/bash
# scaleaudit batch over the sample trials and two broken ones (a run with no
# usable file, a trace whose gzip is cut short): a database row for each,
# the good ones' analysis.json byte for byte what report writes, the broken
# ones with their reason; a second run skips all; a batch killed after its
# first trial and run again ends with the same database; --one on two halves
# then --merge gives the rows of a single run. The database is read with
# python3's sqlite3 module. report's analysis.json of each sample is the one
# the other scripts share (tests/report_cache.sh).
set -u
. tests/skip.sh
. tests/report_cache.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
ntrials=$(ls -d samples/trials/*/ | wc -l)
total=$((ntrials + 2))

# The broken trials.
mkdir -p "$tmp/broken/empty-run/1gpu" "$tmp/broken/empty-run/2gpu" "$tmp/broken/cut-gzip/1gpu"
printf '[trial]\ntitle = nothing usable\n' > "$tmp/broken/empty-run/trial.ini"
echo 'hello' > "$tmp/broken/empty-run/1gpu/notes.txt"
echo 'hello' > "$tmp/broken/empty-run/2gpu/notes.txt"
printf '[trial]\ntitle = cut gzip\n' > "$tmp/broken/cut-gzip/trial.ini"
head -c 3000 samples/trials/ddp-scales-well/1gpu/rank0.pt.trace.json.gz > "$tmp/broken/cut-gzip/1gpu/rank0.pt.trace.json.gz"

. tests/check.sh

# Every table's rows, sorted, analysed_at left out (it is when the trial ran).
rows() {
	python3 - "$1" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for t in ("trials", "runs", "gpus", "confounds", "findings"):
    cols = [c[1] for c in db.execute(f"PRAGMA table_info({t})") if c[1] != "analysed_at"]
    for r in sorted(db.execute(f"SELECT {','.join(cols)} FROM {t}"), key=repr):
        print(t, repr(r))
EOF
}

# 1. The whole batch.
"$SCALEAUDIT" batch samples/trials "$tmp/broken" -o "$tmp/out" -j2 > "$tmp/stdout" 2> "$tmp/stderr"
check "first run: status" 3 $?
check "first run: stdout" "$total trials: $total analysed, 0 skipped (unchanged), 2 failed
$tmp/out/index.html" "$(cat "$tmp/stdout")"
check "first run: stderr" "" "$(cat "$tmp/stderr")"
check "trials rows" "$total" "$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from trials').fetchone()[0])" "$tmp/out/results.sqlite")"
check "ok rows" "$ntrials" "$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select count(*) from trials where status='ok' and error is null\").fetchone()[0])" "$tmp/out/results.sqlite")"
nruns=$(ls -d samples/trials/*/*/ | wc -l)
check "runs rows" "$nruns" "$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from runs').fetchone()[0])" "$tmp/out/results.sqlite")"
check "broken rows" "broken--cut-gzip|error|$tmp/broken/cut-gzip: no run has steps or a status to analyse (see 'scaleaudit inspect $tmp/broken/cut-gzip'); $tmp/broken/cut-gzip/1gpu/rank0.pt.trace.json.gz: byte 27544: compressed data ends early: the file is cut short
broken--empty-run|error|$tmp/broken/empty-run: no run has steps or a status to analyse (see 'scaleaudit inspect $tmp/broken/empty-run')" \
	"$(python3 -c "import sqlite3,sys
for r in sqlite3.connect(sys.argv[1]).execute(\"select id,status,error from trials where status='error' order by id\"): print('|'.join(r))" "$tmp/out/results.sqlite")"
check "a failed trial keeps only its record and log" "batch.json batch.log" "$(ls "$tmp/out/broken--empty-run" | tr '\n' ' ' | sed 's/ $//')"
check "summary.csv lines" "$((total + 1))" "$(python3 -c "import csv,sys; print(len(list(csv.reader(open(sys.argv[1])))))" "$tmp/out/summary.csv")"
check "summary.json trials" "$total" "$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['trials']))" "$tmp/out/summary.json")"
check "index.html links" "$ntrials" "$(grep -o 'href="[^"]*/report.html"' "$tmp/out/index.html" | wc -l)"
for t in samples/trials/*/; do
	name=$(basename "$t")
	cmp -s "$(report_of "$t")/analysis.json" "$tmp/out/trials--$name/analysis.json" ||
		{ echo "$name: analysis.json differs from report's"; fail=1; }
done
[ -z "$(git status --porcelain samples)" ] || { echo "batch wrote into samples/"; fail=1; }
ls -d "$tmp/out"/*.tmp-* "$tmp/out"/*.old-* > /dev/null 2>&1 && { echo "temporary folders left"; fail=1; }

# 2. Nothing changed: everything is skipped, the database is the same.
rows "$tmp/out/results.sqlite" > "$tmp/rows1"
"$SCALEAUDIT" batch samples/trials "$tmp/broken" -o "$tmp/out" -j2 > "$tmp/stdout" 2>&1
check "second run: status" 3 $?
check "second run: stdout" "$total trials: 0 analysed, $total skipped (unchanged), 2 failed
$tmp/out/index.html" "$(cat "$tmp/stdout")"
rows "$tmp/out/results.sqlite" | cmp -s - "$tmp/rows1" || { echo "second run changed the database"; fail=1; }

# 3. Killed after its first trial, then run again: the same rows.
setsid "$SCALEAUDIT" batch samples/trials "$tmp/broken" -o "$tmp/killed" -j1 > /dev/null 2>&1 &
pid=$!
for _ in $(seq 2400); do
	ls "$tmp"/killed/*/batch.json > /dev/null 2>&1 && break
	sleep 0.05
done
kill -KILL -- "-$pid" 2> /dev/null
wait "$pid" 2> /dev/null
done1=$(ls "$tmp"/killed/*/batch.json 2> /dev/null | wc -l)
[ "$done1" -ge 1 ] && [ "$done1" -lt "$total" ] || { echo "killed batch: $done1 trials done, not between 1 and $((total - 1))"; fail=1; }
"$SCALEAUDIT" batch samples/trials "$tmp/broken" -o "$tmp/killed" -j2 > "$tmp/stdout" 2>&1
check "restarted: status" 3 $?
check "restarted: skipped" "$done1" "$(sed -n 's/.* \([0-9]*\) skipped.*/\1/p' "$tmp/stdout")"
rows "$tmp/killed/results.sqlite" | cmp -s - "$tmp/rows1" || { echo "restarted batch: database differs"; fail=1; }
ls -d "$tmp/killed"/*.tmp-* "$tmp/killed"/*.old-* > /dev/null 2>&1 && { echo "restarted batch: temporary folders left"; fail=1; }

# 4. Two halves with --one, then --merge: the rows of one run.
"$SCALEAUDIT" batch --list samples/trials "$tmp/broken" > "$tmp/list"
check "--list lines" "$total" "$(wc -l < "$tmp/list")"
check "--list first line" "trials--clock-offset	samples/trials/clock-offset" "$(head -1 "$tmp/list")"
half=$((total / 2)) i=0
while IFS=$'\t' read -r id _; do
	i=$((i + 1)) part=h1
	[ "$i" -gt "$half" ] && part=h2
	"$SCALEAUDIT" batch --one "$id" samples/trials "$tmp/broken" -o "$tmp/$part" > /dev/null 2>&1
done < "$tmp/list"
"$SCALEAUDIT" batch --merge "$tmp/h1" "$tmp/h2" -o "$tmp/merged" > /dev/null 2>&1
check "--merge: status" 3 $?
rows "$tmp/merged/results.sqlite" | cmp -s - "$tmp/rows1" || { echo "--merge differs from a single run"; fail=1; }
cmp -s "$tmp/merged/summary.csv" "$tmp/out/summary.csv" ||
	[ "$(cut -d, -f1-19 "$tmp/merged/summary.csv")" = "$(cut -d, -f1-19 "$tmp/out/summary.csv")" ] ||
	{ echo "--merge: summary.csv differs"; fail=1; }

# 5. Usage and nothing found.
"$SCALEAUDIT" batch samples/trials > /dev/null 2> "$tmp/err"
check "no -o: status" 2 $?
check "no -o: message" "scaleaudit batch: no output directory: give -o DIR" "$(head -1 "$tmp/err")"
"$SCALEAUDIT" batch "$tmp/nosuch" -o "$tmp/x" > /dev/null 2> "$tmp/err"
check "nothing found: status" 1 $?
check "nothing found: message" "$tmp/nosuch: no such file or directory
scaleaudit: no trial found under $tmp/nosuch" "$(cat "$tmp/err")"
"$SCALEAUDIT" batch --one nosuch samples/trials -o "$tmp/x" > /dev/null 2> "$tmp/err"
check "--one unknown: status" 1 $?
check "--one unknown: message" "scaleaudit: no trial nosuch under the paths given (see 'scaleaudit batch --list')" "$(cat "$tmp/err")"
exit $fail
