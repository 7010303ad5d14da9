#!/bin/bash
# A trial one of whose traces is cut in half: analyze still answers, exits 3
# (some input unreadable), and says which file and which GPU the numbers lack.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp -r samples/trials/ddp-scales-well "$tmp/t"
f=$tmp/t/2gpu/rank1.pt.trace.json.gz
head -c $(( $(stat -c %s "$f") / 2 )) "$f" > "$tmp/cut" && mv "$tmp/cut" "$f"
"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/out.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] || { echo "exit $rc, expected 3"; cat "$tmp/err"; exit 1; }
grep -q "rank1.pt.trace.json.gz: byte [0-9]*: compressed data ends early: the file is cut short" "$tmp/err" ||
	{ echo "stderr does not name the cut file"; cat "$tmp/err"; exit 1; }
python3 - "$tmp/out.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
codes = {f["code"] for f in a["findings"]}
want = {"truncated", "no-gpu-read", "rank-without-steps"}
missing = want - codes
r2 = next(r for r in a["runs"] if r["name"] == "2gpu")
bad = []
if missing:
    bad.append(f"findings lack {sorted(missing)}")
if "cpu-only" in codes:
    bad.append("a cut trace is not a CPU-only profile")
if r2["per_gpu"][1]["mean_step_s"] is not None:
    bad.append("GPU 1 has a step time from a trace with no GPU work read")
if r2["per_gpu"][0]["mean_step_s"] is None:
    bad.append("GPU 0 lost its numbers too")
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
