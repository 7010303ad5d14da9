#!/bin/bash
# No sample trial is two jobs: each is one job run on 1 GPU and on more, so
# none may raise the `workload` confound (blocking, warning or unverified),
# and comparison.workload says how that was checked: by the runs' kernel
# families (both overlaps 1, nothing found on one side only: the same
# families on both sides, a precision change (ddp-precision-changed), another
# GPU (gpu-model-mismatch) and a pipeline's layers split over its ranks
# (pipeline-*) included), or, where the kernels cannot say, by the dataset
# and seq_len both run.ini files name: pipeline-oom-feasibility (its 1-GPU
# run died of OOM before any trace) and unknown-precision (compiled Triton
# kernels against eager ones).
set -u
TOP=${TOP:-$(pwd)}
SA=${SCALEAUDIT:-$TOP/scaleaudit}
. "$TOP/tests/skip.sh"
need_tool python3

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
samples="clock-offset ddp-global-batch-changed ddp-precision-changed ddp-scales-well
expected-speedup-missed fsdp-allgather gpu-bound-lag gpu-model-mismatch hparam-sweep-distributed
hparam-sweep-independent nccl-over-sockets pipeline-bubble pipeline-oom-feasibility short-capture
unknown-precision"
fail=0
for n in $samples; do
	d=$TOP/samples/trials/$n
	if ! "$SA" analyze --json "$d" > "$tmp/$n.json" 2> "$tmp/$n.err"; then
		echo "FAIL: $n: analyze --json failed: $(head -3 "$tmp/$n.err")"
		fail=1
		continue
	fi
	"$SA" analyze "$d" > "$tmp/$n.txt" 2> /dev/null
	python3 - "$n" "$tmp/$n.json" "$tmp/$n.txt" <<'PY' || fail=1
import json, sys
name, js, txt = sys.argv[1:]
declared = {"pipeline-oom-feasibility", "unknown-precision"}
a = json.load(open(js))
c = a["comparison"]
bad = [f"a {x['severity']} workload confound: {x['message']}" for x in c["confounds"]
       if x["what"] == "workload"]
w = c.get("workload")
if not isinstance(w, dict):
    bad.append(f"comparison.workload is {w!r}, not an object")
else:
    want = "declared" if name in declared else "kernels"
    if w["basis"] != want:
        bad.append(f"basis {w['basis']!r}, want {want!r}")
    for side in ("baseline", "candidate"):
        o = w[side + "_overlap"]
        if want == "kernels" and (not isinstance(o, (int, float)) or abs(o - 1) > 1e-9):
            bad.append(f"{side}_overlap {o!r}, want 1")
        if want == "declared" and o is not None:
            bad.append(f"{side}_overlap {o!r}, want null")
        if w[side + "_only"]:
            bad.append(f"{side}_only {w[side + '_only']!r}, want []")
if "] workload:" in open(txt).read():
    bad.append("the analyze text lists a workload confound")
for b in bad:
    print(f"FAIL: {name}: {b}")
sys.exit(1 if bad else 0)
PY
done
exit $fail
