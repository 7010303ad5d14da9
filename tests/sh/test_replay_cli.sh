#!/bin/bash
# scaleaudit replay without a GPU: --dry-run's plan (the same from a trial
# and from its analysis.json), the one line and exit 1 without a driver (an
# absent library; the CUDA toolkit's stub driver where it is installed), a
# trial without a trace, and usage errors.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
trial=samples/trials/ddp-scales-well

# expect STATUS FILE-WITH-EXPECTED-STDERR CMD...: the status and the exact stderr
expect() {
	local want=$1 err=$2; shift 2
	"$@" > "$tmp/out" 2> "$tmp/err"
	local rc=$?
	[ "$rc" -eq "$want" ] || { echo "$*: exit $rc, expected $want"; cat "$tmp/err"; fail=1; }
	[ -z "$err" ] || cmp -s "$tmp/err" "$err" || { echo "$*: stderr differs:"; diff "$err" "$tmp/err"; fail=1; }
}

expect 0 "" "$SCALEAUDIT" replay --dry-run "$trial"
cp "$tmp/out" "$tmp/plan.json"
grep -q '^  "device": null,$' "$tmp/plan.json" || { echo "dry-run: no \"device\": null"; fail=1; }
n=$(grep -c '^      "class": ' "$tmp/plan.json")
[ "$n" -eq 12 ] || { echo "dry-run planned $n kernels, expected 12"; fail=1; }
n=$(grep -c '^      "method": "cublaslt",$' "$tmp/plan.json")
[ "$n" -eq 5 ] || { echo "dry-run planned $n cuBLASLt GEMMs, expected 5"; fail=1; }
grep -q '^      "shape": "m=16384 n=8192 k=2048 transb",$' "$tmp/plan.json" ||
	{ echo "dry-run: no FC1 GEMM m=16384 n=8192 k=2048 transb"; fail=1; }
grep -q '^      "method": "not replayed: attention kernels are not replayed (not a library call)",$' \
	"$tmp/plan.json" || { echo "dry-run: the attention kernel's reason is missing"; fail=1; }

# replay starts as well from the analysis.json of the trial
"$SCALEAUDIT" analyze --json "$trial" > "$tmp/analysis.json" || fail=1
expect 0 "" "$SCALEAUDIT" replay --dry-run "$tmp/analysis.json"
cmp -s "$tmp/out" "$tmp/plan.json" || { echo "the plan from analysis.json differs from the trial's"; fail=1; }

# -o writes the same into the file, nothing on stdout
expect 0 "" "$SCALEAUDIT" replay --dry-run -o "$tmp/o.json" "$trial"
[ ! -s "$tmp/out" ] && cmp -s "$tmp/o.json" "$tmp/plan.json" || { echo "dry-run -o differs"; fail=1; }

# no driver: one line, exit 1
lib=/nonexistent/libcuda.so.1
printf '%s\n' "scaleaudit: no CUDA driver: $lib not found (dlopen: $lib: cannot open shared object file: No such file or directory)" > "$tmp/want"
expect 1 "$tmp/want" env SCALEAUDIT_LIBCUDA=$lib "$SCALEAUDIT" replay "$trial"
[ ! -s "$tmp/out" ] || { echo "replay without a driver wrote to stdout"; fail=1; }

# the toolkit's stub driver answers cuInit with an error (where the toolkit is installed)
stub=$(ls /usr/local/cuda*/lib64/stubs/libcuda.so 2>/dev/null | head -n 1)
if [ -n "$stub" ]; then
	expect 1 "" env SCALEAUDIT_LIBCUDA="$stub" "$SCALEAUDIT" replay "$trial"
	[ "$(wc -l < "$tmp/err")" -eq 1 ] &&
	grep -q '^scaleaudit: cuInit: CUDA_ERROR_STUB_LIBRARY: .* (replay/cuda\.c:[0-9]*)$' "$tmp/err" ||
		{ echo "stub driver: unexpected message:"; cat "$tmp/err"; fail=1; }
fi

# a whole replay against the fake driver of tests/data (device memory is host
# memory, every timed call takes 1 ms), without cuBLASLt or NCCL: the memset
# and the host copies are re-run, the rest says why not; then report draws
# chart 09 from it
${CC:-cc} -shared -fPIC -o "$tmp/libcuda.so" tests/data/fake_libcuda.c || fail=1
expect 0 "" env SCALEAUDIT_LIBCUDA="$tmp/libcuda.so" FAKE_CUDA_B200=1 \
	SCALEAUDIT_LIBCUBLASLT=/nonexistent/libcublasLt.so SCALEAUDIT_LIBNCCL=/nonexistent/libnccl.so.2 \
	"$SCALEAUDIT" replay -o "$tmp/replay.json" "$trial"
for want in '  "device": "NVIDIA B200",' '  "same_model": true,' '  "projected_step_s": null,' \
	'      "replayed_median_s": 0.001,' '      "ratio": 19.293473018077986,' \
	'      "cause": "clocks (power or thermal limit) or another library version"' \
	'      "cause": "the trial ran AllReduce over 2 GPUs; this machine has 1"' \
	'      "cause": "cuBLASLt not found (dlopen: /nonexistent/libcublasLt.so: cannot open shared object file: No such file or directory)"'; do
	grep -qxF -- "$want" "$tmp/replay.json" || { echo "replay.json lacks: $want"; fail=1; }
done
# with -o, standard output says what became of each kernel and why
for want in '3 done, 7 skipped, 0 failed, 2 not replayed by the plan' \
	'  skipped     not-run   ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsSto: the trial ran AllReduce over 2 GPUs; this machine has 1' \
	'  done        differs   Memcpy HtoD (Pinned -> Device): pinned HtoD copy, 80.1 x the logged time: clocks (power or thermal limit) or another library version' \
	"replay.json written to $tmp/replay.json"; do
	grep -qxF -- "$want" "$tmp/out" || { echo "replay's summary lacks: $want"; cat "$tmp/out"; fail=1; }
done
grep -q projection "$tmp/out" && { echo "same GPU model, yet the summary speaks of projections"; fail=1; }
# on another GPU model the summary says plainly the times are projections
expect 0 "" env SCALEAUDIT_LIBCUDA="$tmp/libcuda.so" \
	SCALEAUDIT_LIBCUBLASLT=/nonexistent/libcublasLt.so SCALEAUDIT_LIBNCCL=/nonexistent/libnccl.so.2 \
	"$SCALEAUDIT" replay -o "$tmp/h200.json" "$trial"
grep -qxF "these timings are projections, not measurements of the trial's GPU: NVIDIA H200 is not the NVIDIA B200 the trial ran on" \
	"$tmp/out" || { echo "replay on another GPU model does not say its times are projections"; fail=1; }
# -o writes under a new temporary name renamed into place: where the rename fails (FILE
# is a directory), what FILE held is kept and the temporary file is gone
mkdir "$tmp/keep.json" && echo old > "$tmp/keep.json/old"
expect 1 "" env SCALEAUDIT_LIBCUDA="$tmp/libcuda.so" \
	SCALEAUDIT_LIBCUBLASLT=/nonexistent/libcublasLt.so SCALEAUDIT_LIBNCCL=/nonexistent/libnccl.so.2 \
	"$SCALEAUDIT" replay -o "$tmp/keep.json" "$trial"
[ "$(cat "$tmp/keep.json/old")" = old ] || { echo "a failed -o write replaced the file"; fail=1; }
ls "$tmp" | grep -q '^keep\.json\.tmp' && { echo "a failed -o write left its temporary file"; fail=1; }
grep -qxF "$tmp/keep.json: cannot rename into place: Is a directory" "$tmp/err" ||
	{ echo "a failed -o write says:"; cat "$tmp/err"; fail=1; }
[ ! -e "$tmp/replay.json.tmp" ] || { echo "-o left its temporary file"; fail=1; }
n=$(grep -c '"verdict": "differs"' "$tmp/replay.json")
[ "$n" -eq 3 ] || { echo "$n kernels differ, expected 3 (the memset and the two host copies)"; fail=1; }
cp -r "$trial" "$tmp/trial" && cp "$tmp/replay.json" "$tmp/trial/replay.json"
"$SCALEAUDIT" report "$tmp/trial" -o "$tmp/report" > /dev/null 2>&1 || fail=1
[ -s "$tmp/report/charts/09-replay.png" ] || { echo "report drew no chart 09 from replay.json"; fail=1; }

printf '%s\n' "scaleaudit: tests/data/trials/log-only: no run has critical kernels to replay (replay needs a profiler trace)" > "$tmp/want"
expect 1 "$tmp/want" "$SCALEAUDIT" replay --dry-run tests/data/trials/log-only

printf '%s\n' "scaleaudit replay: --smoke takes no TRIAL" "Try 'scaleaudit help replay'." > "$tmp/want"
expect 2 "$tmp/want" "$SCALEAUDIT" replay --smoke "$trial"
printf '%s\n' "scaleaudit replay: no TRIAL given" "Try 'scaleaudit help replay'." > "$tmp/want"
expect 2 "$tmp/want" "$SCALEAUDIT" replay --dry-run
printf '%s\n' "/nonexistent/x.json: cannot create: No such file or directory" > "$tmp/want"
expect 1 "$tmp/want" "$SCALEAUDIT" replay --dry-run -o /nonexistent/x.json "$trial"
exit $fail
