#!/bin/bash
# make bench: scaleaudit batch at archive scale. Two inputs, each at two sizes
# (a quarter of the count, then the count) so that the parent's peak RSS can
# be seen flat in the number of trials:
#   - a tar.gz of BENCH_ARCHIVE_TRIALS (default 10000) tiny trials, each the
#     trial.ini, run.ini and train.log files of samples/trials/logs-only
#     (about 15 KB), read by batch in one pass;
#   - a directory of BENCH_DIR_TRIALS (default 1000) sample-sized trials
#     written by scaleaudit-gen (the sample scenarios in turn, each its seed).
# For each, batch from scratch at -j1 and -j2: wall time, trials per second,
# the -j2 speedup (target on two free cores: 1.8x), the batch parent's own
# peak RSS (VmHWM of /proc/PID/status, read until it ends: getrusage's
# children figures and /usr/bin/time take the largest worker instead), and
# the largest process's peak RSS (/usr/bin/time %M: a worker, or the parent).
# Not a timed test: the numbers depend on the machine and its load.
#
# usage: tests/bench/archive.sh [SCALEAUDIT [SCALEAUDIT-GEN]]
set -eu
bin=$(realpath "${1:-./scaleaudit}")
gen=$(realpath "${2:-./scaleaudit-gen}")
narc=${BENCH_ARCHIVE_TRIALS:-10000}
ndir=${BENCH_DIR_TRIALS:-1000}
dir=build/bench/archive
mkdir -p "$dir"

# The tar.gz of N tiny trials (written once).
make_tar() {
	local f=$dir/tiny-$1.tar.gz
	[ -f "$f" ] && { echo "$f"; return; }
	python3 - "samples/trials/logs-only" "$1" "$f.tmp" <<'EOF2' && mv "$f.tmp" "$f"
import io, sys, tarfile
src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
files = {p: open(f"{src}/{p}", "rb").read() for p in
         ("trial.ini", "1gpu/run.ini", "1gpu/train.log", "2gpu/run.ini", "2gpu/train.log")}
with tarfile.open(out, "w:gz", compresslevel=6) as tf:
    for i in range(n):
        for p, b in files.items():
            ti = tarfile.TarInfo(f"tiny/{i:05d}/{p}"); ti.size = len(b); ti.mtime = 1700000000
            tf.addfile(ti, io.BytesIO(b))
EOF2
	echo "$f"
}

# The directory of M generated trials (written once).
make_dir() {
	local d=$dir/trials-$1 i s
	if [ ! -f "$d/.done" ]; then
		rm -rf "$d"
		mapfile -t scenarios < <("$gen" --list | cut -d' ' -f1)
		for i in $(seq 1 "$1"); do
			s=${scenarios[$(( (i - 1) % ${#scenarios[@]} ))]}
			"$gen" "$s" -o "$d/$(printf '%05d' "$i")-$s" --seed "$i" > /dev/null
		done
		touch "$d/.done"
	fi
	echo "$d"
}

# run WHAT N INPUT JOBS: one table line from batch of INPUT into a fresh folder.
run() {
	local out=$dir/out pid hwm=0 kb secs t0 t1 now
	rm -rf "$out"
	t0=$EPOCHREALTIME
	/usr/bin/time -f '%M' -o "$dir/time" "$bin" batch "$3" -o "$out" -j "$4" --force > "$dir/stdout" 2> "$dir/stderr" &
	pid=$!
	sleep 0.05
	local bpid
	bpid=$(pgrep -P "$pid" -x scaleaudit | head -1 || true)
	while kill -0 "$pid" 2> /dev/null; do
		now=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/${bpid:-0}/status" 2> /dev/null || true)
		[ -n "$now" ] && [ "$now" -gt "$hwm" ] && hwm=$now
		[ -n "$bpid" ] || bpid=$(pgrep -P "$pid" -x scaleaudit | head -1 || true)
		sleep 0.05
	done
	wait "$pid" || true
	t1=$EPOCHREALTIME
	kb=$(tail -n 1 "$dir/time")
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	grep -q "^$2 trials: $2 analysed, 0 skipped (unchanged), 0 failed" "$dir/stdout" ||
		{ echo "bench: batch of $3 did not analyse all $2 trials:" >&2; head -3 "$dir/stdout" "$dir/stderr" >&2; }
	echo "$secs" > "$dir/secs-$4"
	awk -v w="$1" -v n="$2" -v j="$4" -v s="$secs" -v h="$hwm" -v k="$kb" 'BEGIN {
		printf "| %s | %d | -j%d | %.2f | %.1f | %.1f | %.1f |\n", w, n, j, s, n / s, h / 1024, k / 1024 }'
}

echo "bench: batch at archive scale, $(nproc) CPUs, load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| input | trials | jobs | s | trials/s | parent peak RSS MiB | largest process peak RSS MiB |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
speedups=""
for what in tar dir; do
	if [ $what = tar ]; then full=$narc; else full=$ndir; fi
	for n in $(( (full + 3) / 4 )) "$full"; do
		if [ $what = tar ]; then in=$(make_tar "$n"); label="tar.gz of tiny trials"
		else in=$(make_dir "$n"); label="directory of sample-sized trials"; fi
		run "$label" "$n" "$in" 1
		run "$label" "$n" "$in" 2
		speedups="$speedups $label, $n trials: $(awk -v a="$(cat "$dir/secs-1")" -v b="$(cat "$dir/secs-2")" 'BEGIN { printf "%.2fx", a / b }');"
	done
done
rm -rf "$dir/out"
echo
echo "bench: -j2 against -j1:$speedups"
echo "bench: load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
