#!/bin/bash
# The per-op and per-kernel diff (comparison.diff) against tests/diff_check.py,
# which computes the same rows from the Kineto JSON alone: on samples (NCCL
# over sockets, a precision change whose GEMMs must be one family row, a
# 2-GPU baseline against 4 GPUs) and on real traces built into trials here
# (HTA's two sampled TorchRec ranks: one rank against both; two DLRM ranks
# against one). Exact to 1e-9 s. A trial without traces has no diff and says why.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# check NAME TRIAL BASE-TRACES CAND-TRACES B-GPUS C-GPUS: analyze --json against the script.
check() {
	local name=$1 trial=$2
	"$SCALEAUDIT" analyze --json "$trial" > "$tmp/$name.json" 2> "$tmp/$name.err" ||
		{ echo "FAIL: $name: analyze exited $?: $(head -3 "$tmp/$name.err")"; fail=1; return; }
	python3 tests/diff_check.py "$3" "$4" "$5" "$6" "$tmp/$name.json" > "$tmp/$name.out" ||
		{ echo "FAIL: $name:"; cat "$tmp/$name.out"; fail=1; return; }
	echo "$name: $(cat "$tmp/$name.out")"
}

traces() { ls "$1"/*trace* | paste -sd, -; }

s=samples/trials
check nccl-over-sockets $s/nccl-over-sockets "$(traces $s/nccl-over-sockets/1gpu)" \
	"$(traces $s/nccl-over-sockets/2gpu)" 1 2
check ddp-precision-changed $s/ddp-precision-changed "$(traces $s/ddp-precision-changed/1gpu)" \
	"$(traces $s/ddp-precision-changed/2gpu)" 1 2
check ddp-2-vs-4 $s/ddp-2-vs-4 "$(traces $s/ddp-2-vs-4/2gpu)" "$(traces $s/ddp-2-vs-4/4gpu)" 2 4

# What the samples are known to show, so that a script agreeing with a wrong tool still fails.
python3 - "$tmp" <<'PY' || fail=1
import json, sys
tmp, bad = sys.argv[1], []
def diff(name):
    return json.load(open(f"{tmp}/{name}.json"))["comparison"]["diff"]
def row(d, kind, name):
    return next((r for r in d["rows"] if r["kind"] == kind and r["name"] == name), None)
d = diff("nccl-over-sockets")
top = [r for r in d["rows"] if r["kind"] == "kernel"][0]
if not top["name"].startswith("ncclDevKernel_AllReduce") or top["baseline"]["calls"] != 0 \
        or top["candidate"]["calls"] != 14 or top["baseline"]["mean_s"] is not None:
    bad.append(f"nccl-over-sockets: first kernel row {top['name']!r} {top['baseline']} {top['candidate']}")
# bf16 GEMMs on 2 GPUs against fp32 on 1: one `gemm` row, 40 calls a step on 1 GPU, 80 on 2
g = row(diff("ddp-precision-changed"), "kernel", "gemm")
if not g or g["baseline"]["calls"] != 40 or g["candidate"]["calls"] != 80:
    bad.append(f"ddp-precision-changed: gemm row {g!r}")
# 2 GPUs against 4: counted per 2 GPUs, the candidate's calls are twice its per-GPU calls
d = diff("ddp-2-vs-4")
m = row(d, "op", "aten::mm")
if d["per"] != "step" or not m or m["baseline"]["calls"] != 27 or m["candidate"]["calls"] != 54:
    bad.append(f"ddp-2-vs-4: aten::mm row {m!r}")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

# --diff from the analysis.json it wrote: the same tables, read back.
"$SCALEAUDIT" analyze --diff $s/ddp-2-vs-4 | sed -n '/^Per-op diff/,$p' > "$tmp/trial.txt"
"$SCALEAUDIT" analyze --diff "$tmp/ddp-2-vs-4.json" | sed -n '/^Per-op diff/,$p' > "$tmp/json.txt"
if [ "$(wc -l < "$tmp/trial.txt")" -lt 20 ] || ! cmp -s "$tmp/trial.txt" "$tmp/json.txt"; then
	echo "FAIL: analyze --diff of ddp-2-vs-4 and of its analysis.json differ:"
	diff "$tmp/trial.txt" "$tmp/json.txt" | head -10
	fail=1
fi

# No trace on either side: no diff, and why.
"$SCALEAUDIT" analyze --json $s/logs-only > "$tmp/logs.json" 2>/dev/null
python3 - "$tmp/logs.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))["comparison"]["diff"]
want = "neither run has a trace, so no op or kernel can be compared"
if d["per"] is not None or d["rows"] or d["why"] != want:
    print(f"FAIL: logs-only: diff {d!r}")
    sys.exit(1)
PY

# trial NAME B-GPUS C-GPUS BASE-TRACES CAND-TRACES: real traces as a trial, checked
# (the GPU counts: what the traces' distributedInfo says).
trial() {
	local name=$1 f
	mkdir -p "$tmp/$name/base" "$tmp/$name/cand"
	printf '[trial]\ntitle = %s\nhypothesis = step-time\nbaseline = base\n' "$name" > "$tmp/$name/trial.ini"
	printf '[run]\nname = base\n' > "$tmp/$name/base/run.ini"
	printf '[run]\nname = cand\n' > "$tmp/$name/cand/run.ini"
	for f in ${4//,/ }; do ln -s "$f" "$tmp/$name/base/"; done
	for f in ${5//,/ }; do ln -s "$f" "$tmp/$name/cand/"; done
	check "$name" "$tmp/$name" "$4" "$5" "$2" "$3"
}

if [ -n "${SHARED:-}" ]; then
	k=$SHARED/realdata/kineto_trace/hta__trace_filter__sampled_rank
	# the traces say the job ran on 128 GPUs (distributedInfo): n = 1,
	# each side the mean of its traced ranks
	trial torchrec-1-vs-2 128 128 "$k-0.json.gz" "$k-0.json.gz,$k-1.json.gz"
	d=$SHARED/realdata/kineto_multirank/param_dlrm_8xV100
	w0=$(ls $d/worker0_*); w1=$(ls $d/worker1_*)
	trial dlrm-2-vs-1 8 8 "$w0,$w1" "$w0"	# 8 GPUs, as the traces say
else
	echo "real traces: ../shared is absent, not checked"
fi
exit $fail
