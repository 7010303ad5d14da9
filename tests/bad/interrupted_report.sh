#!/bin/bash
# A report killed by SIGTERM while it writes (its staging directory holds a
# chart already) dies of the signal, leaves no temporary file, and leaves the
# report it was replacing byte for byte as it was.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$SCALEAUDIT" report "$T" -o "$tmp/r" > /dev/null || { echo "first report failed"; exit 1; }
echo old > "$tmp/r/summary.md"	# so that a new report is told from the old one
cp -a "$tmp/r" "$tmp/old"
caught=0
for try in 1 2 3 4 5 6 7 8; do
	"$SCALEAUDIT" report "$T" -o "$tmp/r" > /dev/null 2>&1 &
	pid=$!
	for _ in $(seq 2000); do
		ls "$tmp"/r/.report.tmp*/charts/*.png > /dev/null 2>&1 && break
		kill -0 $pid 2> /dev/null || break
	done
	kill -TERM $pid 2> /dev/null
	wait $pid
	rc=$?
	left=$(find "$tmp/r" -name '*.tmp*')
	[ -z "$left" ] || { echo "try $try (exit $rc): temporary files left: $left"; exit 1; }
	if [ $rc -eq 143 ]; then
		diff -r "$tmp/old" "$tmp/r" || { echo "try $try: the old report changed"; exit 1; }
		caught=$((caught + 1))
	elif [ $rc -eq 0 ]; then	# it finished first: the old report is replaced whole
		grep -q '^# ' "$tmp/r/summary.md" || { echo "try $try: summary.md not replaced"; exit 1; }
		echo old > "$tmp/r/summary.md"
		rm -rf "$tmp/old" && cp -a "$tmp/r" "$tmp/old"
	else
		echo "try $try: exit $rc"; exit 1
	fi
done
[ $caught -ge 1 ] || { echo "no try was interrupted mid-way"; exit 1; }
