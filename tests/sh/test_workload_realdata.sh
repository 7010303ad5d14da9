#!/bin/bash
# Workload identity on real traces of ../shared/realdata, built into trials
# here: two unrelated jobs are a blocking `workload` confound and an
# inconclusive verdict led by it (Megatron-LM TP8 on A100 against DLRM on
# V100, each way round; HTA's ResNet-like V100 capture against its sampled
# TorchRec ranks), and the same job on both sides is not (a DLRM rank against
# two of its job's ranks; a TorchRec rank against two). Both overlaps and the
# families found on one side only must equal what tests/realdata_workload.py
# computes from the trace JSON alone, to 0.001.
set -u
. tests/skip.sh
need_shared
need_tool python3
m=$SHARED/realdata/kineto_multirank/astrasim_megatron_tp8_8xA100
d=$SHARED/realdata/kineto_multirank/param_dlrm_8xV100
k=$SHARED/realdata/kineto_trace
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# trial NAME BLOCKS 1GPU-TRACES 2GPU-TRACES: a trial of the two runs, checked.
trial() {
	local name=$1 blocks=$2 base=$3 cand=$4 f
	mkdir -p "$tmp/$name/1gpu" "$tmp/$name/2gpu"
	printf '[trial]\ntitle = %s\nhypothesis = step-time\nbaseline = 1gpu\n' "$name" > "$tmp/$name/trial.ini"
	for f in ${base//,/ }; do ln -s "$f" "$tmp/$name/1gpu/"; done
	for f in ${cand//,/ }; do ln -s "$f" "$tmp/$name/2gpu/"; done
	python3 tests/realdata_workload.py "$base" "$cand" > "$tmp/$name.want" ||
		{ echo "FAIL: $name: tests/realdata_workload.py failed"; fail=1; return; }
	"$SCALEAUDIT" analyze --json "$tmp/$name" > "$tmp/$name.json" 2> "$tmp/$name.err" ||
		{ echo "FAIL: $name: analyze exited $?: $(head -3 "$tmp/$name.err")"; fail=1; return; }
	python3 - "$name" "$blocks" "$tmp/$name.json" "$tmp/$name.want" <<'PY' || fail=1
import json, sys
name, blocks, got_file, want_file = sys.argv[1:]
blocks = blocks == "blocks"
a, want = json.load(open(got_file)), json.load(open(want_file))
c, bad = a["comparison"], []
w = c["workload"] or {}
if w.get("basis") != "kernels":
    bad.append(f"basis {w.get('basis')!r}, want 'kernels'")
for side in ("baseline", "candidate"):
    got, exp = w.get(side + "_overlap"), want[side]["overlap"]
    if not isinstance(got, (int, float)) or abs(got - exp) > 0.001:
        bad.append(f"{side}_overlap {got!r}, want {exp:.6f}")
    g = [(o["family"], round(o["share"], 3)) for o in w.get(side + "_only", [])]
    e = [(o["family"], round(o["share"], 3)) for o in want[side]["only"]]
    if g != e:
        bad.append(f"{side}_only {g!r}, want {e!r}")
# what the independent overlaps say must be what the test expects, so that it can fail
low = min(want["baseline"]["overlap"], want["candidate"]["overlap"]) < 0.5
if low != blocks:
    bad.append(f"realdata_workload.py's overlaps {want['baseline']['overlap']:.3f} and "
               f"{want['candidate']['overlap']:.3f} do not {'block' if blocks else 'pass'}")
cf = [x for x in c["confounds"] if x["what"] == "workload"]
if blocks:
    if not cf or cf[0] is not c["confounds"][0] or cf[0]["severity"] != "blocking":
        bad.append(f"workload is not the first, blocking confound: {[x['what'] for x in c['confounds']]}")
    if c["verdict"] != "inconclusive" or not c["reason"].startswith("the runs differ in workload ("):
        bad.append(f"verdict {c['verdict']!r}: {c['reason']!r}")
    elif not all(o["family"] in c["reason"] for s in ("baseline", "candidate") for o in want[s]["only"][:2]):
        bad.append(f"the reason does not name the two largest families found on one side only: {c['reason']!r}")
elif cf:
    bad.append(f"a {cf[0]['severity']} workload confound: {cf[0]['message']}")
for b in bad:
    print(f"FAIL: {name}: {b}")
sys.exit(1 if bad else 0)
PY
}

dlrm01=$d/worker0_step_12.1694128201545.pt.trace.json.gz,$d/worker1_step_12.1694128201556.pt.trace.json.gz
trial megatron-dlrm blocks "$m/megatron_kineto_0.json.gz" "$dlrm01"
trial dlrm-megatron blocks "$d/worker0_step_12.1694128201545.pt.trace.json.gz" \
	"$m/megatron_kineto_0.json.gz,$m/megatron_kineto_1.json.gz"
trial dlrm-dlrm passes "$d/worker0_step_12.1694128201545.pt.trace.json.gz" "$dlrm01"
trial resnet-torchrec blocks "$k/hta__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" \
	"$k/hta__trace_filter__sampled_rank-0.json.gz,$k/hta__trace_filter__sampled_rank-1.json.gz"
trial torchrec-torchrec passes "$k/hta__trace_filter__sampled_rank-0.json.gz" \
	"$k/hta__trace_filter__sampled_rank-0.json.gz,$k/hta__trace_filter__sampled_rank-1.json.gz"
exit $fail
