#!/bin/bash
# A run whose GPU count nothing measures or declares: log-only's runs without
# their run.ini have only "step N ... step_time X" lines, which say that the
# job ran, not on how many GPUs. The count is unknown (null, "?"), never "at
# least one GPU": n = c / b is unknown, so scaling efficiency, attribution and
# the decision's lots have no value, step-time is inconclusive with the key
# that fixes it, and feasibility (which needs no n) stands, qualified.
set -u
. tests/skip.sh
need_tool python3
need_tool pdftotext
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "$*"; fail=1; }

# both counts unknown; one unknown; no baseline named
cp -r tests/data/trials/log-only "$tmp/both"; rm "$tmp/both/1gpu/run.ini" "$tmp/both/2gpu/run.ini"
cp -r tests/data/trials/log-only "$tmp/one"; rm "$tmp/one/1gpu/run.ini"
cp -r "$tmp/both" "$tmp/unnamed"; sed -i '/^baseline/d' "$tmp/unnamed/trial.ini"
# feasibility: a baseline made of an out-of-memory log alone
cp -r samples/trials/pipeline-oom-feasibility "$tmp/feas"; rm "$tmp/feas/1gpu/run.ini" "$tmp/feas/1gpu/nvidia-smi.csv"
for t in both one unnamed feas; do
	"$SCALEAUDIT" analyze "$tmp/$t" > "$tmp/$t.txt" 2>&1 || bad "$t: analyze exited $?"
	"$SCALEAUDIT" analyze --json "$tmp/$t" > "$tmp/$t.json" 2>/dev/null || bad "$t: analyze --json exited $?"
done
python3 - "$tmp" <<'PY' || fail=1
import json, sys
tmp = sys.argv[1]
bad = []
def check(what, got, exp):
    if got != exp:
        bad.append(f"{what}: got {got!r}, want {exp!r}")
def load(t):
    return json.load(open(f"{tmp}/{t}.json"))
one_why = "GPU count of 1gpu unknown: no trace or log says it; set gpus = N in 1gpu/run.ini"
a = load("both")
c = a["comparison"]
check("both: gpus", [r["gpus"] for r in a["runs"]], [None, None])
check("both: verdict", (c["verdict"], c["reason"]), ("inconclusive",
      "GPU count of 1gpu and 2gpu unknown: no trace or log says them; set gpus = N in 1gpu/run.ini and 2gpu/run.ini"))
check("both: speedup", round(c["speedup"], 6), round(0.4 / 0.22, 6))
check("both: efficiency", c["scaling_efficiency"], None)
check("both: attribution", c["attribution_s"], {"compute": None, "exposed_comm": None, "memory": None, "idle": None})
check("both: gpus confound", [(x["severity"], x["baseline"], x["candidate"]) for x in c["confounds"] if x["what"] == "gpus"],
      [("blocking", None, None)])
check("both: strategy", [r["strategy"] for r in a["runs"]], [None, None])
a = load("one")
c = a["comparison"]
check("one: gpus", [r["gpus"] for r in a["runs"]], [None, 2])
check("one: verdict", (c["verdict"], c["reason"]), ("inconclusive", one_why))
check("one: efficiency", c["scaling_efficiency"], None)
check("one: decision", (c["decision"]["rent"]["gpus"], c["decision"]["rent"]["run_gpus"],
      [x["why"] for x in c["decision"]["alternatives"]]),
      (2, 2, ["? GPUs (1gpu): its GPU count is unknown: no trace or log says it; set gpus = N in 1gpu/run.ini"]))
check("one: options", [o["gpus"] for o in c["options"]], [2])
check("one: advice", [r["id"] for r in a["recommendations"]], ["rental-window"])
a = load("unnamed")
check("unnamed: reason", (a["comparison"]["verdict"], a["comparison"]["reason"]), (None,
      "the trial needs two runs with different GPU counts to compare: the GPU count of '1gpu' and '2gpu' is "
      "unknown (no trace or log says it); set gpus = N in 1gpu/run.ini and 2gpu/run.ini"))
a = load("feas")
c = a["comparison"]
check("feas: gpus", [r["gpus"] for r in a["runs"]], [None, 2])
check("feas: verdict", c["verdict"], "confirmed")
check("feas: reason", c["reason"].split(" (not verified: ")[1].split(";")[0], "GPU count of 1gpu unknown")
check("feas: weak", [w["message"] for w in c["weak_evidence"] if w["message"].startswith("GPU count")], [one_why])
print("\n".join(bad) or "json ok")
sys.exit(1 if bad else 0)
PY
# "?" in the text, never -1
grep -q '^1gpu  *? completed' "$tmp/one.txt" || bad "one: analyze's run table has no '?' GPU count"
grep -q '^  \[blocking\] gpus: ? against 2: GPU count of 1gpu unknown' "$tmp/one.txt" || bad "one: no gpus confound line"
grep -q 'scaling efficiency unknown' "$tmp/one.txt" || bad "one: the efficiency is not said unknown"
grep -n -- '-1 GPU\| -1 ' "$tmp"/*.txt && bad "analyze prints -1"
SOURCE_DATE_EPOCH=0 "$SCALEAUDIT" report -o "$tmp/r" "$tmp/one" > /dev/null 2>&1 || bad "report exited $?"
grep -qF '| 1gpu (baseline) | ? | completed' "$tmp/r/summary.md" || bad "summary.md: the run table has no '?'"
grep -qF "Why: $(printf 'GPU count of 1gpu unknown: no trace or log says it; set gpus = N in 1gpu/run.ini'); the numbers below are for reference only" "$tmp/r/summary.md" ||
	bad "summary.md: no why line naming the key"
grep -qF -- '- \[blocking\] GPU count: ? (baseline) vs 2 (candidate)' "$tmp/r/summary.md" || bad "summary.md: no gpus confound"
grep -qF '<td>1gpu (baseline)</td><td>?</td>' "$tmp/r/report.html" || bad "report.html: the run table has no '?'"
grep -rn -- '-1 GPU\|>-1<\| -1 |' "$tmp/r/summary.md" "$tmp/r/report.html" && bad "report prints -1"
pdftotext "$tmp/r/charts/01-step-time.pdf" - | grep -qx 'baseline: 1gpu (? GPUs)' || bad "chart 01: no '? GPUs' label"
pdftotext "$tmp/r/charts/00-throughput.pdf" - | grep -qx '? GPUs' || bad "chart 00: no '? GPUs' label"
pdftotext "$tmp/r/charts/00-throughput.pdf" - | grep -q 'differ in GPU count' && bad "chart 00: says the counts differ"
pdftotext "$tmp/r/report.pdf" - | grep -q -- '-1 GPU' && bad "report.pdf prints -1 GPU"
# batch: NULL, not -1
mkdir "$tmp/b"; cp -r "$tmp/one" "$tmp/b/one"
SOURCE_DATE_EPOCH=0 "$SCALEAUDIT" batch -o "$tmp/bo" "$tmp/b" > /dev/null 2>&1 || bad "batch exited $?"
python3 - "$tmp/bo" <<'PY' || fail=1
import glob, sqlite3, sys
db = glob.glob(f"{sys.argv[1]}/**/results.sqlite", recursive=True)
if not db:
    print("batch: no results.sqlite"); sys.exit(1)
got = sorted(sqlite3.connect(db[0]).execute("SELECT run, gpus FROM runs").fetchall())
if got != [("1gpu", None), ("2gpu", 2)]:
    print(f"batch: runs.gpus {got!r}"); sys.exit(1)
PY
grep -rn --include=summary.csv -e ',-1,' -e ',-1$' "$tmp/bo" && bad "summary.csv prints -1"
[ $fail = 0 ] && echo ok
exit $fail
