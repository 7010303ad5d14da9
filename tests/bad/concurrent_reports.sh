#!/bin/bash
# Ten reports started at once into one directory: each either writes the whole
# report (exit 0) or says another report is being written there (exit 1);
# at least one writes it, every PNG left decodes, no temporary file is left.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for i in 0 1 2 3 4 5 6 7 8 9; do
	"$SCALEAUDIT" report "$T" -o "$tmp/r" > /dev/null 2> "$tmp/err$i" &
	pids[$i]=$!
done
done=0 fail=0
for i in 0 1 2 3 4 5 6 7 8 9; do
	wait "${pids[$i]}"
	rc=$?
	if [ $rc -eq 0 ]; then
		done=$((done + 1))
		[ -s "$tmp/err$i" ] && { echo "report $i exited 0 but said: $(cat "$tmp/err$i")"; fail=1; }
	elif [ $rc -ne 1 ] || ! grep -qxF "another report is being written to $tmp/r" "$tmp/err$i"; then
		echo "report $i exited $rc: $(cat "$tmp/err$i")"; fail=1
	fi
done
[ $done -ge 1 ] || { echo "no report was written"; fail=1; }
n=$(ls "$tmp"/r/charts/*.png | wc -l)
[ "$n" -ge 5 ] || { echo "only $n PNGs"; fail=1; }
python3 tests/bad/png_check.py "$tmp"/r/charts/*.png || fail=1
left=$(find "$tmp/r" -name '*.tmp*')
[ -z "$left" ] || { echo "temporary files left: $left"; fail=1; }
exit $fail
