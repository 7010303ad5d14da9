#!/bin/bash
# SIGTERM to a batch parent with -j2 (three slow trials, each a 2.5 GiB log
# as in test_batch_limits.sh and stopped at --timeout 4, then one with
# nothing usable): the parent sends it on to its workers' process groups, waits for
# them, removes its staging, says it was interrupted and how many trials were
# done, and exits 143; no worker outlives it. Run again, the batch finishes
# with the rows of a batch never interrupted. The same for SIGINT (130).
# The log is written with python3; the database is read with its sqlite3.
set -u
. tests/skip.sh
. tests/trials.sh
need_tool python3
need_tool pgrep
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
. tests/check.sh
rows() {	# every table's rows, sorted, analysed_at left out
	python3 - "$1" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for t in ("trials", "runs", "gpus", "confounds", "findings"):
    cols = [c[1] for c in db.execute(f"PRAGMA table_info({t})") if c[1] != "analysed_at"]
    for r in sorted(db.execute(f"SELECT {','.join(cols)} FROM {t}"), key=repr):
        print(t, repr(r))
EOF
}
slow_trial "$tmp/in/a-slow"
cp -a "$tmp/in/a-slow" "$tmp/in/b-slow"
cp -a "$tmp/in/a-slow" "$tmp/in/c-slow"
# a trial that fails at once, whatever the machine's speed (a sample trial may
# itself take 4 s under the sanitizers)
mkdir -p "$tmp/in/d-empty/1gpu" "$tmp/in/d-empty/2gpu"
printf '[trial]\ntitle = nothing usable\n' > "$tmp/in/d-empty/trial.ini"
echo hello > "$tmp/in/d-empty/1gpu/notes.txt"
echo hello > "$tmp/in/d-empty/2gpu/notes.txt"

"$SCALEAUDIT" batch -j2 --timeout 4 "$tmp/in" -o "$tmp/whole" > /dev/null 2>&1
check "uninterrupted: status" 3 $?

# interrupt SIGNAL STATUS: a batch stopped one second in, with its workers running
interrupt() {
	local sig=$1 want=$2 out="$tmp/out-$1" rc workers left
	"$SCALEAUDIT" batch -j2 --timeout 4 "$tmp/in" -o "$out" > "$tmp/stdout" 2> "$tmp/stderr" &
	local pid=$!
	sleep 1
	workers=$(pgrep -P "$pid" | tr '\n' ' ')
	[ -n "$workers" ] || { echo "$sig: no worker running after 1 s"; fail=1; }
	kill -s "$sig" "$pid"
	wait "$pid"
	rc=$?
	check "$sig: status" "$want" "$rc"
	check "$sig: stderr" "scaleaudit: interrupted by signal $((want - 128)) ($(python3 -c "import signal,sys; print(signal.strsignal(int(sys.argv[1])))" $((want - 128)))): 0 of 4 trials done; the same command finishes the rest" "$(cat "$tmp/stderr")"
	check "$sig: stdout" "" "$(cat "$tmp/stdout")"
	left=
	for w in $workers; do kill -0 "$w" 2>/dev/null && left="$left $w"; done
	check "$sig: workers left running" "" "$left"
	check "$sig: staging left" "" "$(cd "$out" && ls -d *.tmp-* *.old-* 2>/dev/null)"
	"$SCALEAUDIT" batch -j2 --timeout 4 "$tmp/in" -o "$out" > "$tmp/stdout" 2> "$tmp/stderr"
	check "$sig, again: status" 3 $?
	check "$sig, again: stdout" "4 trials: 4 analysed, 0 skipped (unchanged), 4 failed" "$(head -1 "$tmp/stdout")"
	check "$sig, again: rows" "$(rows "$tmp/whole/results.sqlite")" "$(rows "$out/results.sqlite")"
}
interrupt TERM 143
interrupt INT 130
exit $fail
