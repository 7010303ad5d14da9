#!/bin/bash
# The fuzz targets cannot rot: every tests/fuzz/fuzz_*.c is built in this
# build (plain, or under ASan+UBSan) with tests/fuzz/driver.c as its main,
# and is run once on each of its committed seeds (tests/fuzz/seeds/TARGET/,
# never empty) and on every input a fuzzer once crashed it with
# (tests/fuzz/regress/TARGET/). A crash, a sanitizer report, a leak or an
# input count other than the files given fails the test.
set -u
: "${BUILD:?}" "${TOP:?}"
cd "$TOP" || exit 2
fail=0
targets=0
for src in tests/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	t=${name#fuzz_}
	bin=$BUILD/tests/fuzz/$name
	targets=$((targets + 1))
	if [ ! -x "$bin" ]; then
		echo "$name: $bin was not built"
		fail=1
		continue
	fi
	files=()
	for f in "tests/fuzz/seeds/$t"/* "tests/fuzz/regress/$t"/*; do
		[ -f "$f" ] && files+=("$f")
	done
	seeds=$(find "tests/fuzz/seeds/$t" -type f 2> /dev/null | wc -l)
	if [ "$seeds" -eq 0 ]; then
		echo "$name: no seeds in tests/fuzz/seeds/$t"
		fail=1
		continue
	fi
	out=$("$bin" "${files[@]}" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] || [ "$(tail -n 1 <<< "$out")" != "ran ${#files[@]} inputs" ]; then
		echo "$name: exit $rc on ${#files[@]} inputs:"
		tail -n 30 <<< "$out"
		fail=1
	fi
done
# the regressions all belong to a target
for d in tests/fuzz/regress/*/; do
	[ -d "$d" ] || continue
	[ -f "tests/fuzz/fuzz_$(basename "$d").c" ] || { echo "$d: no such fuzz target"; fail=1; }
done
[ "$targets" -ge 18 ] || { echo "only $targets fuzz targets, want 18 or more"; fail=1; }
exit $fail
