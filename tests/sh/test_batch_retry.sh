#!/bin/bash
# A batch run again retries a failure that was not the trial's fault, and
# only that one: each failure's kind is recorded in batch.json (`failure`,
# with the limits it ran under) and in results.sqlite's trials.failure.
# 1. A trial whose report cannot be written (a file-size limit, as a full
#    disk would: the worker dies of SIGXFSZ) is kind io; run again without
#    the limit, it is analysed again though unchanged, and succeeds.
# 2. A trial with nothing usable is kind input: run again it is skipped;
#    with other limits (--timeout 500) it is analysed again; then skipped
#    again; --retry-failed analyses it (and not the successful trial).
# 3. A trial stopped at --timeout 1 (a 2.5 GiB log, as test_batch_limits.sh)
#    is kind timeout and is analysed again by the same command.
# The counts of the last line stay true each time. The log is written with python3.
set -u
. tests/skip.sh
. tests/trials.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
. tests/check.sh
field() {	# field FILE KEY: a key of a batch.json
	python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"
}
column() {	# column DB ID: trials.failure of ID
	python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select failure from trials where id=?', (sys.argv[2],)).fetchone()[0])" "$1" "$2"
}
mkdir -p "$tmp/a" "$tmp/b/empty-run/1gpu" "$tmp/b/empty-run/2gpu"
cp -r samples/trials/ddp-scales-well "$tmp/a/good"
cp -r samples/trials/ddp-scales-well "$tmp/b/good"
printf '[trial]\ntitle = nothing usable\n' > "$tmp/b/empty-run/trial.ini"
echo hello > "$tmp/b/empty-run/1gpu/notes.txt"
echo hello > "$tmp/b/empty-run/2gpu/notes.txt"

# 1. 800 KiB a file: batch's own files fit (index.html is about 230 KB), report.html
# (1.6 MB) does not
(ulimit -f 800; "$SCALEAUDIT" batch -j1 "$tmp/a" -o "$tmp/out-a" > "$tmp/stdout" 2> "$tmp/stderr")
check "io: status" 3 $?
check "io: stdout" "1 trial: 1 analysed, 0 skipped (unchanged), 1 failed" "$(head -1 "$tmp/stdout")"
check "io: error" "killed by signal 25 (File size limit exceeded)" "$(field "$tmp/out-a/a--good/batch.json" error)"
check "io: failure" io "$(field "$tmp/out-a/a--good/batch.json" failure)"
check "io: column" io "$(column "$tmp/out-a/results.sqlite" a--good)"
check "io: limits" "600 16384" "$(field "$tmp/out-a/a--good/batch.json" timeout_s) $(field "$tmp/out-a/a--good/batch.json" memory_limit_mib)"
"$SCALEAUDIT" batch -j1 "$tmp/a" -o "$tmp/out-a" > "$tmp/stdout" 2> "$tmp/stderr"
check "io, again: status" 0 $?
check "io, again: stdout" "1 trial: 1 analysed, 0 skipped (unchanged), 0 failed" "$(head -1 "$tmp/stdout")"
check "io, again: status in the record" "ok None" "$(field "$tmp/out-a/a--good/batch.json" status) $(field "$tmp/out-a/a--good/batch.json" failure)"
check "io, again: column" None "$(column "$tmp/out-a/results.sqlite" a--good)"

# 2. The trial's own failure.
run_b() {	# run_b WHAT EXPECTED-LINE ARGS...
	local what=$1 want=$2; shift 2
	"$SCALEAUDIT" batch -j1 "$tmp/b" -o "$tmp/out-b" "$@" > "$tmp/stdout" 2> "$tmp/stderr"
	check "$what: status" 3 $?
	check "$what: stdout" "$want" "$(head -1 "$tmp/stdout")"
}
run_b "input" "2 trials: 2 analysed, 0 skipped (unchanged), 1 failed"
check "input: failure" input "$(field "$tmp/out-b/b--empty-run/batch.json" failure)"
check "input: column" input "$(column "$tmp/out-b/results.sqlite" b--empty-run)"
run_b "input, again" "2 trials: 0 analysed, 2 skipped (unchanged), 1 failed"
run_b "input, other limits" "2 trials: 1 analysed, 1 skipped (unchanged), 1 failed" --timeout 500
check "input, other limits: recorded" 500 "$(field "$tmp/out-b/b--empty-run/batch.json" timeout_s)"
run_b "input, same limits" "2 trials: 0 analysed, 2 skipped (unchanged), 1 failed" --timeout 500
run_b "--retry-failed" "2 trials: 1 analysed, 1 skipped (unchanged), 1 failed" --timeout 500 --retry-failed
check "--retry-failed: still input" input "$(field "$tmp/out-b/b--empty-run/batch.json" failure)"

# 3. A limit: retried by the same command.
slow_trial "$tmp/c/slow"
for what in timeout "timeout, again"; do
	"$SCALEAUDIT" batch "$tmp/c" -o "$tmp/out-c" --timeout 1 > "$tmp/stdout" 2> "$tmp/stderr"
	check "$what: status" 3 $?
	check "$what: stdout" "1 trial: 1 analysed, 0 skipped (unchanged), 1 failed" "$(head -1 "$tmp/stdout")"
	check "$what: failure" timeout "$(field "$tmp/out-c/c--slow/batch.json" failure)"
done
exit $fail
