#!/bin/bash
# man/scaleaudit.1 renders without a single groff warning, and stands on its
# own: it names no file outside the project.
set -u
: "${TOP:?}"
cd "$TOP" || exit 1
man=man/scaleaudit.1
if grep -nE 'DESIGN\.md|STYLE\.md|blackwell\.md|\.\./shared' "$man"; then
	echo "$man refers to files a user's copy does not have"
	exit 1
fi
. tests/skip.sh
need_tool groff		# Debian: groff-base, which make check installs
warnings=$(groff -man -ww -z "$man" 2>&1)
status=$?
if [ $status -ne 0 ] || [ -n "$warnings" ]; then
	echo "groff -man -ww -z $man: exit $status"
	printf '%s\n' "$warnings"
	exit 1
fi
# the text a user reads: no line of the 80-column page overflows
width=$(MANWIDTH=80 groff -man -Tutf8 -rLL=78n "$man" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g; s/.\x08//g' |
	awk '{ if (length > w) w = length } END { print w + 0 }')
[ "$width" -le 80 ] || { echo "a rendered line is $width columns wide"; exit 1; }
exit 0
