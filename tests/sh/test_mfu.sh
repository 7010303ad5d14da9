#!/bin/bash
# Achieved TFLOP/s and MFU from op shapes against the generator's truth: for
# trials generated in a temp dir, analyze --json's runs[].mfu.flops_per_step,
# mfu.tflops and per_gpu[].tflops equal truth.json's (computed from the
# model's sizes, not from the trace), every matmul second is covered by
# shapes, MFU is step TFLOP/s over the peak, and the text says it.
set -u
TOP=${TOP:-$(pwd)}
SA=${SCALEAUDIT:-$TOP/scaleaudit}
GEN=${SCALEAUDIT_GEN:-$TOP/scaleaudit-gen}
. "$TOP/tests/skip.sh"
need_tool python3

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

for sc in ddp-scales-well ddp-precision-changed unrelated-jobs logs-only; do
	"$GEN" "$sc" -o "$tmp/$sc" >/dev/null 2>&1 || { bad "$sc: generator exited $?"; continue; }
	"$SA" analyze --json "$tmp/$sc" >"$tmp/$sc.json" 2>/dev/null
	"$SA" analyze "$tmp/$sc" >"$tmp/$sc.txt" 2>/dev/null
	python3 - "$tmp/$sc.json" "$tmp/$sc/truth.json" "$tmp/$sc.txt" "$sc" <<'PY' || fail=1
import json, math, sys
a = json.load(open(sys.argv[1])); t = json.load(open(sys.argv[2]))
text = open(sys.argv[3]).read(); sc = sys.argv[4]
ok = True
def bad(msg):
    global ok
    print("FAIL: %s: %s" % (sc, msg)); ok = False
def close(x, y, rel=1e-6):
    return (x is None and y is None) or (x is not None and y is not None and abs(x - y) <= rel * max(1, abs(y)))
truth = {r["name"]: r for r in t["runs"]}
for r in a["runs"]:
    m, tr = r["mfu"], truth[r["name"]]["mfu"]
    if not close(m["flops_per_step"], tr["flops_per_step"]):
        bad("%s flops_per_step %s, truth %s" % (r["name"], m["flops_per_step"], tr["flops_per_step"]))
    if not close(m["tflops"], tr["tflops"]):
        bad("%s tflops %s, truth %s" % (r["name"], m["tflops"], tr["tflops"]))
    got = [g["tflops"] for g in r["per_gpu"] if g["tflops"] is not None]
    if len(got) != len(tr["per_gpu_tflops"]) or not all(close(x, y) for x, y in zip(got, tr["per_gpu_tflops"])):
        bad("%s per_gpu tflops %s, truth %s" % (r["name"], got, tr["per_gpu_tflops"]))
    if tr["flops_per_step"] is None:
        if m["value"] is not None or not m["reason"]:
            bad("%s: no shapes, yet mfu %s, reason %s" % (r["name"], m["value"], m["reason"]))
        continue
    if m["covered_share"] != 1:
        bad("%s covered_share %s, want 1" % (r["name"], m["covered_share"]))
    step = r["step_time_s"]["median"]
    want = m["flops_per_step"] / r["gpus"] / step / 1e12
    # the generator's head linear runs faster than the GPU's peak: op-above-peak, and MFU unknown
    above = [f for f in a["findings"] if f["code"] == "op-above-peak" and f["message"].startswith("run '%s': aten::linear " % r["name"])]
    want_value = None if above else want / m["peak_tflops"]
    if not close(m["step_tflops"], want) or not close(m["value"], want_value):
        bad("%s step_tflops %s value %s, want %s, %s" % (r["name"], m["step_tflops"], m["value"], want, want_value))
    if m["dtype"] != r["precision"]["observed"] or m["source"] != "trace-shapes":
        bad("%s dtype %s source %s" % (r["name"], m["dtype"], m["source"]))
    line = ("  %s: MFU unknown: an op computed faster than the GPU's peak (op-above-peak)" % r["name"] if above else
            "  %s: MFU %d%% (" % (r["name"], round(100 * m["value"])))
    if line not in text:
        bad("text has no line starting %r" % line)
    if above and m["reason"] != "an op computed faster than the GPU's peak (op-above-peak): kernel times or shapes are wrong":
        bad("%s mfu reason %r" % (r["name"], m["reason"]))
sys.exit(0 if ok else 1)
PY
done
# a trial without traces: no line, mfu unknown with its reason
python3 -c "
import json,sys
r=json.load(open('$tmp/logs-only.json'))['runs'][0]['mfu']
sys.exit(0 if r['value'] is None and r['reason']=='no trace with GPU kernels' else 1)" || bad "logs-only: mfu not unknown with a reason"
grep -q 'MFU' "$tmp/logs-only.txt" && bad "logs-only: the text speaks of MFU without traces"
# summary.md's key numbers carry each run's MFU line and each GPU's idle by cause as analyze words them
"$SA" report "$tmp/ddp-scales-well" -o "$tmp/rep" >/dev/null 2>&1 || bad "report failed"
for run in 1gpu 2gpu; do
	line=$(grep "^  $run: MFU" "$tmp/ddp-scales-well.txt" | sed 's/^  //')
	[ -n "$line" ] && grep -qxF -- "- $line" "$tmp/rep/summary.md" || bad "summary.md lacks '- $line'"
	idle=$(grep "^  $run GPU 0: host" "$tmp/ddp-scales-well.txt" | sed "s/^  $run GPU 0: //")
	[ -n "$idle" ] && grep -qE -- "^- $run GPU 0: idle [0-9.]+ ms per step, by cause \(ms\): $idle\$" "$tmp/rep/summary.md" ||
		bad "summary.md lacks $run GPU 0's idle by cause ($idle)"
done
exit $fail
