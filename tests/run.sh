#!/bin/bash
# Runs the whole suite once per build directory given (e.g. build/plain build/san):
#   - unit tests: BUILD/tests/test_* (cmocka, TAP output), one count per test case;
#   - CLI cases:  tests/cli/*.t, kept as data (see tests/cli/README.md);
#   - scripts:    tests/sh/*.sh, exit 0 = pass, 77 = skip, anything else = fail.
# Prints one line per failure or skip and ends with `N passed, N failed, N skipped`.
# Environment given to scripts and CLI cases:
#   SCALEAUDIT      the scaleaudit binary of this build
#   SCALEAUDIT_GEN  the scaleaudit-gen binary of this build
#   SHARED          ../shared when it exists, else empty (tests needing it skip)
#   BUILD           the build directory;  TOP  the repository root
set -u
cd "$(dirname "$0")/.." || exit 2
TOP=$PWD
export TOP
if [ -d "$TOP/../shared/realdata" ]; then SHARED=$(cd "$TOP/../shared" && pwd); else SHARED=; fi
export SHARED
# fontconfig's own block, kept for the process's life, is not a leak of ours.
export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
pass=0 fail=0 skip=0
failed_names=()
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

record() {	# record STATUS NAME [DETAIL-FILE]
	case "$1" in
	pass) pass=$((pass + 1)) ;;
	skip) skip=$((skip + 1)); echo "skip: $2" ;;
	fail) fail=$((fail + 1)); failed_names+=("$2"); echo "FAIL: $2"
	      [ -n "${3:-}" ] && [ -s "$3" ] && sed 's/^/    /' "$3" | head -60 ;;
	esac
}

for BUILD in "$@"; do
	export BUILD
	if [ "$BUILD" = build/plain ]; then
		SCALEAUDIT=$TOP/scaleaudit SCALEAUDIT_GEN=$TOP/scaleaudit-gen
	else
		SCALEAUDIT=$TOP/$BUILD/scaleaudit SCALEAUDIT_GEN=$TOP/$BUILD/scaleaudit-gen
	fi
	export SCALEAUDIT SCALEAUDIT_GEN
	tag=${BUILD#build/}

	for t in "$BUILD"/tests/test_*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		CMOCKA_MESSAGE_OUTPUT=tap "$t" > "$log/out" 2>&1
		rc=$?
		while IFS= read -r line; do
			# cmocka 1.1 writes a skipped case as "not ok N # SKIP name"
			case "$line" in
			*"ok "*"# SKIP"*) record skip "[$tag] $name: ${line#*# SKIP }" ;;
			"not ok "*) record fail "[$tag] $name: ${line#not ok }" "$log/out" ;;
			"ok "*) record pass "$name" ;;
			esac
		done < "$log/out"
		if [ $rc -ne 0 ] && ! grep -v '# SKIP' "$log/out" | grep -q '^not ok'; then
			record fail "[$tag] $name exited $rc" "$log/out"
		fi
	done

	for t in tests/cli/*.t; do
		[ -e "$t" ] || continue
		tests/cli/case.sh "$t" > "$log/out" 2>&1
		case $? in
		0) record pass "$t" ;;
		77) record skip "[$tag] $t: $(tail -n 1 "$log/out")" ;;
		*) record fail "[$tag] $t" "$log/out" ;;
		esac
	done

	for t in tests/sh/*.sh; do
		[ -e "$t" ] || continue
		bash "$t" > "$log/out" 2>&1
		case $? in
		0) record pass "$t" ;;
		77) record skip "[$tag] $t: $(tail -n 1 "$log/out")" ;;
		*) record fail "[$tag] $t" "$log/out" ;;
		esac
	done
done

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
