#!/bin/bash
# The committed sample trials are exactly what the generator writes: every
# scenario regenerated into a temp dir must match samples/trials byte for byte.
# Also: --list names every scenario, bad usage exits 2 with one line.
set -u
TOP=${TOP:-$(pwd)}
GEN=${SCALEAUDIT_GEN:-$TOP/scaleaudit-gen}
SAMPLES=$TOP/samples/trials

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

"$GEN" --list >"$tmp/list" || bad "--list exited $?"
names=$(awk '{print $1}' "$tmp/list")
[ -n "$names" ] || bad "--list printed nothing"
for d in "$SAMPLES"/*/; do
	n=$(basename "$d")
	grep -qx "$n" <<<"$names" || bad "--list does not show committed sample '$n'"
done
for n in $names; do
	[ -d "$SAMPLES/$n" ] || bad "scenario '$n' has no committed sample in samples/trials"
done
[ -d "$SAMPLES/ddp-scales-well" ] || bad "make demo needs samples/trials/ddp-scales-well"

# usage errors: exit 2, exactly one line on stderr, nothing on stdout
check_usage() {
	"$GEN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || bad "'$*' exited $rc, want 2"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "'$*' printed $(wc -l <"$tmp/err") lines on stderr, want 1"
	[ ! -s "$tmp/out" ] || bad "'$*' printed on stdout"
}
check_usage no-such-scenario -o "$tmp/x"
check_usage ddp-scales-well
check_usage --frobnicate
check_usage --all ddp-scales-well -o "$tmp/x"
check_usage ddp-scales-well -o "$tmp/x" --seed banana
[ ! -e "$tmp/x" ] || bad "a usage error created the output directory"

# an unwritable output directory: exit 1 and the path named
mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
if [ ! -w "$tmp/ro" ]; then
	"$GEN" ddp-scales-well -o "$tmp/ro/t" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 1 ] || bad "unwritable output exited $rc, want 1"
	grep -q "$tmp/ro/t" "$tmp/err" || bad "the I/O error does not name the path: $(cat "$tmp/err")"
fi
chmod 755 "$tmp/ro"

# byte for byte, twice (determinism within a run and against the commit)
"$GEN" --all -o "$tmp/a" || bad "--all exited $?"
"$GEN" ddp-scales-well -o "$tmp/one" || bad "one scenario exited $?"
diff -r "$tmp/a/ddp-scales-well" "$tmp/one" >/dev/null || bad "--all and a single scenario differ"
if ! diff -r "$SAMPLES" "$tmp/a" >"$tmp/diff"; then
	# A different zlib build (zlib-ng) may deflate differently: accept .gz
	# files whose decompressed bytes match, and say so; anything else fails.
	only_gz=1
	while read -r f; do
		rel=${f#"$SAMPLES"/}
		case $rel in
		*.gz) cmp -s <(gzip -dc "$f") <(gzip -dc "$tmp/a/$rel") || { bad "$rel differs (decompressed)"; only_gz=0; } ;;
		*) bad "$rel differs"; only_gz=0 ;;
		esac
	done < <(grep '^Binary files\|^diff -r' "$tmp/diff" | sed -E 's/^(Binary files|diff -r) ([^ ]+) .*/\2/')
	grep -q '^Only in' "$tmp/diff" && { bad "file sets differ"; grep '^Only in' "$tmp/diff" | head; }
	[ $only_gz -eq 1 ] && [ $fail -eq 0 ] && echo "note: gzip streams differ (another zlib build); contents identical"
fi
size=$(du -sb "$SAMPLES" | cut -f1)
[ "$size" -le 10485760 ] || bad "samples/trials is $size bytes, over 10 MB"

[ $fail -eq 0 ] && echo "ok: $(wc -w <<<"$names") scenarios regenerate identically ($size bytes)"
exit $fail
