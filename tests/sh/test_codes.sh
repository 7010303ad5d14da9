#!/bin/bash
# Every code the sources raise is in the table of core/codes.c with the
# severities it is raised with, and every entry of the table is raised
# somewhere (tests/sh/codes_check.pl). Then the checker is shown to catch
# each kind of drift, on copies with one planted fault each.
set -u
TOP=${TOP:-$(pwd)}
cd "$TOP" || exit 2
CHECK=tests/sh/codes_check.pl
TABLE=core/codes.c
mapfile -t SRC < <(find core ingest analysis render replay cli samples tools -name '*.c' \
	! -path "$TABLE" 2>/dev/null | sort)
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

out=$(perl "$CHECK" "$TABLE" "${SRC[@]}") || fail "the sources and the table disagree"
echo "$out"
calls=$(sed -n 's/.* codes in the table, \([0-9]*\) calls checked$/\1/p' <<<"$out")
[ "${calls:-0}" -ge 60 ] || fail "only ${calls:-0} calls found: the checker lost track of the sources"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_fault NAME 'expected line, its line number as N' FILE SED-SCRIPT: plant the fault in a copy of FILE
expect_fault() {
	local name=$1 want=$2 file=$3 script=$4 args=() f got
	mkdir -p "$tmp/$name/$(dirname "$file")"
	sed "$script" "$file" > "$tmp/$name/$file"
	cmp -s "$file" "$tmp/$name/$file" && { fail "$name: the fault was not planted"; return; }
	for f in "$TABLE" "${SRC[@]}"; do
		if [ "$f" = "$file" ]; then args+=("$tmp/$name/$f"); else args+=("$f"); fi
	done
	got=$(perl "$CHECK" "${args[@]}") && fail "$name: the checker passed"
	# line numbers move as the sources change: compare them as N
	sed -E 's/^([^ ]*\.c):[0-9]+: /\1:N: /' <<<"$got" | grep -qxF "$want" || fail "$name: no line '$want' in:"$'\n'"$got"
}

expect_fault unknown "$tmp/unknown/ingest/walk.c:N: code 'too-deeep' is not in $TABLE" \
	ingest/walk.c 's/"too-deep"/"too-deeep"/'
expect_fault dead "$TABLE: code 'too-deep' is raised nowhere: remove its entry" \
	ingest/walk.c 's/"too-deep"/"too-deeep"/'
expect_fault severity "$tmp/severity/analysis/compare.c:N: code 'baseline-missing' is raised as info, but $TABLE says warning" \
	analysis/compare.c 's/DIAG_WARNING, "baseline-missing"/DIAG_INFO, "baseline-missing"/'
expect_fault table-severity "$tmp/table-severity/$TABLE: code 'empty' is never raised as warning: correct its severity" \
	"$TABLE" 's/{ "empty", E,/{ "empty", E | W,/'
expect_fault unused "$tmp/unused/$TABLE: code 'never-raised' is raised nowhere: remove its entry" \
	"$TABLE" 's/^\t{ "empty", E,/\t{ "never-raised", W, CODE_INPUT, "x", "x.", "x." },\n&/'
expect_fault variable "$tmp/variable/ingest/walk.c:N: diag_error() gets code 'which': pass a string literal" \
	ingest/walk.c 's/"too-deep"/which/'
expect_fault wrapper "$tmp/wrapper/ingest/gpumon.c:N: code 'dcgmi-error' is raised as error, but $TABLE says warning" \
	ingest/gpumon.c 's/diag_warn(m->ctx->diags, code,/diag_error(m->ctx->diags, code,/'

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "ok: sources and table agree, and each planted fault is caught"
