#!/bin/bash
# A capture without any ProfilerStep, alone in its trial (tests/data/cli/
# b200-no-steps, written by tests/data/kineto/make-traces.py with a known
# partition): analyze, report and batch take it as a run with no step time.
# analyze --json: the span's partition (7.5 ms: compute 5.4, memory 1.0, idle
# 1.1, memory_total 1.5, kernel_busy 6.4), no step time, the no-step-windows
# warning; report writes its pages and says the run has no step time, and the
# analysis.json it wrote is analysed again; batch counts the trial ok.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool python3
trial=tests/data/cli/b200-no-steps
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }

"$SCALEAUDIT" analyze --json "$trial" > "$tmp/a.json" 2> "$tmp/err"
st=$?
[ $st -eq 0 ] || fail "analyze exited $st, want 0: $(cat "$tmp/err")"
python3 - "$tmp/a.json" <<'PY' || exit 1
import json, sys
a = json.load(open(sys.argv[1]))
bad = []
r = a["runs"][0]
g = r["per_gpu"][0]
want = {"compute": 5.4e-3, "exposed_comm": 0, "exposed_comm_wait": 0, "exposed_comm_transfer": 0,
        "memory": 1.0e-3, "idle": 1.1e-3, "comm_total": 0, "overlapped_comm": 0,
        "memory_total": 1.5e-3, "kernel_busy": 6.4e-3}
for k, v in want.items():
    if g["span_s"][k] is None or abs(g["span_s"][k] - v) > 1e-12:
        bad.append(f"span_s.{k} is {g['span_s'][k]}, want {v}")
if g["name"] != "NVIDIA B200" or g["memory_total_bytes"] != 191503138816:
    bad.append(f"GPU {g['name']} of {g['memory_total_bytes']} bytes")
if any(v is not None for v in r["step_time_s"].values()) or g["mean_step_s"] is not None:
    bad.append("a step time: " + str(r["step_time_s"]))
w = [f for f in a["findings"] if f["code"] == "no-step-windows"]
if len(w) != 1 or w[0]["severity"] != "warning" or "no step time" not in w[0]["message"]:
    bad.append(f"no-step-windows findings: {w}")
print("\n".join(bad) if bad else "ok: analyze --json gives the span's partition")
sys.exit(1 if bad else 0)
PY

"$SCALEAUDIT" report "$trial" -o "$tmp/report" > /dev/null 2> "$tmp/err"
st=$?
[ $st -eq 0 ] || fail "report exited $st, want 0: $(cat "$tmp/err")"
for f in report.pdf report.html summary.md analysis.json; do
	[ -s "$tmp/report/$f" ] || fail "report wrote no $f"
done
grep -q "the trace has no ProfilerStep\\\\#N, so the run has no step time" "$tmp/report/summary.md" ||
	fail "summary.md does not say the run has no step time"
"$SCALEAUDIT" analyze "$tmp/report/analysis.json" > "$tmp/again" 2> "$tmp/err"
st=$?
[ $st -eq 0 ] || fail "analyze of the report's analysis.json exited $st, want 0: $(cat "$tmp/err")"
grep -q "^b200            0       7.5       5.4 " "$tmp/again" ||
	fail "the analysis.json read back lost the span: $(cat "$tmp/again")"
echo "ok: report writes its pages; its analysis.json is analysed again"

"$SCALEAUDIT" batch "$trial" -o "$tmp/batch" > /dev/null 2> "$tmp/err"
st=$?
[ $st -eq 0 ] || fail "batch exited $st, want 0: $(cat "$tmp/err")"
python3 - "$tmp/batch/summary.csv" <<'PY' || exit 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = [(r["id"], r["status"], r["gpu_model"]) for r in rows]
if got != [("b200-no-steps", "ok", "NVIDIA B200")]:
    print(f"batch rows: {got}")
    sys.exit(1)
print("ok: batch counts the trial ok")
PY
