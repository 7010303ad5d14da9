# Sourced by the scripts of tests/sh that read the committed samples' reports
# as a reviewer does (after tests/report_cache.sh, with $tmp made):
#   report NAME        links the shared report of samples/trials/NAME as $tmp/NAME;
#                      the script fails if that report failed
#   has FILE TEXT      the script fails unless FILE holds TEXT
#   hasnt FILE TEXT    the script fails if FILE holds TEXT
fail() { echo "$*"; exit 1; }
report() { local d; d=$(report_of "samples/trials/$1")
	[ "$(cat "$d.rc")" = 0 ] || fail "$1: report failed: $(tail -3 "$d.err")"
	ln -s "$d" "$tmp/$1"; }
has() { grep -qF -- "$2" "$1" || fail "$1: missing: $2"; }
hasnt() { ! grep -qF -- "$2" "$1" || fail "$1: still says: $2"; }
