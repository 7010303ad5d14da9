#!/bin/bash
# make bench: time and peak memory of scaleaudit on a large synthetic trace.
#   BENCH_STEPS (default 200) x BENCH_KERNELS (default 2500) kernels:
#   500,000 kernels, about 1.5 million trace events.
# Prints events/s and peak resident memory per command; the numbers are
# recorded in docs/bench.md by hand when they change.
set -eu
bin=${1:-./scaleaudit}
steps=${BENCH_STEPS:-200}
kernels=${BENCH_KERNELS:-2500}
dir=build/bench
trace=$dir/rank0-${steps}x${kernels}.pt.trace.json.gz
mkdir -p "$dir"
if [ ! -f "$trace" ]; then
	echo "bench: writing $trace"
	python3 tests/bench/make_trace.py "$trace" "$steps" "$kernels"
fi
events=$((steps * kernels))
size=$(stat -c %s "$trace")
raw=$(zcat "$trace" | wc -c)
echo "bench: $trace: $events kernels, $((size / 1048576)) MiB gzip, $((raw / 1048576)) MiB JSON"
mkdir -p "$dir/trial/run"
ln -sf "$PWD/$trace" "$dir/trial/run/rank0.pt.trace.json.gz"
for cmd in "inspect $trace" "analyze $dir/trial" "report $dir/trial -o $dir/report"; do
	/usr/bin/time -f '%e %M' -o "$dir/time" "$bin" $cmd > /dev/null 2> "$dir/err" || true
	read -r secs kb < "$dir/time"
	echo "bench: scaleaudit $cmd"
	echo "       ${secs} s, peak RSS $((kb / 1024)) MiB, $(python3 -c "print(f'{$raw/1048576/$secs:.0f}')") MiB/s of JSON"
done
tests/bench/stack.sh "$bin"
tests/bench/batch.sh "$bin" "$(dirname "$bin")/scaleaudit-gen"
