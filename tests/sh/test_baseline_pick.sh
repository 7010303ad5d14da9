#!/bin/bash
# Without `baseline =` in trial.ini the baseline is the run with the fewest
# GPUs, wherever it falls in name order. (The loop used to stop at the first
# run that had any GPUs, so a trial whose 2-GPU run sorted first was compared
# against itself the wrong way round.)
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=samples/trials/ddp-scales-well
mkdir -p "$tmp/t/a-two" "$tmp/t/b-one"
grep -v '^baseline' "$src/trial.ini" > "$tmp/t/trial.ini"
cp "$src"/2gpu/* "$tmp/t/a-two/"
cp "$src"/1gpu/* "$tmp/t/b-one/"
sed -i 's/^name = .*/name = a-two/' "$tmp/t/a-two/run.ini"
sed -i 's/^name = .*/name = b-one/' "$tmp/t/b-one/run.ini"
"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/out.json" 2> "$tmp/err" || { cat "$tmp/err"; exit 1; }
python3 - "$tmp/out.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["comparison"]
want = ("b-one", "a-two")
got = (c["baseline"], c["candidate"])
if got != want:
    sys.exit(f"baseline/candidate: got {got}, want {want}")
if not (1.5 < c["speedup"] < 2.0):
    sys.exit(f"speedup {c['speedup']}: the runs were compared the wrong way round")
print("ok: the 1-GPU run is the baseline though the 2-GPU run sorts first")
PY
