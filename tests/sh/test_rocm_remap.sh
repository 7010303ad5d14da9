#!/bin/bash
# ROCm captures whose kernels run on device 9 while deviceProperties lists only
# id 0, the MI300X (tests/data/kineto/make-traces.py): with the [memory]
# samples (Device Type 6, HIP) on id 0 and on id 9, analyze --json gives the
# GPU's name, its device as listed, its capacity and its 152.17 GB reserved
# peak, and one device-remapped note naming the trace.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool python3
rc=0
for d in mi300x-remap mi300x-remap-kdev; do
	out=$("$SCALEAUDIT" analyze --json "tests/data/kineto/$d" 2> /dev/null)
	st=$?
	[ $st -eq 0 ] || { echo "$d: analyze exited $st, want 0"; rc=1; continue; }
	printf '%s' "$out" | python3 -c '
import json, sys
d = sys.argv[1]
a = json.load(sys.stdin)
bad = []
gpus = a["runs"][0]["per_gpu"]
want = {"rank": 0, "device": 0, "name": "AMD Instinct MI300X", "memory_total_bytes": 205822885888,
        "peak_memory_bytes": 152170000000, "peak_memory_source": "reserved"}
if len(gpus) != 1:
    bad.append(f"{len(gpus)} GPUs, want 1")
for k, v in want.items():
    if gpus and gpus[0][k] != v:
        bad.append(f"per_gpu[0].{k} is {gpus[0][k]!r}, want {v!r}")
notes = [f for f in a["findings"] if f["code"] == "device-remapped"]
src = f"tests/data/kineto/{d}/mi300x.pt.trace.json"
if [(f["severity"], f["source"]) for f in notes] != [("info", src)]:
    bad.append(f"device-remapped findings: {notes}")
elif "device 9" not in notes[0]["message"] or "device 0 \"AMD Instinct MI300X\"" not in notes[0]["message"]:
    bad.append("message: " + notes[0]["message"])
print("\n".join(d + ": " + b for b in bad) if bad else d + ": ok: the MI300X, its capacity and its reserved peak")
sys.exit(1 if bad else 0)
' "$d" || rc=1
done
exit $rc
