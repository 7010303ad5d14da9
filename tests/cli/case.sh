#!/bin/bash
# Runs one CLI case file (tests/cli/*.t) and compares what happened with it.
# A case file:
#   # comments
#   args: inspect --json tests/data/cli/empty.txt   (words; $SHARED and $TOP are replaced)
#   stdin: tests/data/cli/some-file                  (optional; default /dev/null)
#   requires: shared                                 (optional; skip when ../shared is absent,
#                                                     the only thing a case may require)
#   status: 1                                        (expected exit status)
#   --- stdout                                       (optional section: exact expected stdout)
#   ...
#   --- stderr                                       (optional section: exact expected stderr)
#   ...
# A section that is absent is not checked; an empty one must be empty.
# Exit 0 pass, 1 fail (with a diff), 77 skip (last line "skip: REASON", see tests/skip.sh).
set -u
case_file=$1
: "${SCALEAUDIT:?}" "${TOP:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

args= stdin=/dev/null requires= status=0 section=
: > "$tmp/want.stdout.raw"; : > "$tmp/want.stderr.raw"
check_out=0 check_err=0
while IFS= read -r line || [ -n "$line" ]; do
	case "$section:$line" in
	*:"--- stdout") section=stdout; check_out=1; continue ;;
	*:"--- stderr") section=stderr; check_err=1; continue ;;
	stdout:*) printf '%s\n' "$line" >> "$tmp/want.stdout.raw"; continue ;;
	stderr:*) printf '%s\n' "$line" >> "$tmp/want.stderr.raw"; continue ;;
	:"#"*|:) continue ;;
	:args:*) args=${line#args:} ;;
	:stdin:*) stdin=$(echo ${line#stdin:}) ;;
	:requires:*) requires=$(echo ${line#requires:}) ;;
	:status:*) status=$(echo ${line#status:}) ;;
	*) echo "$case_file: cannot read line: $line"; exit 1 ;;
	esac
done < "$case_file"

. "$TOP/tests/skip.sh"
case $requires in
"") ;;
shared) need_shared ;;
*) echo "$case_file: cannot require '$requires': only 'shared'"; exit 1 ;;
esac

subst() { sed -e "s|\$SHARED|${SHARED:-}|g" -e "s|\$TOP|$TOP|g"; }
args=$(printf '%s' "$args" | subst)
subst < "$tmp/want.stdout.raw" > "$tmp/want.stdout"
subst < "$tmp/want.stderr.raw" > "$tmp/want.stderr"
[ "$stdin" = /dev/null ] || stdin=$TOP/$stdin

set -f
# shellcheck disable=SC2086
(cd "$TOP" && "$SCALEAUDIT" $args < "$stdin" > "$tmp/got.stdout" 2> "$tmp/got.stderr")
got=$?
set +f

ok=0
if [ "$got" != "$status" ]; then
	echo "exit status $got, expected $status"; ok=1
fi
if [ $check_out = 1 ] && ! diff -u "$tmp/want.stdout" "$tmp/got.stdout" > "$tmp/d"; then
	echo "stdout differs:"; cat "$tmp/d"; ok=1
fi
if [ $check_err = 1 ] && ! diff -u "$tmp/want.stderr" "$tmp/got.stderr" > "$tmp/d"; then
	echo "stderr differs:"; cat "$tmp/d"; ok=1
fi
if [ $ok != 0 ] && [ $check_err = 0 ] && [ -s "$tmp/got.stderr" ]; then
	echo "stderr was:"; head -20 "$tmp/got.stderr"
fi
exit $ok
