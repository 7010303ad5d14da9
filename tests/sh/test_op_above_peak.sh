#!/bin/bash
# op-above-peak: an op whose shapes say it computed faster than its GPU's
# dense peak. On traces written here for one A100 (bf16 peak 312 TFLOP/s,
# tf32 156, fp32 19.5): a bf16 8192^3 mm of 1.0995e12 FLOPs in 3 ms (366.5
# TFLOP/s) raises it, naming the op, shapes, TFLOP/s and peak, and its MFU is
# unknown for that reason; the same in 4 ms (274.9) does not; a float mm at
# 100 TFLOP/s is under the TF32 peak it may have run at, so does not. The
# committed ddp-scales-well sample does not raise it: every op of its
# roofline is under the B200's 2250 TFLOP/s, and its MFU is known.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp" <<'PY' || exit 1
import json, os, sys
def trace(path, dtype, dur_us):
    n = 8192
    ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100, "dur": 50,
           "args": {"External id": 1, "Input Dims": [[n, n], [n, n]], "Input type": [dtype, dtype]}},
          {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 110,
           "dur": 5, "args": {"correlation": 7}},
          {"ph": "X", "cat": "kernel", "name": "ampere_bf16_s16816gemm_bf16_256x128_ldg8_f2f_stages_64x3_nn",
           "pid": 0, "tid": 7, "ts": 200, "dur": dur_us, "args": {"correlation": 7, "device": 0, "stream": 7}}]
    os.makedirs(os.path.dirname(path))
    json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85899345920,
                                     "computeMajor": 8, "computeMinor": 0, "numSms": 108}],
               "traceEvents": ev}, open(path, "w"))
d = sys.argv[1]
trace(d + "/above/run/trace.json", "c10::BFloat16", 3000)
trace(d + "/below/run/trace.json", "c10::BFloat16", 4000)
trace(d + "/float/run/trace.json", "float", 10995)
PY
fail=0
for t in above below float; do
	"$SCALEAUDIT" analyze --json "$tmp/$t" > "$tmp/$t.json" 2> "$tmp/err" ||
		{ echo "$t: analyze exited $?"; cat "$tmp/err"; fail=1; }
done
"$SCALEAUDIT" analyze --json samples/trials/ddp-scales-well > "$tmp/sample.json" 2> "$tmp/err" ||
	{ echo "sample: analyze exited $?"; fail=1; }
python3 - "$tmp" <<'PY' || fail=1
import json, sys
d = sys.argv[1]
bad = []
def found(name):
    a = json.load(open(f"{d}/{name}.json"))
    return a, [f for f in a["findings"] if f["code"] == "op-above-peak"]
a, f = found("above")
want = ("run 'run': aten::mm [[8192,8192],[8192,8192]] (bf16) computed 367 TFLOP/s by its recorded shapes over "
        "its kernel time, above the A100 SXM4 80GB's dense bf16 peak of 312 TFLOP/s: its kernel time or its "
        "shapes are wrong, so the run's MFU is not evidence and is left unknown")
if [x["message"] for x in f] != [want] or f[0]["severity"] != "warning":
    bad.append(f"above: {f}")
m = a["runs"][0]["mfu"]
if m["value"] is not None or "op-above-peak" not in (m["reason"] or "") or abs(m["tflops"] - 2 * 8192**3 / 3e-3 / 1e12) > 1e-6:
    bad.append(f"above: mfu {m}")
for name in ("below", "float"):
    a, f = found(name)
    if f or "op-above-peak" in (a["runs"][0]["mfu"]["reason"] or ""):
        bad.append(f"{name}: {f}, reason {a['runs'][0]['mfu']['reason']}")
a, f = found("sample")
if f:
    bad.append(f"sample: {f}")
for r in a["runs"]:
    top = max(o["tflops"] for o in r["mfu"]["ops"])
    if not 0 < top < 2250 or r["mfu"]["value"] is None or r["mfu"]["reason"] is not None:
        bad.append(f"sample {r['name']}: fastest op {top} TFLOP/s, mfu {r['mfu']['value']}, {r['mfu']['reason']}")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
exit $fail
