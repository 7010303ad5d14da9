#!/bin/bash
# analyze --json of every sample trial (and of the log-only and real-trace
# trials) matches docs/analysis.schema.json; and the checker does catch a
# document that breaks it.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
docs=()
for t in samples/trials/*/ tests/data/trials/*/; do
	name=$(basename "$t")
	"$SCALEAUDIT" analyze --json "$t" > "$tmp/$name.json" 2> /dev/null
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || { echo "$t: analyze exited $rc"; exit 1; }
	docs+=("$tmp/$name.json")
done
python3 tests/sh/schema_check.py docs/analysis.schema.json "${docs[@]}" || exit 1
# the checker must fail on a broken document
python3 - "$tmp/ddp-scales-well.json" "$tmp/broken.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
a["runs"][0]["status"] = "finished"
del a["comparison"]["verdict"]
a["runs"][1]["per_gpu"][0]["peak_memory_bytes"] = 1.5
json.dump(a, open(sys.argv[2], "w"))
PY
out=$(python3 tests/sh/schema_check.py docs/analysis.schema.json "$tmp/broken.json")
[ "$(echo "$out" | tail -1)" = "1 documents checked, 3 problems" ] || { echo "the checker missed: $out"; exit 1; }
