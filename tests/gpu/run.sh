#!/bin/bash
# tests/gpu/run.sh OUTDIR: the checks that need an NVIDIA GPU, run where one
# exists (never by tests/run.sh or `make check`; `make gpu-check` runs it into
# out/gpu/). Made for one call on a machine without network: it builds the
# tool (failing at once, naming the Debian packages it needs, when a build
# dependency is missing), then writes what it measured under OUTDIR:
#   env.txt                 date, host, nvidia-smi, /proc/driver/nvidia/version
#   build.log               the build's output
#   smoke.txt, smoke.json   `scaleaudit replay --smoke` (text, and its JSON)
#   smoke.rc                its exit status (0 all essential items passed, 1 not)
#   libs.txt                cuBLASLt GEMM correctness per layout/dtype, GEMM/copy/NCCL timings
#   replay/NAME.json        replay.json of each sample trial; replay/NAME.txt its summary
#   replay.txt              one line per replayed kernel of every trial
#   summary.txt             one line per step: NAME rc=N (124: out of time) and the seconds so far
# Every step has a time limit, and the whole run keeps within GPU_CHECK_SECONDS
# (default 420): a step that would start with under 5 s left is recorded as
# "rc=skipped". Set SCALEAUDIT to a built binary to skip the build; with
# SCALEAUDIT_LIBCUDA set (another driver library, e.g. the tests' fake) it
# runs without looking for /dev/nvidia0.
# Exit status: 0 when every step passed, 1 otherwise; 77 when no GPU is seen.
set -u
out=${1:?usage: tests/gpu/run.sh OUTDIR}
cd "$(dirname "$0")/../.." || exit 1
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
bin=${SCALEAUDIT:-$PWD/scaleaudit}
status=0
start=$SECONDS
budget=${GPU_CHECK_SECONDS:-420}
SKIPPED=200

step() {	# step NAME RC: records a step's exit status
	echo "$1 rc=$2 ($((SECONDS - start)) s)" >> "$out/summary.txt"
	[ "$2" = 0 ] || status=1
}

# run NAME CAP CMD...: CMD under a limit of CAP seconds or what is left of the
# budget; returns its status, or $SKIPPED (the step recorded) when no time is left
run() {
	local name=$1 cap=$2 left=$((budget - (SECONDS - start)))
	shift 2
	if [ "$left" -lt 5 ]; then
		step "$name" skipped
		return $SKIPPED
	fi
	timeout -k 5 $((left < cap ? left : cap)) "$@"
}

# record NAME RC: records a step run through run() unless it was skipped
record() {
	[ "$2" = $SKIPPED ] || step "$1" "$2"
}

: > "$out/summary.txt"
{
	date -u
	uname -a
	cat /proc/driver/nvidia/version 2>/dev/null || echo "no /proc/driver/nvidia/version"
	timeout 20 nvidia-smi 2>&1 || echo "no nvidia-smi"
	timeout 20 nvidia-smi topo -m 2>&1 || true
} > "$out/env.txt"
if [ -z "${SCALEAUDIT_LIBCUDA:-}" ] && ! ls /dev/nvidia0 > /dev/null 2>&1; then
	echo "skip: no NVIDIA GPU here (/dev/nvidia0 absent)" | tee -a "$out/summary.txt"
	exit 77
fi

# 0. The build. Without network nothing can be installed: say what is missing and stop.
if [ -z "${SCALEAUDIT:-}" ]; then
	need=$(sh mk/deps.sh missing | grep -vxE 'libcmocka-dev|poppler-utils|groff-base|chromium' |
	       tr '\n' ' ')
	if [ -n "$need" ]; then
		echo "build: missing Debian packages: ${need% }" | tee -a "$out/summary.txt" >&2
		echo "install them (apt-get install ${need% }), or set SCALEAUDIT to a built binary" >&2
		exit 1
	fi
	run build 240 make -j"$(nproc)" all build/plain/libscaleaudit.a > "$out/build.log" 2>&1
	rc=$?
	record build $rc
	[ "$rc" = 0 ] || { tail -n 20 "$out/build.log"; exit 1; }
fi
[ -x "$bin" ] || { echo "no scaleaudit binary at $bin" | tee -a "$out/summary.txt"; exit 1; }

# 1. The smoke check: devices, JIT of the project's PTX, a large allocation,
#    host<->device and device<->device bandwidth, peers, and what other
#    modules add (GEMM, NCCL).
run smoke 120 "$bin" replay --smoke -o "$out/smoke.json" > "$out/smoke.txt" 2> "$out/smoke.err"
rc=$?
echo "$rc" > "$out/smoke.rc"
record smoke $rc
cat "$out/smoke.txt" "$out/smoke.err"

# 1b. cuBLASLt, NCCL and the executor (tests/gpu/libs_check.c): every GEMM
#     layout and dtype checked against a product computed on the CPU, then
#     8192^3 GEMMs, a 256 MiB copy and fill, and an all-reduce over every GPU
#     timed as replay times them. Writes libs.txt; 77 (no driver) counts as a failure here.
if [ -f build/plain/libscaleaudit.a ] &&
   ${CC:-cc} -std=c11 -D_GNU_SOURCE -O2 -I. -o "$out/libs_check" tests/gpu/libs_check.c \
	build/plain/libscaleaudit.a -ldl -lm > "$out/libs_check.build.log" 2>&1; then
	run libs 120 "$out/libs_check" > "$out/libs.txt" 2>&1
	rc=$?
	record libs $rc
	cat "$out/libs.txt"
else
	step libs build-failed
	cat "$out/libs_check.build.log" 2>/dev/null
fi

# 2. The replay of the sample trials: each trial's critical kernels re-run on
#    device 0 (confirmed/differs where the trial's GPU model is this one, a
#    projection otherwise), replay.json and the text summary per trial, and
#    one line per kernel (verdict, ratio, logged and replayed ms) in replay.txt.
#    A trial without profiler traces (logs-only) has no kernel to replay.
mkdir -p "$out/replay"
: > "$out/replay.txt"
for t in samples/trials/*/; do
	name=$(basename "$t")
	if ! ls "$t"*/*.pt.trace.json* > /dev/null 2>&1; then
		echo "== $name: no profiler trace, nothing to replay" >> "$out/replay.txt"
		continue
	fi
	run "replay $name" 30 "$bin" replay "$t" -o "$out/replay/$name.json" \
		> "$out/replay/$name.txt" 2> "$out/replay/$name.err"
	rc=$?
	record "replay $name" $rc
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
