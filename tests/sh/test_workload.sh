#!/bin/bash
# Every sample trial but unrelated-jobs is one job run on fewer GPUs and on
# more, so none may raise the `workload` confound (blocking, warning or
# unverified), and comparison.workload says how that was checked: by the runs'
# kernel families (both overlaps 1, nothing found on one side only: the same
# families on both sides, a precision change (ddp-precision-changed), another
# GPU (gpu-model-mismatch) and a pipeline's layers split over its ranks
# (pipeline-*) included), or, where the kernels cannot say, by the dataset
# and seq_len both run.ini files name: pipeline-oom-feasibility (its 1-GPU
# run died of OOM before any trace), logs-only (no trace at all) and
# unknown-precision (compiled Triton kernels against eager ones).
# unrelated-jobs is two jobs: its workload confound blocks and leads.
set -u
TOP=${TOP:-$(pwd)}
SA=${SCALEAUDIT:-$TOP/scaleaudit}
. "$TOP/tests/skip.sh"
need_tool python3

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for d in "$TOP"/samples/trials/*/; do
	n=$(basename "$d")
	if ! "$SA" analyze --json "$d" > "$tmp/$n.json" 2> "$tmp/$n.err"; then
		echo "FAIL: $n: analyze --json failed: $(head -3 "$tmp/$n.err")"
		fail=1
		continue
	fi
	"$SA" analyze "$d" > "$tmp/$n.txt" 2> /dev/null
	python3 - "$n" "$tmp/$n.json" "$tmp/$n.txt" <<'PY' || fail=1
import json, sys
name, js, txt = sys.argv[1:]
declared = {"pipeline-oom-feasibility", "unknown-precision", "logs-only"}
a = json.load(open(js))
c = a["comparison"]
cf = [x for x in c["confounds"] if x["what"] == "workload"]
w = c.get("workload")
bad = []
if name == "unrelated-jobs":
    if not (cf and cf[0] is c["confounds"][0] and cf[0]["severity"] == "blocking"
            and isinstance(w, dict) and w["basis"] == "kernels"):
        bad.append(f"want a leading blocking workload confound by kernels, got {cf!r}, {w!r}")
elif not isinstance(w, dict):
    bad.append(f"comparison.workload is {w!r}, not an object")
else:
    bad += [f"a {x['severity']} workload confound: {x['message']}" for x in cf]
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
