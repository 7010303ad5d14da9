#!/bin/bash
# make bench, part 2: scaleaudit stack on a synthetic 1.5 GB CUDA library.
#   tests/bench/make_stack_so.py writes, into a temporary directory removed at
#   the end (never committed), a sparse ELF shared object: 1200 MiB of .text
#   and 256 MiB of .rodata that are holes (no disk), 4 fatbins embedded in the
#   .rodata, BENCH_STACK_FATBINS (default 600) fatbins in .nv_fatbin made of
#   the committed fixtures' bytes, and a 512 MiB .bss.
# Prints wall time, MB/s of file (1 MB = 1e6 bytes) and peak resident memory,
# for a cold first run (the file just written is mostly holes, so "cold"
# means the holes' pages) and a second one; checks that every fatbin was read.
set -eu
bin=${1:-./scaleaudit}
nfat=${BENCH_STACK_FATBINS:-600}
S=tests/data/stack
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
so=$tmp/libbench_cuda.so
read -r size fatbins entries embedded < <(python3 tests/bench/make_stack_so.py "$so" "$nfat" 1200 256 \
	$S/all-zstd.fatbin $S/all-default.fatbin $S/all-lz4.fatbin $S/none.fatbin $S/family.fatbin $S/ptx120.fatbin)
echo "bench: $so: $((size / 1048576)) MiB ($(du -k "$so" | cut -f1) KiB on disk), $fatbins fatbins ($embedded in .rodata), $entries entries"
for run in 1 2; do
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$bin" stack --json --target sm_100,sm_120 "$so" > "$tmp/out" 2> "$tmp/err" ||
		{ echo "bench: stack exited $?"; cat "$tmp/err"; exit 1; }
	read -r secs kb < "$tmp/time"
	echo "bench: scaleaudit stack (run $run)"
	echo "       ${secs} s, peak RSS $((kb / 1024)) MiB, $(python3 -c "print(f'{$size / 1e6 / max($secs, 0.01):.0f}')") MB/s of file"
done
python3 - "$tmp/out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sass = d["items"][0]["sass"]
want = ["sm_80", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_100f", "sm_120", "sm_120f"]
if sass != want or d["ready"] != {"sm_100": "yes", "sm_120": "yes"}:
    sys.exit(f"bench: stack read {sass}, ready {d['ready']}: not every fatbin was read")
PY
