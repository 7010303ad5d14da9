#!/bin/sh
# Installs the Debian packages scaleaudit builds and tests with.
#   deps.sh ensure    install only if something is missing (quiet when all is there)
#   deps.sh install   install whatever is missing, saying what
#   deps.sh missing   only print the required packages that are missing, one a line
# Nothing is downloaded from anywhere but the system's own apt sources.
# A package marked "optional" is wanted by tests only (chromium, for the
# browser test of report.html; dpkg-dev and debhelper, to build the .deb;
# zsh, for its completion; libisal-dev, ISA-L's inflate, three times zlib's
# speed on gzipped traces; GNU parallel, munge, slurmctld, slurmd and
# slurm-client, to run docs/batch.md's scheduler recipes on a Slurm cluster
# the test starts and stops itself): when it cannot be installed, deps.sh
# says so and succeeds; the tests that need it skip, and gzip is inflated by
# zlib. Installing munge starts its system service (with a key of its own);
# Slurm's system services do not start without an /etc/slurm/slurm.conf, and
# the tests never use them.
set -eu

# pkg-config name (or "header:PATH" / "file:PATH" / "cmd:NAME"), the Debian package that provides it,
# and "optional" for a test tool whose absence is a skip
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
libisal                            libisal-dev optional
cmocka                             libcmocka-dev
cmd:pdftotext                      poppler-utils
cmd:groff                          groff-base
cmd:cc                             gcc
cmd:make                           make
cmd:chromium                       chromium optional
cmd:dpkg-buildpackage              dpkg-dev optional
cmd:dh                             debhelper optional
cmd:zsh                            zsh optional
cmd:strace                         strace optional
cmd:parcat                         parallel optional
cmd:munged                         munge optional
cmd:slurmctld                      slurmctld optional
cmd:slurmd                         slurmd optional
cmd:sbatch                         slurm-client optional
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
echo "$list" | { while read -r what pkg opt; do
	[ -n "$what" ] || continue
	have "$what" || printf '%s %s\n' "${opt:-required}" "$pkg"
done; } > "${TMPDIR:-/tmp}/scaleaudit-deps.$$"
missing=$(awk '$1 == "required" { print $2 }' "${TMPDIR:-/tmp}/scaleaudit-deps.$$" | sort -u | tr '\n' ' ')
optional=$(awk '$1 == "optional" { print $2 }' "${TMPDIR:-/tmp}/scaleaudit-deps.$$" | sort -u | tr '\n' ' ')
optional=${optional% }
rm -f "${TMPDIR:-/tmp}/scaleaudit-deps.$$"
if [ "${1:-ensure}" = missing ]; then
	[ -z "$missing" ] || printf '%s\n' $missing
	exit 0
fi

if [ -z "$missing$optional" ]; then
	[ "${1:-ensure}" = install ] && echo "deps: everything is installed"
	exit 0
fi

# Optional packages are tried once; their failure is a line, never an error.
# All at once first; when that fails, one by one, so that one package this
# system lacks does not keep the others out.
try_optional() {
	got='' failed=''
	[ -n "$optional" ] || return 0
	# shellcheck disable=SC2086
	if $sudo apt-get install -y -q --no-install-recommends $optional >/dev/null 2>&1; then
		echo "deps: installed $optional"
		return 0
	fi
	for p in $optional; do
		if $sudo apt-get install -y -q --no-install-recommends "$p" >/dev/null 2>&1; then
			got="$got $p"
		else
			failed="$failed $p"
		fi
	done
	[ -z "$got" ] || echo "deps: installed${got}"
	echo "deps: could not install${failed}; the tests that need it will skip (without libisal-dev, gzip is inflated by zlib)"
}

if ! command -v apt-get >/dev/null 2>&1; then
	if [ -z "$missing" ]; then
		echo "deps: $optional not installed (not a Debian-like system); the tests that need it will skip"
		exit 0
	fi
	echo "deps: missing packages: $missing" >&2
	echo "deps: this is not a Debian-like system; install their equivalents by hand" >&2
	exit 1
fi

sudo=
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		sudo=sudo
	elif [ -z "$missing" ]; then
		echo "deps: $optional not installed (run as root, or install sudo); the tests that need it will skip"
		exit 0
	else
		echo "deps: missing packages: $missing (run as root, or install sudo)" >&2
		exit 1
	fi
fi

export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null || [ -z "$missing" ]
if [ -n "$missing" ]; then
	echo "deps: installing $missing"
	# shellcheck disable=SC2086
	$sudo apt-get install -y -q --no-install-recommends $missing >/dev/null
fi
try_optional
echo "deps: done"
