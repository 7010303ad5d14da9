#!/bin/bash
# Runs the whole suite once per build directory given (e.g. build/plain build/san):
#   - unit tests: BUILD/tests/test_* (cmocka, TAP output), one count per test case;
#   - CLI cases:  tests/cli/*.t, kept as data (see tests/cli/README.md);
#   - scripts:    tests/sh/*.sh, exit 0 = pass, 77 = skip, anything else = fail.
# A skip counts as one only when its reason is on the allow-list of
# tests/skip.sh (../shared absent, or a listed tool not installed) and holds
# here; any other skip, or one without a reason, is a failure.
# The builds are tested at the same time, each in its own process; their
# reports are printed in the order given, each as soon as it is complete.
# Prints one line per failure or skip and ends with `N passed, N failed, N skipped`.
# Environment given to scripts and CLI cases:
#   SCALEAUDIT      the scaleaudit binary of this build
#   SCALEAUDIT_GEN  the scaleaudit-gen binary of this build
#   SHARED          ../shared when it exists, else empty (tests needing it skip)
#   BUILD           the build directory;  TOP  the repository root
# A script that may skip sources tests/skip.sh and calls need_shared or need_tool.
# A script whose header has a line "# plain build only: REASON" is not run against a
# build with sanitizers (its flags name -fsanitize): REASON says why they would add
# nothing there (what it checks does not depend on the build, or another script
# runs the same code under them).
# TEST_TIMES=FILE (opt-in) appends one line per test binary, CLI case and script
# to FILE: "USER SYS BUILD NAME", the CPU seconds it and its children used.
set -u
[ -n "${TEST_TIMES:-}" ] && TEST_TIMES=$(realpath -m "$TEST_TIMES")
cd "$(dirname "$0")/.." || exit 2
TOP=$PWD
export TOP
if [ -d "$TOP/../shared/realdata" ]; then SHARED=$(cd "$TOP/../shared" && pwd); else SHARED=; fi
export SHARED
# NVIDIA's tools that `make check` installs from PyPI (mk/nvtools.sh) come first.
[ -d "$TOP/build/nvidia/bin" ] && PATH=$TOP/build/nvidia/bin:$PATH && export PATH
# fontconfig's own block, kept for the process's life, is not a leak of ours.
export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
. tests/skip.sh
pass=0 fail=0 skip=0
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

record() {	# record STATUS NAME [DETAIL-FILE]
	case "$1" in
	pass) pass=$((pass + 1)) ;;
	skip) skip=$((skip + 1)); echo "skip: $2" ;;
	fail) fail=$((fail + 1)); echo "FAIL: $2"
	      [ -n "${3:-}" ] && [ -s "$3" ] && sed 's/^/    /' "$3" | head -60 ;;
	esac
}

skipped() {	# skipped NAME REASON [DETAIL-FILE]: a skip, or a failure when REASON is not allowed
	if skip_allowed "$2"; then
		record skip "$1: $2"
	else
		record fail "$1: skipped (${2:-no reason given}), which is not an allowed reason" "${3:-}"
	fi
}

# The reason a script or CLI case printed last, as "skip: REASON".
script_reason() { local last; last=$(tail -n 1 "$1"); [ "${last#skip: }" != "$last" ] && echo "${last#skip: }"; }

# run OUT NAME CMD...: CMD with its stdout and stderr in OUT, returning its
# status; with TEST_TIMES, its CPU time is appended there under NAME.
run() {
	local out=$1 name=$2 rc TIMEFORMAT='%3U %3S'
	shift 2
	if [ -z "${TEST_TIMES:-}" ]; then
		"$@" > "$out" 2>&1
		return
	fi
	{ time "$@" > "$out" 2>&1; } 2> "$out.cpu"
	rc=$?
	echo "$(tail -n 1 "$out.cpu") $BUILD $name" >> "$TEST_TIMES"
	return $rc
}

# plain_only SCRIPT: true when its header says it runs against a plain build only.
plain_only() { sed -n '/^[^#]/q; p' "$1" | grep -q '^# plain build only: '; }

# suite BUILD WORK: runs every test against BUILD, with WORK as its scratch
# file; prints its records, then a last line "COUNTS pass fail skip".
suite() {
	BUILD=$1
	local out=$2 t name rc reason line tag sanitized
	export BUILD
	if [ "$BUILD" = build/plain ]; then
		SCALEAUDIT=$TOP/scaleaudit SCALEAUDIT_GEN=$TOP/scaleaudit-gen
	else
		SCALEAUDIT=$TOP/$BUILD/scaleaudit SCALEAUDIT_GEN=$TOP/$BUILD/scaleaudit-gen
	fi
	export SCALEAUDIT SCALEAUDIT_GEN
	tag=${BUILD#build/}
	sanitized=
	grep -q -- '-fsanitize' "$BUILD/flags" 2> /dev/null && sanitized=1

	for t in "$BUILD"/tests/test_*; do
		[ -x "$t" ] || continue
		name=$(basename "$t")
		run "$out" "$name" env CMOCKA_MESSAGE_OUTPUT=tap "$t"
		rc=$?
		reason=
		while IFS= read -r line; do
			# tests/unit/skip.h prints "# skip: REASON", then cmocka 1.1
			# writes the case as "not ok N # SKIP name"
			case "$line" in
			"# skip: "*) reason=${line#"# skip: "}; continue ;;
			*"ok "*"# SKIP"*) skipped "[$tag] $name: ${line#*# SKIP }" "$reason" "$out" ;;
			"not ok "*) record fail "[$tag] $name: ${line#not ok }" "$out" ;;
			"ok "*) record pass "$name" ;;
			esac
			reason=
		done < "$out"
		if [ $rc -ne 0 ] && ! grep -v '# SKIP' "$out" | grep -q '^not ok'; then
			record fail "[$tag] $name exited $rc" "$out"
		fi
	done

	for t in tests/cli/*.t; do
		[ -e "$t" ] || continue
		run "$out" "$t" tests/cli/case.sh "$t"
		case $? in
		0) record pass "$t" ;;
		77) skipped "[$tag] $t" "$(script_reason "$out")" "$out" ;;
		*) record fail "[$tag] $t" "$out" ;;
		esac
	done

	for t in tests/sh/*.sh; do
		[ -e "$t" ] || continue
		[ -n "$sanitized" ] && plain_only "$t" && continue
		run "$out" "$t" bash "$t"
		case $? in
		0) record pass "$t" ;;
		77) skipped "[$tag] $t" "$(script_reason "$out")" "$out" ;;
		*) record fail "[$tag] $t" "$out" ;;
		esac
	done
	echo "COUNTS $pass $fail $skip"
}

pids=()
for i in $(seq 1 $#); do
	suite "${!i}" "$log/$i.work" > "$log/$i.report" &
	pids+=($!)
done
for i in $(seq 1 $#); do
	wait "${pids[$((i - 1))]}"
	grep -v '^COUNTS ' "$log/$i.report"
	if read -r _ p f k < <(grep '^COUNTS ' "$log/$i.report"); then
		pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + k))
	else
		record fail "[${!i}] the run stopped before its end"
	fi
done

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
