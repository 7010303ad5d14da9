#!/bin/bash
# Every real file in ../shared/realdata is recognised by content as the format
# listed in tests/data/realdata-formats.tsv (written by reading each file),
# and the list covers every file there, so a new sample cannot go unchecked.
set -u
. tests/skip.sh
need_shared
need_tool python3
list=$TOP/tests/data/realdata-formats.tsv
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$SCALEAUDIT" inspect --json "$SHARED/realdata" > "$tmp/out.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { echo "inspect exited $rc"; cat "$tmp/err"; exit 1; }
python3 - "$tmp/out.json" "$list" "$SHARED/realdata/" <<'PY'
import json, sys
out, listing, root = sys.argv[1:]
got = {f["path"][len(root):]: f["format"] for f in json.load(open(out))["files"]}
got.pop("PROVENANCE.md", None)
want = dict(line.rstrip("\n").split("\t") for line in open(listing) if line.strip())
bad = 0
for path in sorted(set(want) | set(got)):
    if path not in got:
        print(f"{path}: listed but not found by inspect"); bad += 1
    elif path not in want:
        print(f"{path}: not in {listing}: add its expected format"); bad += 1
    elif got[path] != want[path]:
        print(f"{path}: detected {got[path]}, expected {want[path]}"); bad += 1
print(f"{len(want)} files checked, {bad} wrong")
sys.exit(1 if bad else 0)
PY
