#!/bin/bash
# make bench: how fast and how lean scaleaudit reads large trials, against the
# parse floor (bench/floor.c: yajl counting one rank's events and nothing more).
#
# usage: tests/bench/run.sh [SCALEAUDIT [FLOOR]]
#
# Writes once, under build/bench (reused when present), three scaling trials
# with tests/bench/make_trace.py, each plain and gzipped (gzip -6):
#   2 ranks x 100 MB, 2 ranks x 1000 MB, 8 ranks x 250 MB of JSON per rank,
# each with a 1-GPU baseline run of a tenth of the steps. Then, from one run on
# the same files, one table: `cat` of one rank (page cache, warm), zlib
# inflate alone of one rank (floor --inflate), the floor of one rank, and
# scaleaudit inspect / analyze / report of each whole trial: the median wall
# time of BENCH_REPS runs, MB/s of uncompressed JSON, peak RSS (/usr/bin/time
# %M), RSS as % of the uncompressed input, and the time as a ratio to the
# floor of one rank of that trial. Then report minus analyze, and the analysis
# time after reading (SCALEAUDIT_TIMING=1) at 100 MB and 1000 MB per rank.
# Then tests/bench/stack.sh and tests/bench/batch.sh.
#
# Knobs (environment):
#   BENCH_SCALE=1     multiplies every size (0.1 for a quick run: 2x10, 2x100, 8x25 MB)
#   BENCH_REPS=3      runs per measurement (the median is shown)
#   BENCH_SIZES="2x100 2x1000 8x250"   which trials (RANKSxMB, before scaling)
#   BENCH_FORMS="plain gz"              which forms
#   BENCH_QUIET=1.0   wait (up to BENCH_WAIT=120 s) for the 1-minute load average to fall under this
#   BENCH_STACK=1, BENCH_BATCH=1        0 skips the stack / batch benchmarks
#   BENCH_GENERATE_ONLY=1                only writes the trials
set -eu
bin=$(realpath "${1:-./scaleaudit}")
floor=$(realpath "${2:-build/plain/bench/floor}")
scale=${BENCH_SCALE:-1}
reps=${BENCH_REPS:-3}
trials=${BENCH_SIZES:-2x100 2x1000 8x250}
forms=${BENCH_FORMS:-plain gz}
quiet=${BENCH_QUIET:-1.0}
waitmax=${BENCH_WAIT:-120}
dir=build/bench
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/run.XXXXXX"); trap 'rm -rf "$tmp"' EXIT

# The trial RANKSxMB at this scale: its directory, written once (plain, then gzipped beside it).
trial_dir() {
	local ranks=${1%x*} mb
	mb=$(awk -v m="${1#*x}" -v s="$scale" 'BEGIN { printf "%g", m * s }')
	echo "$dir/trial-${ranks}x${mb}MB"
}

make_trial() {
	local ranks=${1%x*} d
	d=$(trial_dir "$1")
	[ -f "$d/.done" ] && return 0
	rm -rf "$d"
	local mb=${d##*x}; mb=${mb%MB}
	echo "bench: writing $d (nice -n 10)" >&2
	nice -n 10 python3 tests/bench/make_trace.py "$d/plain" --ranks "$ranks" --mb "$mb" >&2
	(cd "$d/plain" && find . -type d) | while read -r sub; do mkdir -p "$d/gz/$sub"; done
	(cd "$d/plain" && find . -type f) | while read -r f; do
		case $f in
		*.json) nice -n 10 gzip -6 -c "$d/plain/$f" > "$d/gz/$f.gz" ;;
		*) cp "$d/plain/$f" "$d/gz/$f" ;;
		esac
	done
	touch "$d/.done"
}

# Bytes of uncompressed JSON under the plain form of a trial, or in one plain file.
json_bytes() { find "$1" -name '*.json' -printf '%s\n' | awk '{ s += $1 } END { print s }'; }

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure CMD...: runs it BENCH_REPS times; sets SECS (median wall), KB (median peak RSS),
# and leaves the last run's stderr in $tmp/err and every run's in $tmp/errs.
measure() {
	local i t0 t1
	: > "$tmp/secs"; : > "$tmp/kbs"; : > "$tmp/errs"
	for ((i = 0; i < reps; i++)); do
		t0=$EPOCHREALTIME
		/usr/bin/time -f '%M' -o "$tmp/time" "$@" > /dev/null 2> "$tmp/err" ||
			{ echo "bench: failed: $*" >&2; cat "$tmp/err" >&2; return 1; }
		t1=$EPOCHREALTIME
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >> "$tmp/secs"
		tail -n 1 "$tmp/time" >> "$tmp/kbs"
		cat "$tmp/err" >> "$tmp/errs"
	done
	SECS=$(median < "$tmp/secs")
	KB=$(median < "$tmp/kbs")
}

# row LABEL BYTES FLOOR_SECS: one table line from SECS and KB.
row() {
	awk -v l="$1" -v b="$2" -v f="$3" -v s="$SECS" -v kb="$KB" 'BEGIN {
		mb = b / 1e6
		rate = s > 0 ? mb / s : 0
		ratio = f > 0 ? sprintf("%.2fx", s / f) : "-"
		printf "| %s | %.0f | %.2f | %.0f | %.0f | %.1f%% | %s |\n", l, mb, s, rate,
			kb / 1024, 100 * kb * 1024 / b, ratio
	}'
}

wait_quiet() {
	local waited=0 load
	while load=$(cut -d' ' -f1 /proc/loadavg) && awk -v l="$load" -v q="$quiet" 'BEGIN { exit !(l >= q) }' &&
		[ "$waited" -lt "$waitmax" ]; do
		[ "$waited" -eq 0 ] && echo "bench: load average $load, waiting up to ${waitmax}s for it to fall under $quiet" >&2
		sleep 10; waited=$((waited + 10))
	done
}

for t in $trials; do make_trial "$t"; done
[ "${BENCH_GENERATE_ONLY:-0}" = 0 ] || exit 0
wait_quiet
echo "bench: $(nproc) CPUs, load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bench: median of $reps runs; MB = 1e6 bytes of uncompressed JSON read; RSS MiB; x floor = time / floor of one rank"
echo
echo "| trial | form | what | MB | s | MB/s | peak RSS MiB | RSS % of input | x floor |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
: > "$tmp/summary"
for t in $trials; do
	d=$(trial_dir "$t")
	name=${d##*/trial-}
	total=$(json_bytes "$d/plain")
	ranks=${t%x*}
	one=$d/plain/${ranks}gpu/rank0.pt.trace.json
	onebytes=$(json_bytes "$one")
	for form in $forms; do
		root=$d/$form
		rank0=$root/${ranks}gpu/rank0.pt.trace.json
		[ "$form" = gz ] && rank0=$rank0.gz
		p="$name | $form"
		measure cat "$rank0"; row "$p | cat one rank" "$onebytes" 0
		if [ "$form" = gz ]; then measure "$floor" --inflate "$rank0"; row "$p | inflate one rank" "$onebytes" 0; fi
		measure "$floor" "$rank0"; fl=$SECS; row "$p | floor one rank" "$onebytes" "$fl"
		measure "$bin" inspect "$root"; row "$p | inspect" "$total" "$fl"
		SCALEAUDIT_TIMING=1 measure "$bin" analyze "$root"; an=$SECS; row "$p | analyze" "$total" "$fl"
		sed -n 's/.*: read \([0-9.]*\) s, analysis \([0-9.]*\) s$/\1 \2/p' "$tmp/errs" > "$tmp/timing"
		rd=$(cut -d' ' -f1 "$tmp/timing" | median); as=$(cut -d' ' -f2 "$tmp/timing" | median)
		measure "$bin" report "$root" -o "$tmp/report"; row "$p | report" "$total" "$fl"
		echo "$name $form $total $an $SECS $rd $as" >> "$tmp/summary"
	done
done
echo
echo "bench: load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| trial | form | analyze s | report s | report - analyze s | read s | analysis after reading s | analysis us per MB |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
awk '{ printf "| %s | %s | %.2f | %.2f | %+.2f | %.2f | %.3f | %.1f |\n", $1, $2, $4, $5, $5 - $4, $6, $7, 1e6 * $7 / ($3 / 1e6) }' "$tmp/summary"
echo "(analysis after reading: SCALEAUDIT_TIMING=1; linear when its us per MB stays flat from the 100 MB to the 1000 MB trial)"

[ "${BENCH_STACK:-1}" = 0 ] || tests/bench/stack.sh "$bin"
[ "${BENCH_BATCH:-1}" = 0 ] || tests/bench/batch.sh "$bin" "$(dirname "$bin")/scaleaudit-gen"
