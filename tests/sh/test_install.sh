#!/bin/bash
# make install / uninstall into a temporary DESTDIR: exactly the expected
# files (the binary, every man page, bash and zsh completion, README.md and
# docs/ with its pictures, laid out as in the tree; never scaleaudit-gen), with
# their modes, under PREFIX (default /usr/local); the installed binary runs
# and reads its completion; uninstall leaves no file behind.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bad() { echo "$*"; fail=1; }
# Only what this script passes reaches make (not the suite's flags), and the
# binary under test is installed as it is, never rebuilt.
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SANITIZE -u WERROR -u CFLAGS -u LDFLAGS \
	-u PREFIX -u DESTDIR make --no-print-directory -s -C "$TOP" INSTALL_BIN="$SCALEAUDIT" "$@"; }

# expected PREFIX: the file list, "MODE PATH" sorted, from the tree's own files
expected() {
	local p=${1#/} f
	echo "755 $p/bin/scaleaudit"
	for f in man/*.1; do echo "644 $p/share/man/man1/${f#man/}"; done
	for f in man/*.5; do [ -e "$f" ] && echo "644 $p/share/man/man5/${f#man/}"; done
	echo "644 $p/share/bash-completion/completions/scaleaudit"
	echo "644 $p/share/zsh/site-functions/_scaleaudit"
	for f in README.md docs/*.md docs/*.json docs/img/*.png; do
		echo "644 $p/share/doc/scaleaudit/$f"
	done
} 
installed() { (cd "$1" && find . \( -type f -o -type l \) -printf '%m %P\n' | sort); }

for prefix in "" /opt/sa; do
	root=$tmp/root${prefix//\//_}
	mk install DESTDIR="$root" ${prefix:+PREFIX=$prefix} > "$tmp/out" 2>&1 || { cat "$tmp/out"; bad "make install ${prefix:+PREFIX=$prefix} failed"; continue; }
	diff <(expected "${prefix:-/usr/local}" | sort) <(installed "$root") > "$tmp/diff" ||
		{ bad "installed files ${prefix:+(PREFIX=$prefix) }differ (< expected, > installed):"; cat "$tmp/diff"; }
	bin=$root${prefix:-/usr/local}/bin/scaleaudit
	[ "$("$bin" --version 2>&1)" = "$("$SCALEAUDIT" --version)" ] || bad "the installed binary does not run: $("$bin" --version 2>&1)"
	"$bin" analyze samples/trials/ddp-scales-well > /dev/null 2>&1 || bad "the installed binary cannot analyse the sample trial"
	got=$(bash -c '. "$1"; COMP_WORDS=("$2" plan --strategy fs) COMP_CWORD=3; _scaleaudit; echo "${COMPREPLY[*]}"' \
		sh "$root${prefix:-/usr/local}/share/bash-completion/completions/scaleaudit" "$bin")
	[ "$got" = fsdp ] || bad "the installed bash completion, with the installed binary, completes 'plan --strategy fs' as '$got'"
	cmp -s man/scaleaudit.1 "$root${prefix:-/usr/local}/share/man/man1/scaleaudit.1" || bad "scaleaudit.1 is not installed as it is"
	mk uninstall DESTDIR="$root" ${prefix:+PREFIX=$prefix} > "$tmp/out" 2>&1 || { cat "$tmp/out"; bad "make uninstall failed"; }
	left=$(installed "$root")
	[ -z "$left" ] || bad "uninstall left: $left"
	[ ! -e "$root${prefix:-/usr/local}/share/doc/scaleaudit" ] || bad "uninstall left the doc folder"
	[ -d "$root${prefix:-/usr/local}/share/man/man1" ] || bad "uninstall removed a shared folder"
done

# The package's layout: PREFIX=/usr, zsh's vendor folder (debian/rules).
mk install DESTDIR="$tmp/pkg" PREFIX=/usr ZSHCOMPDIR=/usr/share/zsh/vendor-completions > "$tmp/out" 2>&1 ||
	{ cat "$tmp/out"; bad "make install PREFIX=/usr failed"; }
[ -f "$tmp/pkg/usr/share/zsh/vendor-completions/_scaleaudit" ] || bad "ZSHCOMPDIR is not honoured"
[ -f "$tmp/pkg/usr/bin/scaleaudit" ] || bad "PREFIX=/usr: no usr/bin/scaleaudit"
exit $fail
