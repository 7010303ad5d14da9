#!/bin/bash
# analyze -j N reads the trace files of a trial in N threads and says exactly
# what -j 1 (one file after the other) says: the same text, analysis.json,
# diagnostics (with -v, so every warning shows) and exit status, on every
# sample trial and on a trial built to catch a merge that is not exact: a
# copied rank (read apart, then left out as a duplicate), a trace outside
# any run, two damaged ranks whose 30 bad events meet the cap of 20
# messages per code only when counted together, and a gzipped rank.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# Writes a small Kineto trace of rank $1 with $2 events of negative duration.
trace() {
	printf '{"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": %d, "world_size": 4, ' "$1"
	printf '"pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "pg_size": 4, "ranks": [0, 1, 2, 3]}, '
	printf '{"pg_name": "tp%d", "pg_desc": "tp", "pg_size": 1, "ranks": [%d]}]},\n"traceEvents": [\n' "$1" "$1"
	for s in 1 2 3; do
		t=$((s * 1000 + $1))
		printf '{"ph":"X","cat":"kernel","name":"gemm_%d","pid":0,"tid":7,"ts":%d,"dur":500,' $((s % 3)) $((t + 10))
		printf '"args":{"device":0,"stream":7}},\n'
		printf '{"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_bf16_RING_LL","pid":0,"tid":20,'
		printf '"ts":%d,"dur":200,"args":{"device":0,"stream":20,"Process Group Name":"tp%d",' $((t + 600)) "$1"
		printf '"Collective name":"allreduce","In msg nelems":1024,"dtype":"BFloat16"}},\n'
	done
	for b in $(seq 1 "$2"); do
		printf '{"ph":"X","cat":"kernel","name":"bad_%d","pid":0,"tid":7,"ts":%d,"dur":-5,' "$b" $((b + 7000))
		printf '"args":{"device":0,"stream":7}},\n'
	done
	printf '{"ph":"X","cat":"kernel","name":"last","pid":0,"tid":7,"ts":7100,"dur":5,"args":{"device":0,"stream":7}}\n]}\n'
}

cp -rL samples/trials/ddp-scales-well "$tmp/mixed"
trace 2 15 > "$tmp/mixed/2gpu/rank2.json"
trace 3 15 | gzip > "$tmp/mixed/2gpu/rank3.json.gz"
cp "$tmp/mixed/2gpu/rank0.pt.trace.json.gz" "$tmp/mixed/2gpu/rank0copy.pt.trace.json.gz"
trace 5 0 > "$tmp/mixed/top.json"

# Runs analyze -j $2 on trial $1 three ways into $tmp/out.$2.* (more options after)
run() {
	local t=$1 j=$2
	shift 2
	"$SCALEAUDIT" analyze -v -j "$j" "$@" "$t" > "$tmp/out.$j.txt" 2> "$tmp/out.$j.err"
	echo "exit $?" >> "$tmp/out.$j.err"
	"$SCALEAUDIT" analyze --json -j "$j" "$@" "$t" > "$tmp/out.$j.json" 2> /dev/null
}

trials=0
for t in samples/trials/* tests/data/trials/* "$tmp/mixed"; do
	[ -d "$t" ] || continue
	trials=$((trials + 1))
	run "$t" 1
	for j in 2 3; do
		run "$t" "$j"
		for k in txt err json; do
			cmp -s "$tmp/out.1.$k" "$tmp/out.$j.$k" ||
				{ echo "$t: analyze -j $j differs from -j 1 ($k)"; diff "$tmp/out.1.$k" "$tmp/out.$j.$k" | head -5; fail=1; }
		done
	done
done
[ "$trials" -ge 20 ] || { echo "only $trials trials compared"; fail=1; }

# The four sample traces of the built trial cut short by --max-events: one "limit" error each.
run "$tmp/mixed" 1 --max-events 50
for j in 2 3; do
	run "$tmp/mixed" "$j" --max-events 50
	for k in txt err json; do
		cmp -s "$tmp/out.1.$k" "$tmp/out.$j.$k" ||
			{ echo "--max-events 50: -j $j differs from -j 1 ($k)"; fail=1; }
	done
done
# The trial's cap (4 x 50) is reached in file order, as -j 1 reads: the first
# trace is cut by its own cap, the later ones by the trial's (a load whose
# threads reach a cap of the whole trial is read again in turn).
grep -q '1gpu/rank0.pt.trace.json.gz: byte [0-9]*: more than 50 events: the rest is not kept' "$tmp/out.2.err" ||
	{ echo "the first trace is not cut by its own cap at -j 2"; fail=1; }
n=$(grep -c 'pt.trace.json.gz: byte [0-9]*: more than 200 events in the trial: the rest is not kept' "$tmp/out.2.err")
[ "$n" -ge 1 ] || { echo "no trace cut by the trial's cap with --max-events 50"; fail=1; }

# What -j 2 said of the built trial: its warnings, the cap over both damaged ranks.
run "$tmp/mixed" 2
err=$tmp/out.2.err
n=$(grep -c 'warning: event "bad_[0-9]*" has no usable "dur": skipped' "$err")
[ "$n" -eq 20 ] || { echo "$n bad-event warnings shown, expected 20 (the cap)"; fail=1; }
grep -q '/rank3.json.gz: byte [0-9]*: warning: event "bad_5" has' "$err" ||
	{ echo "the 5 of rank 3's warnings under the cap are not shown"; fail=1; }
grep -q '/rank3.json.gz: byte [0-9]*: warning: event "bad_6" has' "$err" &&
	{ echo "rank 3's 6th warning is shown past the cap"; fail=1; }
grep -qx 'scaleaudit: 10 more messages like these were not shown' "$err" ||
	{ echo "the 10 warnings past the cap are not counted"; fail=1; }
grep -q '/rank0copy.pt.trace.json.gz: warning: rank 0 was already read from ".*/rank0.pt.trace.json.gz"' "$err" ||
	{ echo "the copied rank is not named"; fail=1; }
grep -q '/top.json: warning: PyTorch profiler (Kineto) trace at the top of the trial belongs to no run' "$err" ||
	{ echo "the trace outside the runs is not named"; fail=1; }
[ "$(tail -n 1 "$err")" = "exit 0" ] || { echo "analyze -j 2: $(tail -n 1 "$err")"; fail=1; }

# A count that is not one is a usage error.
"$SCALEAUDIT" analyze -j -1 samples/trials/ddp-scales-well > /dev/null 2> "$tmp/neg"
rc=$?
[ $rc -eq 2 ] || { echo "analyze -j -1 exited $rc, expected 2"; fail=1; }
grep -qx "scaleaudit analyze: --jobs: '-1' is not a positive count" "$tmp/neg" ||
	{ echo "analyze -j -1 said: $(head -n 1 "$tmp/neg")"; fail=1; }
exit $fail
