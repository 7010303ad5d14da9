#!/bin/bash
# Declared against measured on a copy of samples/trials/ddp-global-batch-changed
# whose run.ini files both say global_batch = 16, while the 1-GPU train.log
# says 8: a manifest-conflict error names run.ini's line and the log's (found
# here with grep) and both values, 8 is the global batch used (marked in the
# run table, also when read back from analysis.json), the runs differ in
# global batch (a blocking confound) and the verdict is inconclusive. Then
# a run.ini whose micro_batch x GPUs x grad_accum is not its global_batch.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -r samples/trials/ddp-global-batch-changed "$tmp/t"
sed -i 's/^global_batch = .*/global_batch = 16/' "$tmp/t/1gpu/run.ini" "$tmp/t/2gpu/run.ini"
ini_line=$(grep -n '^global_batch = 16$' "$tmp/t/1gpu/run.ini" | cut -d: -f1)
log_line=$(grep -n 'Total train batch size' "$tmp/t/1gpu/train.log" | head -1 | cut -d: -f1)
log_value=$(grep -m1 'Total train batch size' "$tmp/t/1gpu/train.log" | sed 's/.*= *//')
[ "$log_value" = 8 ] || { echo "the sample's 1-GPU log says $log_value, not 8"; exit 1; }
fail=0
"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/a.json" 2> "$tmp/err" || { echo "analyze exited $?"; cat "$tmp/err"; exit 1; }
python3 - "$tmp/a.json" "$tmp/t" "$ini_line" "$log_line" <<'PY' || fail=1
import json, sys
a = json.load(open(sys.argv[1]))
trial, ini, log = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
bad = []
want = (f"run '1gpu': run.ini:{ini} says global_batch = 16, but train.log:{log} says 8 "
        f"(Total train batch size): 8 is used")
hits = [f for f in a["findings"] if f["code"] == "manifest-conflict" and f["message"] == want]
if len(hits) != 1:
    bad.append("no manifest-conflict %r among %r" % (want, [f["message"] for f in a["findings"]]))
elif hits[0]["severity"] != "error" or hits[0]["source"] != f"{trial}/1gpu/run.ini:{ini}":
    bad.append("the finding is %r" % hits[0])
r = a["runs"][0]
if r["name"] != "1gpu" or r["global_batch"] != 8:
    bad.append("runs[0].global_batch is %r" % r["global_batch"])
f = r["facts"]["global_batch"]
if f != {"value": 8, "from": "log", "at": f"1gpu/train.log:{log}", "declared": 16,
         "declared_at": f"1gpu/run.ini:{ini}"}:
    bad.append("runs[0].facts.global_batch is %r" % f)
cf = [c for c in a["comparison"]["confounds"] if c["what"] == "global_batch"]
if not cf or cf[0]["severity"] != "blocking" or (cf[0]["baseline"], cf[0]["candidate"]) != ("8", "16"):
    bad.append("the global_batch confound is %r" % cf)
if a["comparison"]["verdict"] != "inconclusive":
    bad.append("the verdict is %r" % a["comparison"]["verdict"])
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
"$SCALEAUDIT" analyze "$tmp/t" > "$tmp/a.txt" 2>&1
grep -qxF "  $tmp/t/1gpu/run.ini:$ini_line: error: run '1gpu': run.ini:$ini_line says global_batch = 16, but train.log:$log_line says 8 (Total train batch size): 8 is used" "$tmp/a.txt" ||
	{ echo "analyze's text does not list the error:"; cat "$tmp/a.txt"; fail=1; }
# the run table marks the logs' 8 against run.ini's 16, and says why
grep -qE '^1gpu +1 completed +bf16 +8\* ' "$tmp/a.txt" && grep -qxF "* the logs' global batch, where run.ini says another (manifest-conflict below)" "$tmp/a.txt" ||
	{ echo "the run table does not mark the global batch:"; cat "$tmp/a.txt"; fail=1; }
# and so does the same analysis read back from its analysis.json
"$SCALEAUDIT" analyze "$tmp/a.json" > "$tmp/back.txt" 2>&1
grep -qE '^1gpu +1 completed +bf16 +8\* ' "$tmp/back.txt" || { echo "read back, the run table lost the mark:"; cat "$tmp/back.txt"; fail=1; }

# 2gpu's run.ini: micro_batch 4 x 2 GPUs (ddp) x grad_accum 1 = 8, not its global_batch 16
sed -i 's/^micro_batch = .*/micro_batch = 4/' "$tmp/t/2gpu/run.ini"
ini_line=$(grep -n '^global_batch' "$tmp/t/2gpu/run.ini" | cut -d: -f1)
micro_line=$(grep -n '^micro_batch' "$tmp/t/2gpu/run.ini" | cut -d: -f1)
accum_line=$(grep -n '^grad_accum' "$tmp/t/2gpu/run.ini" | cut -d: -f1)
log_line=$(grep -n 'Total train batch size' "$tmp/t/2gpu/train.log" | head -1 | cut -d: -f1)
"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/b.json" 2> "$tmp/err" || { echo "analyze exited $?"; cat "$tmp/err"; exit 1; }
want="run '2gpu': run.ini:$ini_line says global_batch = 16, but its micro_batch x data-parallel GPUs x grad_accum = 4 x 2 x 1 = 8 (micro_batch at run.ini:$micro_line, grad_accum at run.ini:$accum_line, 2 GPUs, ddp): the global batch used is 16 (train.log:$log_line)"
python3 - "$tmp/b.json" "$want" <<'PY' || fail=1
import json, sys
a = json.load(open(sys.argv[1]))
hits = [f for f in a["findings"] if f["code"] == "manifest-conflict" and f["message"] == sys.argv[2]]
if len(hits) != 1 or hits[0]["severity"] != "error":
    print("no manifest-conflict %r among:" % sys.argv[2])
    for f in a["findings"]:
        print("  ", f["code"], f["message"])
    sys.exit(1)
PY
exit $fail
