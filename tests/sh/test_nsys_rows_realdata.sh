#!/bin/bash
# The kernel and memory rows of real Nsight Systems summary tables (console
# tables with and without thousands separators, cut names, a CSV report)
# as `inspect --json` lists them agree with tests/nsys_rows.py, which reads
# the files alone: same rows in the same order, every column to 1e-9. The
# excerpt pasted without its header gives no rows in either.
set -u
. tests/skip.sh
need_shared
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
files=("$SHARED"/realdata/nsys/*)
[ ${#files[@]} -ge 4 ] || { echo "only ${#files[@]} files in realdata/nsys"; exit 1; }
"$SCALEAUDIT" inspect --json "${files[@]}" > "$tmp/got.json" || { echo "inspect exited $?"; exit 1; }
python3 tests/nsys_rows.py "${files[@]}" > "$tmp/want.jsonl" || { echo "tests/nsys_rows.py failed"; exit 1; }
python3 - "$tmp/want.jsonl" <<'PY' || exit 1
import json, sys
rows = sum(len(w["kernel_rows"]) + len(w["memory_rows"]) for w in map(json.loads, open(sys.argv[1])))
if rows < 30:
    sys.exit(f"the script read only {rows} rows")
PY
python3 tests/sh/nsys_rows_cmp.py "$tmp/got.json" "$tmp/want.jsonl"
