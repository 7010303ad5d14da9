#!/bin/bash
# scaleaudit report on a sample trial: every file is there, two runs write
# the same bytes, the PDF has the summary's 2 pages and one page per chart drawn
# (page 1's chart on page 1, its files as charts/00-throughput.*),
# and an output directory that cannot be made is one clear error.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
trial=samples/trials/ddp-scales-well
fail=0
for i in 1 2; do
	"$SCALEAUDIT" report "$trial" -o "$tmp/r$i" > "$tmp/out$i" 2> "$tmp/err$i" ||
		{ echo "report exited $?"; cat "$tmp/err$i"; exit 1; }
done
printf '%s\n' "$tmp/r1/report.pdf" "$tmp/r1/summary.md" "$tmp/r1/analysis.json" | diff - "$tmp/out1" ||
	{ echo "stdout does not list the three files"; fail=1; }
for f in report.pdf summary.md report.html analysis.json charts/02-breakdown.png charts/02-breakdown.svg \
	 charts/02-breakdown.pdf; do
	[ -s "$tmp/r1/$f" ] || { echo "missing: $f"; fail=1; }
done
ls "$tmp/r1" "$tmp/r1/charts" | grep -q '\.tmp$' && { echo "a temporary file was left"; fail=1; }
diff -r "$tmp/r1" "$tmp/r2" > /dev/null || { echo "two runs wrote different bytes"; fail=1; }
charts=$(ls "$tmp/r1/charts" | grep -v '^00-' | grep -c '\.png$')
[ "$charts" -eq 13 ] || { echo "$charts charts drawn, expected 13 (all but replay and sweep)"; fail=1; }
# page 1's chart, written like the others, and linked from summary.md
for f in charts/00-throughput.png charts/00-throughput.svg charts/00-throughput.pdf; do
	[ -s "$tmp/r1/$f" ] || { echo "missing: $f (page 1's chart)"; fail=1; }
done
grep -qxF '![Samples per second](charts/00-throughput.png)' "$tmp/r1/summary.md" ||
	{ echo "summary.md does not link page 1's chart"; fail=1; }
if command -v pdfinfo > /dev/null; then
	pages=$(pdfinfo "$tmp/r1/report.pdf" | awk '/^Pages:/ {print $2}')
	# the summary's pages (page 1, the runs, key numbers, op by op, top kernels), then one per chart,
	# the last being chart 15's
	[ "$pages" -ge $((charts + 2)) ] || { echo "$pages PDF pages, expected at least $((charts + 2))"; fail=1; }
	pdftotext -f "$pages" -l "$pages" "$tmp/r1/report.pdf" - | grep -q "What the candidate added, op by op" ||
		{ echo "the last page is not chart 15"; fail=1; }
	for h in "Op by op" "Top kernels"; do
		pdftotext -l $((pages - charts)) "$tmp/r1/report.pdf" - | grep -qx "$h" ||
			{ echo "the summary's pages lack the section '$h'"; fail=1; }
	done
	pdftotext "$tmp/r1/report.pdf" - | grep -q CONFIRMED || { echo "no verdict in the PDF text"; fail=1; }
fi
grep -q '^\*\*Verdict: CONFIRMED — a step takes' "$tmp/r1/summary.md" || { echo "no verdict in summary.md"; fail=1; }
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); sys.exit(a['comparison']['verdict'] != 'confirmed')" \
	"$tmp/r1/analysis.json" || { echo "analysis.json verdict is not confirmed"; fail=1; }

: > "$tmp/file"	# a directory cannot be made under a file, even by root
"$SCALEAUDIT" report "$trial" -o "$tmp/file/x" > /dev/null 2> "$tmp/err"
rc=$?
[ $rc -eq 1 ] || { echo "output under a file: exit $rc, expected 1"; fail=1; }
grep -q "$tmp/file/x" "$tmp/err" || { echo "the error does not name the directory"; cat "$tmp/err"; fail=1; }
[ -e "$tmp/file/x" ] && { echo "something was written"; fail=1; }
"$SCALEAUDIT" report "$trial" -o > /dev/null 2> "$tmp/err"
[ $? -eq 2 ] && grep -q -- "-o needs a DIR" "$tmp/err" || { echo "-o without DIR"; cat "$tmp/err"; fail=1; }
exit $fail
