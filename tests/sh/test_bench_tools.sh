#!/bin/bash
# The benchmark's own tools give true numbers (docs/bench.md):
# - bench/floor counts the objects in traceEvents and the uncompressed bytes: on a
#   generated trace both are computed again with python's json module and len();
#   on the real traces the counts are known answers (python: len(json.load(...)["traceEvents"]),
#   bytes: zcat | wc -c); --inflate counts the same bytes and no events (-1); --scan
#   (the tool's tokenizer) the same events and bytes; a trace cut short fails with
#   status 1 (--scan too), a usage error with 2;
# - make_trace.py writes the same bytes twice for one seed, and its trial is
#   analysed as it was written: the steps it reports, one run per GPU count;
# - SCALEAUDIT_TIMING=1 adds exactly one line to stderr, and nothing without it.
set -u
. tests/skip.sh
need_tool python3
floor=$TOP/$BUILD/bench/floor
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# A small generated trial, twice with one seed.
out=$(python3 tests/bench/make_trace.py "$tmp/a" --ranks 2 --mb 2 --seed 5) || fail "make_trace.py failed"
python3 tests/bench/make_trace.py "$tmp/b" --ranks 2 --mb 2 --seed 5 > /dev/null
for f in 1gpu/rank0 2gpu/rank0 2gpu/rank1; do
	cmp -s "$tmp/a/$f.pt.trace.json" "$tmp/b/$f.pt.trace.json" || fail "$f differs between two runs of one seed"
done
[[ $out =~ 2\ x\ ([0-9]+)\ steps,\ baseline\ 1\ x\ ([0-9]+)\ steps ]] || fail "make_trace.py said: $out"
steps=${BASH_REMATCH[1]} base=${BASH_REMATCH[2]}
"$SCALEAUDIT" analyze --json "$tmp/a" > "$tmp/a.json" || fail "analyze of the generated trial failed"
python3 - "$tmp/a.json" "$base" "$steps" <<'PY' || exit 1
import json, sys
a = json.load(open(sys.argv[1]))
got = [(r["name"], r["gpus"], r["steps"]["total"]) for r in a["runs"]]
want = [("1gpu", 1, int(sys.argv[2])), ("2gpu", 2, int(sys.argv[3]))]
if got != want:
    sys.exit(f"FAIL: runs {got}, want {want}")
PY

# The floor on the generated trace, plain and gzipped, against python's count.
f=$tmp/a/2gpu/rank1.pt.trace.json
want=$(python3 -c 'import json, os, sys; print(len(json.load(open(sys.argv[1]))["traceEvents"]), os.path.getsize(sys.argv[1]))' "$f")
gzip -c "$f" > "$f.gz"
for input in "$f" "$f.gz"; do
	for chunk in 1048576 4096 7; do
		for scan in "" --scan; do
			got=$("$floor" $scan --chunk $chunk "$input") || fail "floor $scan $input exited $?"
			[[ $got =~ ^events\ ([0-9]+)\ bytes\ ([0-9]+)\ seconds\ [0-9.]+$ ]] || fail "floor said: $got"
			[ "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}" = "$want" ] ||
				fail "floor $scan --chunk $chunk $input: $got, want events and bytes $want"
		done
	done
	got=$("$floor" --inflate "$input")
	[[ $got == "events -1 bytes ${want#* } seconds "* ]] || fail "floor --inflate $input: $got"
done
head -c 100000 "$f" > "$tmp/cut.json"
"$floor" "$tmp/cut.json" > /dev/null 2>&1; [ $? -eq 1 ] || fail "a cut trace did not exit 1"
"$floor" --scan "$tmp/cut.json" > /dev/null 2>&1; [ $? -eq 1 ] || fail "a cut trace did not exit 1 (--scan)"
"$floor" --scan --inflate "$f" > /dev/null 2>&1; [ $? -eq 2 ] || fail "--scan with --inflate did not exit 2"
"$floor" > /dev/null 2>&1; [ $? -eq 2 ] || fail "no file did not exit 2"

# SCALEAUDIT_TIMING: one line, and none without it.
trial=samples/trials/ddp-scales-well
SCALEAUDIT_TIMING=1 "$SCALEAUDIT" analyze "$trial" > /dev/null 2> "$tmp/err" || fail "analyze failed"
grep -Eqx "scaleaudit: timing: $trial: read [0-9]+\.[0-9]{3} s, analysis [0-9]+\.[0-9]{3} s" "$tmp/err" &&
	[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "SCALEAUDIT_TIMING=1 wrote: $(cat "$tmp/err")"
"$SCALEAUDIT" analyze "$trial" > /dev/null 2> "$tmp/err"
[ ! -s "$tmp/err" ] || fail "without SCALEAUDIT_TIMING, stderr has: $(cat "$tmp/err")"

# Known answers on the real traces.
need_shared
while read -r name events bytes; do
	got=$("$floor" "$SHARED/realdata/kineto_trace/$name") || fail "floor $name exited $?"
	[[ $got == "events $events bytes $bytes seconds "* ]] || fail "floor $name: $got, want $events events $bytes bytes"
done <<'EOF'
hta__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz 220 66897
hta__nccl_parser_config__nccl_data.json.gz 40573 9778890
hta__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz 68692 15377659
hta__trace_filter__sampled_rank-0.json.gz 4855 1759570
hta__trace_compare__base__base.json.gz 33 11239
EOF
echo ok
