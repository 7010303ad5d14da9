#!/bin/bash
# Achieved TFLOP/s on real traces: the 8 ranks of a Megatron tensor-parallel
# job on A100s (fp16 mm, bmm and baddbmm with recorded shapes) give, per GPU,
# what tests/realdata_flops.py computes from the trace JSON alone (FLOPs of
# the shaped matmul ops over their GEMM kernels' time), to 1e-9; every
# matmul's time is covered by shapes, and MFU is unknown for want of a step.
set -u
. tests/skip.sh
need_shared
need_tool python3
src=$SHARED/realdata/kineto_multirank/astrasim_megatron_tp8_8xA100
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/t/megatron"
for f in "$src"/megatron_kineto_*.json.gz; do ln -s "$f" "$tmp/t/megatron/"; done
python3 tests/realdata_flops.py "$src"/megatron_kineto_*.json.gz > "$tmp/want.jsonl" ||
	{ echo "tests/realdata_flops.py failed"; exit 1; }
"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/out.json" 2> "$tmp/err" ||
	{ echo "analyze exited $?"; cat "$tmp/err"; exit 1; }
python3 - "$tmp/out.json" "$tmp/want.jsonl" <<'PY'
import json, re, sys
run = json.load(open(sys.argv[1]))["runs"][0]
want = {int(re.search(r"_(\d+)\.json", w["file"]).group(1)): w for w in map(json.loads, open(sys.argv[2]))}
bad = []
got = {g["rank"]: g["tflops"] for g in run["per_gpu"]}
if sorted(got) != sorted(want):
    bad.append(f"ranks {sorted(got)}, want {sorted(want)}")
for rank, w in sorted(want.items()):
    g = got.get(rank)
    if g is None or abs(g - w["tflops"]) > 1e-9 * w["tflops"]:
        bad.append(f"rank {rank}: {g} TFLOP/s, the script {w['tflops']}")
m = run["mfu"]
if m["covered_share"] != 1 or m["dtype"] != "fp16" or m["peak_tflops"] != 312 or m["value"] is not None:
    bad.append(f"mfu: covered {m['covered_share']}, dtype {m['dtype']}, peak {m['peak_tflops']}, value {m['value']}")
if not m["reason"] or "no steady step" not in m["reason"]:
    bad.append(f"mfu reason: {m['reason']!r}")
for b in bad:
    print(b)
print(f"ok ({len(want)} ranks, rank 0 {want[0]['tflops']:.1f} TFLOP/s)" if not bad else f"{len(bad)} failed")
sys.exit(1 if bad else 0)
PY
