#!/bin/sh
# make valgrind: the demo (the report of the bundled example trial) and a few
# commands on the sample trials under valgrind's memcheck, each failing on
# any memory error or leak that tests/valgrind.supp does not name.
#   valgrind.sh BINARY
set -u
bin=$1
if ! command -v valgrind > /dev/null; then
	echo "valgrind: valgrind is not installed (Debian: apt-get install valgrind)" >&2
	exit 1
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail=0

# run NAME ARGS...: one command under memcheck; its output is kept only when it fails.
run() {
	name=$1
	shift
	start=$(date +%s)
	if valgrind --error-exitcode=1 --leak-check=full --suppressions=tests/valgrind.supp -q \
		"$bin" "$@" > "$out/stdout" 2> "$out/stderr"; then
		echo "valgrind: ok: $name ($(($(date +%s) - start)) s)"
	else
		echo "valgrind: FAIL: $name"
		cat "$out/stderr"
		fail=1
	fi
}

run "demo: report samples/trials/ddp-scales-well" report samples/trials/ddp-scales-well -o "$out/demo"
run "analyze samples/trials/ddp-scales-well" analyze samples/trials/ddp-scales-well
run "analyze --json samples/trials/pipeline-bubble" analyze --json samples/trials/pipeline-bubble
run "inspect samples/trials/ddp-scales-well/2gpu" inspect samples/trials/ddp-scales-well/2gpu
run "report samples/trials/pipeline-bubble" report samples/trials/pipeline-bubble -o "$out/pipeline"
exit $fail
