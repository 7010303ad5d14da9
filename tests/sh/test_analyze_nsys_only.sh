#!/bin/bash
# A trial made only of Nsight Systems console tables (tests/data/trials/
# nsys-stats-only, hand-made in the real tables' layout): the step time is the
# median of the NVTX range ':train_step' (400 ms on 1 GPU, 220 ms on 2), so the
# speedup is 400/220; GPU time by class comes from the kernel and memory
# tables' totals; a note says where the numbers come from and what they lack.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool python3
"$SCALEAUDIT" analyze --json tests/data/trials/nsys-stats-only 2> /dev/null | python3 -c '
import json, sys
a = json.load(sys.stdin)
bad = []
def want(what, got, exp, tol=1e-9):
    if got is None or abs(got - exp) > tol * max(1, abs(exp)):
        bad.append(f"{what}: got {got}, want {exp}")
c = a["comparison"]
want("speedup", c["speedup"], 400 / 220)
for name, med, comp, comm in (("1gpu", 0.4, 7.2, 0.0), ("2gpu", 0.22, 7.2, 0.8)):
    r = next(x for x in a["runs"] if x["name"] == name)
    want(name + " step median", r["step_time_s"]["median"], med)
    want(name + " samples/s", r["throughput"]["samples_per_s"], 32 / med)
    if r["step_time_s"]["source"] != "nsys-nvtx":
        bad.append(name + ": step time source " + repr(r["step_time_s"]["source"]))
    if r["status"] != "completed" or r["steps"]["measured"] != 20:
        bad.append(name + ": status " + r["status"] + ", steady steps " + str(r["steps"]["measured"]))
    t = r["nsys_tables"]
    want(name + " compute_s", t["compute_s"], comp)
    want(name + " comm_s", t["comm_s"], comm)
    want(name + " memory_s", t["memory_s"], 0.02)
    if t["step_range"] != ":train_step":
        bad.append(name + ": step range " + repr(t["step_range"]))
notes = [f for f in a["findings"] if f["code"] == "nsys-timing"]
if len(notes) != 2:
    bad.append(f"{len(notes)} nsys-timing notes, want 2")
if c["verdict"] != "confirmed":
    bad.append("verdict " + str(c["verdict"]))
print("\n".join(bad) if bad else "ok: a trial of Nsight summary tables alone gives its speedup")
sys.exit(1 if bad else 0)
'
