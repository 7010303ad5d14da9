#!/bin/bash
# batch --merge of two output directories whose trials share an id but are
# different trials (found under p/trials and q/trials: both trials--x) keeps
# the first, refuses the second with a message naming both, and exits 3;
# the same trial analysed in two directories is merged once, silently.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
. tests/check.sh
mkdir -p "$tmp/p/trials" "$tmp/q/trials"
cp -r samples/trials/ddp-scales-well "$tmp/p/trials/x"
cp -r samples/trials/clock-offset "$tmp/q/trials/x"
"$SCALEAUDIT" batch --one trials--x "$tmp/p/trials" -o "$tmp/out1" > /dev/null 2>&1 || { echo "--one p failed"; fail=1; }
"$SCALEAUDIT" batch --one trials--x "$tmp/q/trials" -o "$tmp/out2" > /dev/null 2>&1 || { echo "--one q failed"; fail=1; }
"$SCALEAUDIT" batch --one trials--x "$tmp/p/trials" -o "$tmp/out3" > /dev/null 2>&1 || { echo "--one p again failed"; fail=1; }

"$SCALEAUDIT" batch --merge "$tmp/out1" "$tmp/out2" -o "$tmp/m" > "$tmp/stdout" 2> "$tmp/stderr"
check "collision: status" 3 $?
check "collision: stderr" "scaleaudit: $tmp/out2/trials--x: trial $tmp/q/trials/x, found under $tmp/q/trials, has the id of $tmp/out1/trials--x, trial $tmp/p/trials/x found under $tmp/p/trials: not merged (give the paths distinct names, or merge them apart)" "$(cat "$tmp/stderr")"
check "collision: the first kept" "trials--x $tmp/p/trials/x" \
	"$(python3 -c "import sqlite3,sys
for r in sqlite3.connect(sys.argv[1]).execute('select id, trial from trials'): print(*r)" "$tmp/m/results.sqlite")"

"$SCALEAUDIT" batch --merge "$tmp/out1" "$tmp/out3" -o "$tmp/m2" > "$tmp/stdout" 2> "$tmp/stderr"
check "same trial twice: status" 0 $?
check "same trial twice: stderr" "" "$(cat "$tmp/stderr")"
exit $fail
