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
# inflate alone of one rank (floor --inflate), the floor of one rank (and the
# same count with the tool's tokenizer, floor --scan, beside it), and
# scaleaudit inspect / analyze / report of each whole trial: the median wall
# time of BENCH_REPS runs and the median CPU time (user + system: steadier
# than the wall time on a busy machine), MB/s of uncompressed JSON, peak RSS
# (/usr/bin/time %M), RSS as % of the uncompressed input, and the wall and CPU
# times as ratios to the floor of one rank of that trial. Then report minus
# analyze, the peak RSS per event, and the analysis time after reading
# (SCALEAUDIT_TIMING=1) per event at 100 MB and 1000 MB per rank.
# Then tests/bench/stack.sh, tests/bench/batch.sh, tests/bench/archive.sh and
# tests/bench/report_runs.sh.
#
# Knobs (environment):
#   BENCH_SCALE=1     multiplies every size (0.1 for a quick run: 2x10, 2x100, 8x25 MB)
#   BENCH_REPS=3      runs per measurement (the median is shown)
#   BENCH_SIZES="2x100 2x1000 8x250"   which trials (RANKSxMB, before scaling)
#   BENCH_FORMS="plain gz"              which forms
#   BENCH_QUIET=1.0   wait (up to BENCH_WAIT=120 s) for the 1-minute load average to fall under this
#   BENCH_STACK=1, BENCH_BATCH=1, BENCH_ARCHIVE=1, BENCH_REPORT=1   0 skips that benchmark
#   BENCH_ARCHIVE_TRIALS=10000, BENCH_DIR_TRIALS=1000   trials of the archive benchmark
#   BENCH_REPORT_RUNS=1000               runs in the smallest analysis.json of report_runs.sh
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

# Events in every trace of a trial (counted once by the floor, kept in $d/events).
trial_events() {
	local d=$1
	if [ ! -s "$d/events" ]; then
		find "$d/plain" -name '*.json' | while read -r f; do nice -n 10 "$floor" "$f"; done |
			awk '{ s += $2 } END { print s }' > "$d/events.tmp" && mv "$d/events.tmp" "$d/events"
	fi
	cat "$d/events"
}

# Bytes of uncompressed JSON under the plain form of a trial, or in one plain file.
json_bytes() { find "$1" -name '*.json' -printf '%s\n' | awk '{ s += $1 } END { print s }'; }

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure CMD...: runs it BENCH_REPS times; sets SECS (median wall), CPU (median user + system), KB (median peak RSS),
# and leaves the last run's stderr in $tmp/err and every run's in $tmp/errs.
measure() {
	local i t0 t1 kb user sys
	: > "$tmp/secs"; : > "$tmp/kbs"; : > "$tmp/cpus"; : > "$tmp/errs"
	for ((i = 0; i < reps; i++)); do
		t0=$EPOCHREALTIME
		/usr/bin/time -f '%M %U %S' -o "$tmp/time" "$@" > /dev/null 2> "$tmp/err" ||
			{ echo "bench: failed: $*" >&2; cat "$tmp/err" >&2; return 1; }
		t1=$EPOCHREALTIME
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >> "$tmp/secs"
		read -r kb user sys < <(tail -n 1 "$tmp/time")
		echo "$kb" >> "$tmp/kbs"
		awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f\n", u + s }' >> "$tmp/cpus"
		cat "$tmp/err" >> "$tmp/errs"
	done
	SECS=$(median < "$tmp/secs")
	KB=$(median < "$tmp/kbs")
	CPU=$(median < "$tmp/cpus")
}

# row LABEL BYTES FLOOR_SECS FLOOR_CPU: one table line from SECS, CPU and KB.
row() {
	awk -v l="$1" -v b="$2" -v f="$3" -v fc="$4" -v s="$SECS" -v c="$CPU" -v kb="$KB" 'BEGIN {
		mb = b / 1e6
		rate = s > 0 ? mb / s : 0
		ratio = f > 0 ? sprintf("%.2fx", s / f) : "-"
		cratio = fc > 0 ? sprintf("%.2fx", c / fc) : "-"
		printf "| %s | %.0f | %.2f | %.2f | %.0f | %.0f | %.1f%% | %s | %s |\n", l, mb, s, c, rate,
			kb / 1024, 100 * kb * 1024 / b, ratio, cratio
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
echo "bench: median of $reps runs; MB = 1e6 bytes of uncompressed JSON read (of the gzip file for cat of a .gz);"
echo "bench: s = wall, CPU s = user + system; RSS MiB; x floor = time / time of the floor of one rank"
echo
echo "| trial | form | what | MB | s | CPU s | MB/s | peak RSS MiB | RSS % of input | x floor | x floor (CPU) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
: > "$tmp/summary"
for t in $trials; do
	d=$(trial_dir "$t")
	name=${d##*/trial-}
	total=$(json_bytes "$d/plain")
	ranks=${t%x*}
	one=$d/plain/${ranks}gpu/rank0.pt.trace.json
	onebytes=$(json_bytes "$one")
	events=$(trial_events "$d")
	for form in $forms; do
		root=$d/$form
		rank0=$root/${ranks}gpu/rank0.pt.trace.json
		[ "$form" = gz ] && rank0=$rank0.gz
		p="$name | $form"
		measure cat "$rank0"; row "$p | cat one rank" "$(stat -c %s "$rank0")" 0 0
		if [ "$form" = gz ]; then measure "$floor" --inflate "$rank0"; row "$p | inflate one rank" "$onebytes" 0 0; fi
		measure "$floor" "$rank0"; fl=$SECS fc=$CPU; row "$p | floor one rank" "$onebytes" "$fl" "$fc"
		measure "$floor" --scan "$rank0"; row "$p | floor one rank, jsonscan" "$onebytes" "$fl" "$fc"
		measure "$bin" inspect "$root"; row "$p | inspect" "$total" "$fl" "$fc"
		SCALEAUDIT_TIMING=1 measure "$bin" analyze "$root"; an=$SECS ancpu=$CPU ankb=$KB; row "$p | analyze" "$total" "$fl" "$fc"
		sed -n 's/.*: read \([0-9.]*\) s, analysis \([0-9.]*\) s$/\1 \2/p' "$tmp/errs" > "$tmp/timing"
		rd=$(cut -d' ' -f1 "$tmp/timing" | median); as=$(cut -d' ' -f2 "$tmp/timing" | median)
		measure "$bin" report "$root" -o "$tmp/report"; row "$p | report" "$total" "$fl" "$fc"
		echo "$name $form $total $an $SECS $rd $as $events $ankb $ancpu $CPU" >> "$tmp/summary"
	done
done
echo
echo "bench: load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| trial | form | events | analyze s | report s | report - analyze s | report - analyze CPU s | analyze peak RSS bytes per event | read s | analysis after reading s | analysis ns per event |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
awk '{ printf "| %s | %s | %d | %.2f | %.2f | %+.2f | %+.2f | %.0f | %.2f | %.3f | %.0f |\n", $1, $2, $8, $4, $5, $5 - $4, $11 - $10, $9 * 1024 / $8, $6, $7, 1e9 * $7 / $8 }' "$tmp/summary"
echo "(events: objects in traceEvents of every file; analysis after reading: SCALEAUDIT_TIMING=1, linear when its ns per event stays flat from 100 MB to 1000 MB per rank)"

[ "${BENCH_STACK:-1}" = 0 ] || tests/bench/stack.sh "$bin"
[ "${BENCH_BATCH:-1}" = 0 ] || tests/bench/batch.sh "$bin" "$(dirname "$bin")/scaleaudit-gen"
[ "${BENCH_ARCHIVE:-1}" = 0 ] || tests/bench/archive.sh "$bin" "$(dirname "$bin")/scaleaudit-gen"
[ "${BENCH_REPORT:-1}" = 0 ] || tests/bench/report_runs.sh "$bin"
