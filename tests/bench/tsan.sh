#!/bin/bash
# make tsan: the ThreadSanitizer check of the paths that may read ranks in
# parallel. Runs `analyze` and `report` of a ThreadSanitizer build (make tsan
# builds it into build/tsan) on:
#   - the benchmark's 2-rank and 8-rank trials at a small scale (BENCH_SCALE,
#     default 0.02: 2 x 2 MB and 8 x 5 MB per rank), plain and gzipped,
#     written once under build/bench by tests/bench/run.sh;
#   - every sample trial under samples/trials.
# Fails on any ThreadSanitizer report (the command's exit status 66, or a
# "ThreadSanitizer" line on stderr), whatever else the command exits with.
#
# usage: tests/bench/tsan.sh [SCALEAUDIT]
set -u
bin=$(realpath "${1:-build/tsan/scaleaudit}")
scale=${BENCH_SCALE:-0.02}
export TSAN_OPTIONS="exitcode=66 halt_on_error=0 second_deadlock_stack=1 suppressions=$PWD/tests/bench/tsan.supp${TSAN_OPTIONS:+ $TSAN_OPTIONS}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

BENCH_GENERATE_ONLY=1 BENCH_SCALE=$scale BENCH_SIZES="2x100 8x250" tests/bench/run.sh "$bin" ||
	{ echo "tsan: writing the bench trials failed"; exit 1; }
trials=()
for t in 2x100 8x250; do
	mb=$(awk -v m="${t#*x}" -v s="$scale" 'BEGIN { printf "%g", m * s }')
	trials+=("build/bench/trial-${t%x*}x${mb}MB/plain" "build/bench/trial-${t%x*}x${mb}MB/gz")
done
trials+=(samples/trials/*/)

fail=0 runs=0
for t in "${trials[@]}"; do
	t=${t%/}
	for cmd in analyze report; do
		args=("$cmd" "$t")
		[ "$cmd" = report ] && args+=(-o "$tmp/report")
		"$bin" "${args[@]}" > /dev/null 2> "$tmp/err"
		rc=$?
		runs=$((runs + 1))
		if [ $rc -eq 66 ] || grep -q ThreadSanitizer "$tmp/err"; then
			echo "tsan: FAIL: scaleaudit ${args[*]} (exit $rc):"
			cat "$tmp/err"
			fail=$((fail + 1))
		fi
		rm -rf "$tmp/report"
	done
done
echo "tsan: $runs runs, $fail with a ThreadSanitizer report"
[ $fail -eq 0 ]
