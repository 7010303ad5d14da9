#!/bin/bash
# make deb's package (mk/deb.sh, dpkg-buildpackage with debhelper): its
# version is the binary's; its Depends are exactly the packages that own the
# libraries its binary records as NEEDED (readelf -d, then dpkg -S); it holds
# the binary, the man pages compressed with gzip -9n (no name, no time), the
# completions where bash and Debian's zsh look, the docs uncompressed in the
# tree's layout (their links hold), and no scaleaudit-gen.
# Builds from a copy of the tree in a temporary folder (about half a minute).
# plain build only: debhelper builds the package from the sources with its own flags;
# of the build under test only the version is read, the same in every build.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool dpkg-buildpackage
need_tool dh
fail=0
bad() { echo "$*"; fail=1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

DEB_BUILD_OPTIONS="parallel=$(nproc)" mk/deb.sh "$tmp/deb" > "$tmp/out" 2>&1 ||
	{ cat "$tmp/out"; echo "mk/deb.sh failed"; exit 1; }
deb=$(ls "$tmp"/deb/scaleaudit_*.deb)
[ "$(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)" = "$("$SCALEAUDIT" --version)" ] ||
	bad "the package is $(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version), the binary says $("$SCALEAUDIT" --version)"

dpkg-deb -x "$deb" "$tmp/root"
bin=$tmp/root/usr/bin/scaleaudit
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//; s/[ :].*//' | LC_ALL=C sort -u)
# The owner of each NEEDED library, as ldd resolves it (usr-merged or not).
owners=$(for lib in $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
	path=$(ldd "$bin" | awk -v l="$lib" '$1 == l && $2 == "=>" { print $3 }')
	{ dpkg -S "$path" || dpkg -S "$(readlink -f "$path")" || dpkg -S "/usr$path"; } 2> /dev/null |
		sed -n '1s/[:,].*//p' | grep . || echo "nobody-owns-$lib"
done | LC_ALL=C sort -u)
[ "$depends" = "$owners" ] ||
	bad "Depends and the owners of the NEEDED libraries differ (< Depends, > owners):" \
	    "$(diff <(echo "$depends") <(echo "$owners") | grep '^[<>]' | tr '\n' ' ')"
# Known answers: the archive, compression and database libraries are among them.
for p in libarchive13 liblz4-1 libzstd1 libsqlite3-0 libc6; do
	grep -qx "$p" <<< "$depends" || bad "Depends lacks $p"
done

files=$(dpkg-deb -c "$deb" | awk '{ print $6 }')
for f in ./usr/bin/scaleaudit ./usr/share/man/man1/scaleaudit.1.gz \
	 ./usr/share/bash-completion/completions/scaleaudit ./usr/share/zsh/vendor-completions/_scaleaudit \
	 ./usr/share/doc/scaleaudit/copyright; do
	grep -qxF "$f" <<< "$files" || bad "the package lacks $f"
done
grep -q scaleaudit-gen <<< "$files" && bad "the package holds scaleaudit-gen"
for m in "$tmp"/root/usr/share/man/man*/*; do
	# gzip -n: byte 3 (flags) has no FNAME bit, bytes 4-7 (mtime) are 0
	[ "$(od -An -tx1 -j3 -N5 "$m" | tr -d ' \n')" = 0000000000 ] ||
		bad "${m#"$tmp"/root} is not gzip -n: $(od -An -tx1 -N10 "$m")"
done
# The docs stay uncompressed, so that their links hold.
for f in ./usr/share/doc/scaleaudit/README.md ./usr/share/doc/scaleaudit/docs/report.md \
	 ./usr/share/doc/scaleaudit/docs/img/01-step-time.png; do
	grep -qxF "$f" <<< "$files" || bad "the package lacks $f"
done
"$bin" --version > /dev/null || bad "the packaged binary does not run"
exit $fail
