#!/bin/bash
# scaleaudit batch stops a trial past --timeout: a training log of 40 gzip
# members of 64 MiB each (2.5 GiB of log lines, 14 MB on disk) takes far
# more than a second to read, so its trial is recorded as failed, "ran past
# the 1 s limit", its folder holding only batch.json and batch.log, and the
# batch ends soon after. (That a failed trial costs only itself is shown by
# test_batch.sh; a normal trial may itself take a second on a loaded machine.)
# The log is written with python3.
set -u
. tests/skip.sh
. tests/trials.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
slow_trial "$tmp/in/slow"
start=$(date +%s)
"$SCALEAUDIT" batch "$tmp/in" -o "$tmp/out" --timeout 1 > "$tmp/stdout" 2> "$tmp/stderr"
rc=$? took=$(( $(date +%s) - start ))
[ $rc -eq 3 ] || { echo "status $rc, expected 3"; cat "$tmp/stderr"; fail=1; }
[ "$(head -1 "$tmp/stdout")" = "1 trial: 1 analysed, 0 skipped (unchanged), 1 failed" ] ||
	{ echo "stdout:"; cat "$tmp/stdout"; fail=1; }
grep -q '"error": "ran past the 1 s limit"' "$tmp/out/in--slow/batch.json" ||
	{ echo "no timeout in the record:"; cat "$tmp/out/in--slow/batch.json"; fail=1; }
[ "$(ls "$tmp/out/in--slow" | tr '\n' ' ')" = "batch.json batch.log " ] ||
	{ echo "the stopped trial left: $(ls "$tmp/out/in--slow")"; fail=1; }
# reading the whole log would take far longer
[ $took -lt 60 ] || { echo "the batch took $took s: the slow trial was not stopped at 1 s"; fail=1; }
exit $fail
