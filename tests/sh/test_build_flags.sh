#!/bin/bash
# The build tracks its flags: an object built with some flags is rebuilt when
# a flag changes (SANITIZE, WERROR, CFLAGS) and left alone when none does.
# Works on one object in a temporary build directory, so it costs a few
# compiles, and asks make what it would do (make -n).
set -u
TOP=${TOP:-$(pwd)}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
b=$tmp/b
obj=$b/core/buf.o
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# Only what this script passes may reach make: not the flags of the make
# that runs the suite, nor a SANITIZE or CFLAGS of the caller's environment.
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE -u WERROR -u CFLAGS -u LDFLAGS -u V \
	make --no-print-directory -C "$TOP" BUILD="$b" "$@"; }
# Does `make -n ARGS` recompile core/buf.c?
recompiles() { mk -n "$@" "$obj" | grep -q -- "-c -o $obj core/buf.c"; }

mk "$obj" > "$tmp/out" 2>&1 || { cat "$tmp/out"; bad "building $obj failed"; exit 1; }
grep -q -- '-O2 -g' "$b/flags" || bad "$b/flags does not hold the compile flags: $(cat "$b/flags")"
recompiles && bad "nothing changed, yet make would recompile"
recompiles SANITIZE=address,undefined || bad "SANITIZE=address,undefined would not recompile"
recompiles WERROR=1 || bad "WERROR=1 would not recompile"
recompiles CFLAGS=-O0 || bad "CFLAGS=-O0 would not recompile"
mk -n SANITIZE=address "$obj" | grep -- "-c -o $obj core/buf.c" | grep -q -- -fsanitize=address ||
	bad "the recompile under SANITIZE=address does not pass -fsanitize=address"

# Build with -Werror: the flags file says so, and now the plain flags are the change.
before=$(cat "$b/flags")
mk WERROR=1 "$obj" > "$tmp/out" 2>&1 || { cat "$tmp/out"; bad "WERROR=1 build failed"; }
grep -q -- ' -Werror' "$b/flags" || bad "$b/flags lacks -Werror after a WERROR=1 build"
recompiles WERROR=1 && bad "WERROR=1 twice, yet make would recompile"
recompiles || bad "dropping WERROR=1 would not recompile"
mk "$obj" > /dev/null 2>&1
[ "$(cat "$b/flags")" = "$before" ] || bad "the flags file differs after going back to the plain flags"
[ "$b/flags" -nt "$obj" ] && bad "the flags file is newer than the object just built"

[ $fail -eq 0 ] && echo "ok: a changed flag rebuilds, an unchanged one does not"
exit $fail
