#!/bin/bash
# trial.ini's expected_speedup is the verdict's threshold: the ddp-scales-well
# sample (1.73x) is confirmed against the default 1.1 once its own
# expected_speedup line is taken out, and refuted against 1.9 (halving the
# step time), with the numbers and the criterion in analyze's first screen and
# in analysis.json; 0 and words are manifest errors.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# expect FILE TEXT: the file holds the line TEXT
expect() {
	grep -qxF -- "$2" "$1" || { echo "$1 lacks the line: $2"; head -5 "$1"; fail=1; }
}

cp -r samples/trials/ddp-scales-well "$tmp/t"
rm -rf "$tmp/t/truth.json" "$tmp/t/analysis"
sed -i '/^expected_speedup/d' "$tmp/t/trial.ini"
"$SCALEAUDIT" analyze "$tmp/t" > "$tmp/default.txt" 2> /dev/null
expect "$tmp/default.txt" "Verdict: CONFIRMED: a step takes 42.4 ms on 2 GPUs against 73.4 ms on 1 GPU: 1.73x faster, at least the expected 1.1x; 86% scaling efficiency"

echo 'expected_speedup = 1.9' >> "$tmp/t/trial.ini"
"$SCALEAUDIT" analyze "$tmp/t" > "$tmp/halve.txt" 2> "$tmp/halve.err" || { echo "analyze exited $?"; cat "$tmp/halve.err"; fail=1; }
expect "$tmp/halve.txt" "Verdict: REFUTED: a step takes 42.4 ms on 2 GPUs against 73.4 ms on 1 GPU: a speedup of 1.73x, below the expected 1.9x"
expect "$tmp/halve.txt" "Criterion: step-time: confirmed when the speedup (1-GPU step time / n-GPU step time, medians) is at least 1.9 (expected_speedup) with no blocking confound"
"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/halve.json" 2> /dev/null
grep -Eq '"expected_speedup": 1.9,?$' "$tmp/halve.json" || { echo "analysis.json lacks trial.expected_speedup 1.9"; fail=1; }
grep -q '"verdict": "refuted",' "$tmp/halve.json" || { echo "analysis.json's verdict is not refuted"; fail=1; }

for bad in 0 banana -2; do
	sed -i "s/^expected_speedup = .*/expected_speedup = $bad/" "$tmp/t/trial.ini"
	"$SCALEAUDIT" analyze "$tmp/t" > /dev/null 2> "$tmp/bad.err"
	rc=$?
	[ $rc -eq 3 ] || { echo "expected_speedup = $bad: exit $rc, want 3"; fail=1; }
	want="a number above 0, at most 1,000,000"
	expect "$tmp/bad.err" "$tmp/t/trial.ini:6: [trial] expected_speedup = '$bad': expected $want"
done
exit $fail
