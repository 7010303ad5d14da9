#!/bin/bash
# tests/gpu/run.sh keeps within its time budget: on the fake driver of
# tests/data (so no GPU is needed) with a budget already spent, every step is
# recorded as skipped, nothing runs past it, and the run says it did not pass.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

${CC:-cc} -shared -fPIC -o "$tmp/libcuda.so" tests/data/fake_libcuda.c || exit 1
SCALEAUDIT_LIBCUDA="$tmp/libcuda.so" SCALEAUDIT="$SCALEAUDIT" GPU_CHECK_SECONDS=2 \
	timeout 120 bash tests/gpu/run.sh "$tmp/out" > "$tmp/log" 2>&1
rc=$?
[ "$rc" -eq 1 ] || { echo "run.sh with no time left: exit $rc, expected 1"; cat "$tmp/log"; fail=1; }
n=$(ls samples/trials/*/*/*.pt.trace.json* | cut -d/ -f3 | sort -u | wc -l)	# trials with a trace
got=$(grep -c '^replay .* rc=skipped ([0-9]* s)$' "$tmp/out/summary.txt")
[ "$got" -eq "$n" ] || { echo "$got of $n sample replays recorded as skipped"; fail=1; }
grep -qx '== logs-only: no profiler trace, nothing to replay' "$tmp/out/replay.txt" ||
	{ echo "logs-only (no trace) is not said to have nothing to replay"; fail=1; }
! grep -q '^replay logs-only ' "$tmp/out/summary.txt" || { echo "a replay of logs-only was attempted"; fail=1; }
grep -q '^smoke rc=skipped ([0-9]* s)$' "$tmp/out/summary.txt" || { echo "smoke not skipped"; fail=1; }
[ ! -e "$tmp/out/smoke.json" ] || { echo "the smoke check ran with no time left"; fail=1; }
[ "$(ls "$tmp/out/replay" | grep -c '\.json$')" -eq 0 ] || { echo "a replay ran with no time left"; fail=1; }
exit $fail
