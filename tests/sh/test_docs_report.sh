#!/bin/bash
# docs/report.md explains every chart the report can draw: a section named by
# the chart's id (as render/charts.c lists them), and for every chart that is
# drawn today a picture under docs/img that exists and is a PNG. Page 1 too.
set -u
cd "$TOP" || exit 2
doc=docs/report.md
fail=0
ids=$(sed -n 's/^	{ "\([0-9][0-9]-[a-z-]*\)",.*/\1/p' render/charts.c)
n=$(printf '%s\n' $ids | wc -l)
[ "$n" -eq 15 ] || { echo "render/charts.c lists $n charts, expected 15"; fail=1; }
for id in $ids; do
	grep -q "^## $id: " "$doc" || { echo "$doc: no section '## $id: ...'"; fail=1; }
	grep -q "](img/$id.png)" "$doc" || { echo "$doc: no picture of $id"; fail=1; }
done
pics=$(grep -o '](img/[^)]*)' "$doc" | sed 's/^](//; s/)$//')
[ "$(printf '%s\n' $pics | wc -l)" -eq 16 ] || { echo "$doc: $(printf '%s\n' $pics | wc -l) pictures, expected 16"; fail=1; }
for p in $pics; do
	f=docs/$p
	[ "$(head -c 8 "$f" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		{ echo "$f: missing or not a PNG"; fail=1; }
done
exit $fail
