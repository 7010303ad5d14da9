#!/bin/bash
# scaleaudit batch shows its progress on a terminal only: under script(1)
# the line counts the trials done and failed, names the one running, and
# ends at "2/2 done, 1 failed"; with stderr not a terminal it says nothing
# (test_batch.sh checks that stderr stays empty).
set -u
. tests/skip.sh
need_tool script
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir -p "$tmp/in/empty/1gpu"
printf '[trial]\n' > "$tmp/in/empty/trial.ini"
echo 'hello' > "$tmp/in/empty/1gpu/notes.txt"
cp -r samples/trials/ddp-scales-well "$tmp/in/"
script -qec "$SCALEAUDIT batch $tmp/in -o $tmp/out -j1" /dev/null < /dev/null | tr '\r' '\n' > "$tmp/tty"
grep -q "^batch: 0/2 done, 0 failed, now in--ddp-scales-well" "$tmp/tty" ||
	{ echo "no line naming the first trial:"; cat -A "$tmp/tty"; fail=1; }
grep -q "^batch: 2/2 done, 1 failed"$'\033'"\[K$" "$tmp/tty" ||
	{ echo "no last line 2/2 done, 1 failed:"; cat -A "$tmp/tty"; fail=1; }
grep -q "^2 trials: 2 analysed, 0 skipped (unchanged), 1 failed" "$tmp/tty" ||
	{ echo "no summary line"; fail=1; }
exit $fail
