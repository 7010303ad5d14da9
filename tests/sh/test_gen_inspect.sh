#!/bin/bash
# Every committed sample trial is read by `scaleaudit inspect` without a
# warning, so that the samples show the tool on clean input: each run file is recognised, none carries a
# diagnostic other than a note, and inspect exits 0.
set -u
TOP=${TOP:-$(pwd)}
SA=${SCALEAUDIT:-$TOP/scaleaudit}
. "$TOP/tests/skip.sh"
need_tool python3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for d in "$TOP"/samples/trials/*/; do
	n=$(basename "$d")
	"$SA" inspect --json "$d" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
		echo "FAIL: $n: inspect exited $rc"; sed 's/^/    /' "$tmp/err" | head -5; fail=1
	fi
	python3 - "$tmp/out" "$n" <<'PY' || fail=1
import json, os, sys
try:
    files = json.load(open(sys.argv[1]))["files"]
except (ValueError, KeyError) as e:
    print(f"FAIL: {sys.argv[2]}: inspect --json: {e}")
    sys.exit(1)
bad = 0
for f in files:
    base = os.path.basename(f["path"])
    if base == "truth.json":		# the generator's answers, not an input
        continue
    if f.get("format") in (None, "unknown"):
        print(f"FAIL: {sys.argv[2]}: {f['path']}: not recognised"); bad = 1
    for w in f.get("warnings") or []:
        if ": note: " in w:		# worth knowing (a setting the log echoes), not a fault
            continue
        print(f"FAIL: {sys.argv[2]}: {w}"); bad = 1
sys.exit(bad)
PY
done
[ $fail -eq 0 ] && echo "ok: inspect reads every sample without a warning"
exit $fail
