#!/bin/sh
# make deb: builds the Debian package from a copy of the source tree (the
# files git tracks and the new ones it does not ignore; without git, all but
# the build outputs), so that nothing of this checkout's builds goes into it
# and dpkg-buildpackage writes nothing outside OUT.
#   deb.sh OUT    -> OUT/scaleaudit_VERSION_ARCH.deb (and its -dbgsym), .buildinfo, .changes
# Extra DEB_BUILD_OPTIONS (nocheck, noopt, parallel=N) pass through.
set -eu
out=$1
for tool in dpkg-buildpackage:dpkg-dev dh:debhelper; do
	command -v "${tool%:*}" > /dev/null && continue
	echo "deb: ${tool%:*} is missing: install ${tool#*:} (make deps does)" >&2
	exit 1
done
version=$(dpkg-parsechangelog -S Version)
src=$out/src/scaleaudit-$version
rm -rf "$out/src"
mkdir -p "$src"
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	git ls-files -z -co --exclude-standard |
		tar --null -T - --ignore-failed-read -cf - 2> /dev/null | tar -xf - -C "$src"
else
	tar --exclude=./build --exclude=./out --exclude=./scaleaudit --exclude=./scaleaudit-gen \
		-cf - . | tar -xf - -C "$src"
fi
# The calling make's jobserver and flags stay out of the package's build.
(cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed; the whole log is $out/build.log" >&2
	exit 1
}
mv "$out"/src/scaleaudit*_"$version"_* "$out"/
rm -rf "$out/src"
ls "$out"/scaleaudit_"$version"_*.deb
