#!/bin/sh
# make demo: runs the main job on the bundled example trial, as far as the
# tool goes, and says where the output went.
#   demo.sh BINARY TRIAL OUTDIR
set -u
bin=$1 trial=$2 out=$3

if [ ! -d "$trial" ]; then
	echo "demo: the example trial $trial is missing" >&2
	exit 1
fi
mkdir -p "$out"
built() { ! "$bin" help "$1" | grep -q 'is not built yet'; }

if built report; then
	"$bin" report "$trial" -o "$out"
	rc=$?
	echo "demo: the report of $trial is in $out/ (open $out/report.pdf)"
elif built analyze; then
	"$bin" analyze "$trial" | tee "$out/analysis.txt"
	rc=$?
	"$bin" analyze --json "$trial" > "$out/analysis.json"
	echo "demo: the analysis of $trial is in $out/analysis.txt and $out/analysis.json"
else
	"$bin" inspect "$trial" | tee "$out/inspect.txt"
	rc=$?
	"$bin" inspect --json "$trial" > "$out/inspect.json"
	echo "demo: what scaleaudit read from $trial is in $out/inspect.txt and $out/inspect.json"
	echo "demo: (the analysis and the report are not built yet)"
fi
exit $rc
