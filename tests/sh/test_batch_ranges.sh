#!/bin/bash
# batch refuses -j, --timeout and --memory-limit out of their ranges (1 to
# 256 trials at once; 0, no limit, to 604800 s and 16777216 MiB) with a usage
# error naming the option and the range, exit 2, before it reads or writes
# anything; the ends of the ranges are accepted.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
refused() {	# refused MESSAGE OPTION...
	local want=$1; shift
	"$SCALEAUDIT" batch "$@" -o "$tmp/out" samples/trials/ddp-scales-well > "$tmp/stdout" 2> "$tmp/stderr"
	local rc=$?
	[ $rc -eq 2 ] || { echo "$*: status $rc, expected 2"; fail=1; }
	[ "$(cat "$tmp/stderr")" = "scaleaudit batch: $want
Try 'scaleaudit help batch'." ] || { echo "$*: stderr:"; cat "$tmp/stderr"; fail=1; }
	[ ! -e "$tmp/out" ] || { echo "$*: the output was made"; fail=1; }
}
refused "-j 100000 is out of range: give 1 to 256 trials at once" -j 100000
refused "-j 257 is out of range: give 1 to 256 trials at once" -j 257
refused "-j 0 is out of range: give 1 to 256 trials at once" -j 0
refused "-j -1 is out of range: give 1 to 256 trials at once" -j -1
refused "-j 99999999999 is out of range: give 1 to 256 trials at once" -j 99999999999
refused "--jobs 300 is out of range: give 1 to 256 trials at once" --jobs 300
refused "--timeout -1 is out of range: give 0 (no limit) to 604800 seconds" --timeout -1
refused "--timeout 604801 is out of range: give 0 (no limit) to 604800 seconds" --timeout 604801
refused "--timeout 4294967296 is out of range: give 0 (no limit) to 604800 seconds" --timeout 4294967296
refused "--memory-limit -5 is out of range: give 0 (no limit) to 16777216 MiB" --memory-limit -5
refused "--memory-limit 16777217 is out of range: give 0 (no limit) to 16777216 MiB" --memory-limit 16777217
refused "--memory-limit 99999999999999999999 is out of range: give 0 (no limit) to 16777216 MiB" --memory-limit 99999999999999999999
# the ends: accepted (--list reads the trials and writes nothing)
for ok in "-j 256" "-j 1" "--timeout 0" "--timeout 604800" "--memory-limit 0" "--memory-limit 16777216"; do
	# shellcheck disable=SC2086
	"$SCALEAUDIT" batch $ok --list samples/trials/ddp-scales-well > /dev/null 2> "$tmp/stderr" ||
		{ echo "$ok: refused: $(cat "$tmp/stderr")"; fail=1; }
done
exit $fail
