#!/bin/bash
# debian/control's Build-Depends are the Makefile's build packages (PKGS, OPTPKGS) by
# their Debian names as mk/deps.sh installs them, with pkg-config and
# debhelper: the package builds with what `make` builds with, no more, no
# less. The package's version is the one the binary prints, and debian/rules
# is executable (dpkg-buildpackage runs it).
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
fail=0
bad() { echo "$*"; fail=1; }

# The Debian package of each PKGS and OPTPKGS entry (libcsv, without a .pc file, by its header).
want=$( { echo debhelper-compat; echo pkg-config
	for p in $(sed -n 's/^\(OPT\)\{0,1\}PKGS *:= *//p' Makefile); do
		[ "$p" = libcsv ] && p=header:/usr/include/csv.h
		pkg=$(awk -v p="$p" '$1 == p { print $2 }' mk/deps.sh)
		[ -n "$pkg" ] && echo "$pkg" || echo "no-deps.sh-line-for-$p"
	done; } | LC_ALL=C sort -u)
got=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' debian/control | sed '$d; s/^Build-Depends://' |
	tr ',' '\n' | sed 's/^ *//; s/[ (].*//' | grep . | LC_ALL=C sort -u)
[ "$got" = "$want" ] || bad "Build-Depends (>) against the Makefile's packages (<): $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | tr '\n' ' ')"
[ "$(echo "$got" | wc -l)" -ge 13 ] || bad "only $(echo "$got" | wc -l) build dependencies"

version=$(sed -n '1s/^scaleaudit (\([^)]*\)).*/\1/p' debian/changelog)
[ "scaleaudit $version" = "$("$SCALEAUDIT" --version)" ] || bad "debian/changelog says $version, the binary $("$SCALEAUDIT" --version)"
[ "$(cat debian/source/format)" = "3.0 (native)" ] || bad "debian/source/format: $(cat debian/source/format)"
[ -x debian/rules ] || bad "debian/rules is not executable"
exit $fail
