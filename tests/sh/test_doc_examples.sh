#!/bin/bash
# The examples of README.md and docs/ are true: each ```console block (a
# `$ scaleaudit ...` line, then what it prints) is run against the bundled
# sample trial and its output compared, exactly, with the block
# (tests/sh/doc_examples.py). README's first screen and the main example of
# each command's page are such blocks. Then a planted wrong line in a copy is
# shown to be caught.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
files=(README.md docs/report.md docs/formats.md docs/trial.md docs/stack.md docs/replay.md
	docs/batch.md docs/plan.md)
out=$(python3 tests/sh/doc_examples.py "$SCALEAUDIT" "${files[@]}") || { echo "$out"; exit 1; }
echo "$out"
# every file listed has one (the checker fails one without), and README's
# first example is the analysis of the demo trial
first=$(grep -m1 -A1 '^```console$' README.md | tail -1)
[ "$first" = '$ scaleaudit analyze samples/trials/ddp-scales-well' ] ||
	{ echo "README's first example is '$first', not the demo trial's analysis"; exit 1; }
n=$(sed -n 's/^\([0-9]*\) examples, .*/\1/p' <<<"$out")
[ "${n:-0}" -ge 10 ] || { echo "only ${n:-0} examples ran"; exit 1; }

# a wrong line is caught, and so is a missing one
sed 's/^Hypothesis: step-time$/Hypothesis: global-batch/' README.md > "$tmp/README.md"
sed '/^  world_size: 2$/d' README.md > "$tmp/README2.md"
got=$(python3 tests/sh/doc_examples.py "$SCALEAUDIT" "$tmp/README.md" "$tmp/README2.md" | tail -1)
[ "$got" = "8 examples, 10 commands, 2 differ" ] || { echo "the planted faults were not both caught: $got"; exit 1; }
