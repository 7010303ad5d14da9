#!/bin/bash
# A trial made only of Nsight Systems summary reports, as console tables
# (tests/data/trials/nsys-stats-only, hand-made in the real tables' layout)
# and as `nsys stats --format csv` files of the same numbers (nsys-csv-only):
# the step time is the median of the NVTX range ':train_step' (400 ms on
# 1 GPU, 220 ms on 2), so the speedup is 400/220; GPU time by class comes
# from the kernel and memory tables' totals; a note says where the numbers
# come from and what they lack. Both forms give the same analysis, but for
# the trial's title and the files read.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for t in nsys-stats-only nsys-csv-only; do
	"$SCALEAUDIT" analyze --json "tests/data/trials/$t" > "$tmp/$t.json" 2> /dev/null || exit 1
done
python3 - "$tmp/nsys-stats-only.json" "$tmp/nsys-csv-only.json" <<'PY'
import json, sys
bad = []
def want(what, got, exp, tol=1e-9):
    if got is None or abs(got - exp) > tol * max(1, abs(exp)):
        bad.append(f"{what}: got {got}, want {exp}")
def check(tag, a):
    c = a["comparison"]
    want(tag + " speedup", c["speedup"], 400 / 220)
    for name, med, comp, comm in (("1gpu", 0.4, 7.2, 0.0), ("2gpu", 0.22, 7.2, 0.8)):
        r = next(x for x in a["runs"] if x["name"] == name)
        want(tag + name + " step median", r["step_time_s"]["median"], med)
        want(tag + name + " samples/s", r["throughput"]["samples_per_s"], 32 / med)
        if r["step_time_s"]["source"] != "nsys-nvtx":
            bad.append(tag + name + ": step time source " + repr(r["step_time_s"]["source"]))
        if r["status"] != "completed" or r["steps"]["measured"] != 20:
            bad.append(tag + name + ": status " + r["status"] + ", steady steps " + str(r["steps"]["measured"]))
        t = r["nsys_tables"]
        want(tag + name + " compute_s", t["compute_s"], comp)
        want(tag + name + " comm_s", t["comm_s"], comm)
        want(tag + name + " memory_s", t["memory_s"], 0.02)
        if t["step_range"] != ":train_step":
            bad.append(tag + name + ": step range " + repr(t["step_range"]))
    notes = [f for f in a["findings"] if f["code"] == "nsys-timing"]
    if len(notes) != 2:
        bad.append(f"{tag}{len(notes)} nsys-timing notes, want 2")
    if c["verdict"] != "confirmed":
        bad.append(tag + "verdict " + str(c["verdict"]))
def same_but_files(x):
    x = dict(x)
    x.pop("sources", None)
    return x
tables, csv = (json.load(open(p)) for p in sys.argv[1:3])
check("tables: ", tables)
check("csv: ", csv)
if tables["comparison"] != csv["comparison"]:
    bad.append("the comparisons differ")
for x, y in zip(tables["runs"], csv["runs"]):
    if same_but_files(x) != same_but_files(y):
        bad.append("run " + x["name"] + " differs between tables and CSV")
if [f["message"] for f in tables["findings"]] != [f["message"] for f in csv["findings"]]:
    bad.append("the findings differ")
print("\n".join(bad) if bad else "ok: Nsight summary reports alone, as tables or CSV, give the same speedup")
sys.exit(1 if bad else 0)
PY
