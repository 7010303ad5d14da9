#!/bin/bash
# --color: always colours the verdict (CONFIRMED green, REFUTED red,
# INCONCLUSIVE yellow), the severity words of analyze's findings and the
# errors on stderr, even under NO_COLOR; never, and auto when the output is
# not a terminal, write the same bytes as no option, without one escape; on a
# terminal auto colours unless NO_COLOR is set (needs script(1) for the
# terminal: skipped without it, after the rest has passed).
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
esc=$'\033'
fail=0

# expect FILE TEXT: the file holds the line TEXT
expect() {
	grep -qxF -- "$2" "$1" || { echo "$1 lacks the line: ${2//$esc/\\e}"; head -3 "$1"; fail=1; }
}

good=samples/trials/ddp-scales-well
"$SCALEAUDIT" analyze "$good" > "$tmp/plain" || { echo "analyze $good failed"; exit 1; }
"$SCALEAUDIT" analyze --color=always "$good" > "$tmp/always"
NO_COLOR=1 "$SCALEAUDIT" analyze --color "$good" > "$tmp/bare"
"$SCALEAUDIT" analyze "$good" --color=never > "$tmp/never"
"$SCALEAUDIT" analyze --color=auto "$good" > "$tmp/auto"

verdict=$(grep '^Verdict: ' "$tmp/plain")
[ "$verdict" = "Verdict: CONFIRMED: a step takes 42.4 ms on 2 GPUs against 73.4 ms on 1 GPU: 1.73x faster, at least the expected 1.6x; 86% scaling efficiency" ] ||
	{ echo "unexpected verdict: $verdict"; fail=1; }
expect "$tmp/always" "Verdict: $esc[1;32mCONFIRMED$esc[0m: ${verdict#Verdict: CONFIRMED: }"
cmp -s "$tmp/always" "$tmp/bare" || { echo "--color alone under NO_COLOR is not --color=always"; fail=1; }
sed "s/$esc\[[0-9;]*m//g" "$tmp/always" | cmp -s - "$tmp/plain" ||
	{ echo "--color=always changes more than the escapes"; fail=1; }
for f in never auto; do
	cmp -s "$tmp/$f" "$tmp/plain" || { echo "--color=$f changes the output"; fail=1; }
done
if grep -q "$esc" "$tmp/plain" "$tmp/never" "$tmp/auto"; then
	echo "an escape code without --color=always"; fail=1
fi

"$SCALEAUDIT" analyze --color=always samples/trials/nccl-over-sockets > "$tmp/refuted"
grep -q "^Verdict: $esc\[1;31mREFUTED$esc\[0m: " "$tmp/refuted" || { echo "REFUTED is not red"; fail=1; }
"$SCALEAUDIT" analyze --color=always samples/trials/ddp-precision-changed > "$tmp/inconclusive"
grep -q "^Verdict: $esc\[1;33mINCONCLUSIVE$esc\[0m: " "$tmp/inconclusive" ||
	{ echo "INCONCLUSIVE is not yellow"; fail=1; }
expect "$tmp/inconclusive" "  samples/trials/ddp-precision-changed/2gpu/run.ini:5: $esc[1;33mwarning$esc[0m: run '2gpu' says bf16, but 81% of its matmul time ran in tf32 kernels"

# errors on stderr: the message red, the position plain
"$SCALEAUDIT" analyze --color=always tests/data/cli/trial.ini 2> "$tmp/err"
expect "$tmp/err" "tests/data/cli/trial.ini: $esc[1;31mnot a directory: a trial is a directory of runs$esc[0m"

# script(1) (Debian: bsdutils) gives --color=auto a terminal
[ $fail -eq 0 ] || exit $fail
. tests/skip.sh
need_tool script
# on a terminal (script(1) writes lines ending in CR LF)
run_tty() {
	script -qec "$SCALEAUDIT analyze $good" /dev/null < /dev/null | tr -d '\r'
}
run_tty > "$tmp/tty"
expect "$tmp/tty" "Verdict: $esc[1;32mCONFIRMED$esc[0m: ${verdict#Verdict: CONFIRMED: }"
NO_COLOR= run_tty > "$tmp/tty-empty"
grep -q "$esc\[1;32mCONFIRMED" "$tmp/tty-empty" || { echo "an empty NO_COLOR turned colour off"; fail=1; }
NO_COLOR=1 run_tty > "$tmp/tty-no"
grep -q "CONFIRMED$esc" "$tmp/tty-no" && { echo "NO_COLOR=1 did not turn colour off"; fail=1; }
grep -q "^Verdict: CONFIRMED: " "$tmp/tty-no" || { echo "no verdict on the terminal under NO_COLOR"; fail=1; }
exit $fail
