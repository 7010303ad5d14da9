#!/bin/bash
# make bench: scaleaudit batch with one worker against two, over BENCH_TRIALS
# (default 100) small trials written by scaleaudit-gen (the sample scenarios
# in turn, each with its own seed). Prints both wall times and the speedup;
# on two free cores -j2 should be at least 1.8x faster than -j1. Not a timed
# test: the numbers depend on the machine and its load.
set -eu
bin=${1:-./scaleaudit}
gen=${2:-./scaleaudit-gen}
n=${BENCH_TRIALS:-100}
dir=build/bench/batch
mkdir -p "$dir"
if [ ! -f "$dir/trials-$n/.done" ]; then
	echo "bench: writing $n trials into $dir/trials-$n"
	rm -rf "$dir/trials-$n"
	mapfile -t scenarios < <("$gen" --list | cut -d' ' -f1)
	for i in $(seq 1 "$n"); do
		s=${scenarios[$(( (i - 1) % ${#scenarios[@]} ))]}
		"$gen" "$s" -o "$dir/trials-$n/$(printf '%03d' "$i")-$s" --seed "$i" > /dev/null
	done
	touch "$dir/trials-$n/.done"
fi
run() {	# run JOBS: prints the wall time of a batch from scratch
	rm -rf "$dir/out-$1"
	/usr/bin/time -f '%e' -o "$dir/time-$1" "$bin" batch "$dir/trials-$n" -o "$dir/out-$1" -j "$1" --force > /dev/null 2>&1 || true
	cat "$dir/time-$1"
}
t1=$(run 1)
t2=$(run 2)
echo "bench: scaleaudit batch on $n trials: -j1 ${t1} s, -j2 ${t2} s: $(python3 -c "print(f'{$t1/$t2:.2f}')")x"
