#!/bin/sh
# Installs the Debian packages scaleaudit builds and tests with.
#   deps.sh ensure    install only if something is missing (quiet when all is there)
#   deps.sh install   install whatever is missing, saying what
# Nothing is downloaded from anywhere but the system's own apt sources.
set -eu

# pkg-config name (or "header:PATH" / "file:PATH") and the Debian package that provides it
list='
pkg-config:pkg-config              pkg-config
header:/usr/include/csv.h          libcsv-dev
cairo                              libcairo2-dev
pangocairo                         libpango1.0-dev
file:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf fonts-dejavu-core
libpcre2-8                         libpcre2-dev
yajl                               libyajl-dev
zlib                               zlib1g-dev
sqlite3                            libsqlite3-dev
inih                               libinih-dev
libarchive                         libarchive-dev
liblz4                             liblz4-dev
libzstd                            libzstd-dev
cmocka                             libcmocka-dev
cmd:pdftotext                      poppler-utils
cmd:groff                          groff-base
cmd:cc                             gcc
cmd:make                           make
'

have() {
	case "$1" in
	pkg-config:*) command -v pkg-config >/dev/null 2>&1 ;;
	header:*|file:*) [ -e "${1#*:}" ] ;;
	cmd:*) command -v "${1#cmd:}" >/dev/null 2>&1 ;;
	*) command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1" ;;
	esac
}

missing=
echo "$list" | { while read -r what pkg; do
	[ -n "$what" ] || continue
	have "$what" || printf '%s\n' "$pkg"
done; } > "${TMPDIR:-/tmp}/scaleaudit-deps.$$"
missing=$(sort -u "${TMPDIR:-/tmp}/scaleaudit-deps.$$" | tr '\n' ' ')
rm -f "${TMPDIR:-/tmp}/scaleaudit-deps.$$"

if [ -z "$missing" ]; then
	[ "${1:-ensure}" = install ] && echo "deps: everything is installed"
	exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: missing packages: $missing" >&2
	echo "deps: this is not a Debian-like system; install their equivalents by hand" >&2
	exit 1
fi

sudo=
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		sudo=sudo
	else
		echo "deps: missing packages: $missing (run as root, or install sudo)" >&2
		exit 1
	fi
fi

echo "deps: installing $missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $missing >/dev/null
echo "deps: done"
