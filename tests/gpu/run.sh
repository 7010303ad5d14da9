#!/bin/bash
# tests/gpu/run.sh OUTDIR: the checks that need an NVIDIA GPU, run where one
# exists (never by tests/run.sh or `make check`). Builds ./scaleaudit when it
# is missing, then writes what it measured under OUTDIR:
#   env.txt                 date, host, nvidia-smi, /proc/driver/nvidia/version
#   smoke.txt, smoke.json   `scaleaudit replay --smoke` (text, and its JSON)
#   smoke.rc                its exit status (0 all essential items passed, 1 not)
#   libs.txt                cuBLASLt GEMM correctness per layout/dtype, GEMM/copy/NCCL timings
#   replay/...              the replay of the sample trials (section 2 below)
#   summary.txt             one line per step: NAME rc=N
# Exit status: 0 when every step passed, 1 otherwise; 77 when no GPU is seen.
set -u
out=${1:?usage: tests/gpu/run.sh OUTDIR}
cd "$(dirname "$0")/../.." || exit 1
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
bin=${SCALEAUDIT:-$PWD/scaleaudit}
status=0

step() {	# step NAME RC: records a step's exit status
	echo "$1 rc=$2" >> "$out/summary.txt"
	[ "$2" = 0 ] || status=1
}

: > "$out/summary.txt"
{
	date -u
	uname -a
	cat /proc/driver/nvidia/version 2>/dev/null || echo "no /proc/driver/nvidia/version"
	nvidia-smi 2>&1 || echo "no nvidia-smi"
	nvidia-smi topo -m 2>&1 || true
} > "$out/env.txt"
if ! ls /dev/nvidia0 > /dev/null 2>&1; then
	echo "skip: no NVIDIA GPU here (/dev/nvidia0 absent)" | tee -a "$out/summary.txt"
	exit 77
fi

if [ ! -x "$bin" ]; then
	make -j"$(nproc)" > "$out/build.log" 2>&1
	step build $?
	[ -x "$bin" ] || exit 1
fi

# 1. The smoke check: devices, JIT of the project's PTX, a large allocation,
#    host<->device and device<->device bandwidth, peers, and what other
#    modules add (GEMM, NCCL).
"$bin" replay --smoke -o "$out/smoke.json" > "$out/smoke.txt" 2> "$out/smoke.err"
rc=$?
echo "$rc" > "$out/smoke.rc"
step smoke "$rc"
cat "$out/smoke.txt" "$out/smoke.err"
# 1b. cuBLASLt, NCCL and the executor (tests/gpu/libs_check.c): every GEMM
#     layout and dtype checked against a product computed on the CPU, then
#     8192^3 GEMMs, a 256 MiB copy and fill, and an all-reduce over every GPU
#     timed as replay times them. Writes libs.txt; 77 (no driver) counts as a failure here.
[ -f build/plain/libscaleaudit.a ] || make -j"$(nproc)" build/plain/libscaleaudit.a > /dev/null 2>&1
${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 -I. -o "$out/libs_check" tests/gpu/libs_check.c \
	build/plain/libscaleaudit.a -ldl -lm > "$out/libs_check.build.log" 2>&1
rc=$?
[ $rc = 0 ] && { "$out/libs_check" > "$out/libs.txt" 2>&1; rc=$?; }
step libs "$rc"
cat "$out/libs.txt" 2>/dev/null || cat "$out/libs_check.build.log"

# 2. The replay of the sample trials: each trial's critical kernels re-run on
#    device 0 (confirmed/differs where the trial's GPU model is this one, a
#    projection otherwise), replay.json per trial, and one line per kernel
#    (verdict, ratio, logged and replayed ms) in replay.txt.
mkdir -p "$out/replay"
: > "$out/replay.txt"
for t in samples/trials/*/; do
	name=$(basename "$t")
	"$bin" replay "$t" -o "$out/replay/$name.json" 2> "$out/replay/$name.err"
	rc=$?
	step "replay $name" "$rc"
	echo "== $name rc=$rc $(head -n 1 "$out/replay/$name.err")" >> "$out/replay.txt"
	[ -s "$out/replay/$name.json" ] && command -v python3 > /dev/null &&
	python3 - "$out/replay/$name.json" >> "$out/replay.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("device %s, trial %s, cuda %s, projected step %s s (logged %s s)" % (
    d["device"], d["logged_gpu"], d["cuda_version"], d["projected_step_s"], d["logged_step_s"]))
for k in d["kernels"]:
    ms = lambda v: "-" if v is None else "%.4f" % (v * 1e3)
    print("  %-10s %-6s %8s ms -> %8s ms  %s  %s" % (k["verdict"], k["ratio"] and "%.2f" % k["ratio"],
          ms(k["logged_median_s"]), ms(k["replayed_median_s"]), (k["shape"] or k["name"])[:48],
          k["cause"] or ""))
PY
done
cat "$out/replay.txt"

cat "$out/summary.txt"
exit "$status"
