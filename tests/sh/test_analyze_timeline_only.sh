#!/bin/bash
# A trial made only of PyTorch memory timelines (tests/data/trials/
# timeline-only, hand-made raw timelines): analyze exits 0 and gives each
# GPU's memory by category at its peak (1 GPU: 18 GB = 2 parameters + 4
# optimizer state + 10 activations + 2 gradients; 2 GPUs: 13 and 14 GB),
# every step number null, a timeline-only note per run, and no verdict.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool python3
out=$("$SCALEAUDIT" analyze --json tests/data/trials/timeline-only 2> /dev/null)
rc=$?
[ $rc -eq 0 ] || { echo "analyze exited $rc, want 0"; exit 1; }
printf '%s' "$out" | python3 -c '
import json, sys
a = json.load(sys.stdin)
bad = []
G = 10**9
want = {"1gpu": [(2, 4, 10, 2)], "2gpu": [(2, 4, 5, 2), (2, 4, 6, 2)]}
for r in a["runs"]:
    name = r["name"]
    gpus = r["per_gpu"]
    if len(gpus) != len(want[name]):
        bad.append(f"{name}: {len(gpus)} GPUs")
        continue
    for g, (par, opt, act, grad) in zip(gpus, want[name]):
        at, rank, peak = g["timeline_at_peak_bytes"], g["rank"], g["timeline_peak_bytes"]
        got = (at["parameter"], at["optimizer_state"], at["activation"], at["gradient"])
        if got != (par * G, opt * G, act * G, grad * G):
            bad.append(f"{name} GPU {rank}: at peak {got}")
        if peak != (par + opt + act + grad) * G:
            bad.append(f"{name} GPU {rank}: peak {peak}")
    for k, v in r["step_time_s"].items():
        if v is not None:
            bad.append(f"{name}: step_time_s.{k} is {v}")
    if r["throughput"]["samples_per_s"] is not None or r["steps"]["total"] is not None:
        bad.append(name + ": throughput or steps given")
    if r["status"] != "unknown":
        bad.append(name + ": status " + r["status"])
notes = [f for f in a["findings"] if f["code"] == "timeline-only"]
if len(notes) != 2:
    bad.append(f"{len(notes)} timeline-only notes, want 2")
c = a["comparison"]
if c["speedup"] is not None or c["verdict"] != "inconclusive":
    bad.append("speedup " + str(c["speedup"]) + ", verdict " + str(c["verdict"]))
print("\n".join(bad) if bad else "ok: memory timelines alone give memory by category and no step numbers")
sys.exit(1 if bad else 0)
'
