#!/bin/bash
# Every committed sample trial is read by `scaleaudit inspect` without an
# error or warning (issue 3's "done when"). Skips while inspect is not built.
set -u
TOP=${TOP:-$(pwd)}
SA=${SCALEAUDIT:-$TOP/scaleaudit}
[ -x "$SA" ] || { echo "scaleaudit not built ($SA)"; exit 77; }
if "$SA" inspect --help 2>&1 | grep -qi 'not built'; then
	echo "scaleaudit inspect is not built yet"
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
for d in "$TOP"/samples/trials/*/; do
	n=$(basename "$d")
	"$SA" inspect "$d" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ]; then
		echo "scaleaudit inspect printed nothing: not built yet"
		exit 77
	fi
	if [ $rc -ne 0 ]; then
		echo "FAIL: $n: inspect exited $rc"; sed 's/^/    /' "$tmp/err" | head -5; fail=1
	fi
	if grep -Eiq 'warning|error' "$tmp/out" "$tmp/err"; then
		echo "FAIL: $n: inspect reports problems"
		grep -Eih 'warning|error' "$tmp/out" "$tmp/err" | head -5 | sed 's/^/    /'
		fail=1
	fi
	# every run file must be recognised (truth.json is the generator's, not an input)
	if grep -B1 'unknown (not a format' "$tmp/out" | grep -v truth.json | grep -q '^/'; then
		echo "FAIL: $n: inspect does not recognise a file"
		grep -B1 'unknown (not a format' "$tmp/out" | head -4 | sed 's/^/    /'
		fail=1
	fi
done
[ $fail -eq 0 ] && echo "ok: inspect reads every sample cleanly"
exit $fail
