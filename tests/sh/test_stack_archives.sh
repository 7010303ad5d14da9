#!/bin/bash
# `stack` on packages read in place (tests/data/stack/variants, built by
# make-variants.sh): a wheel, a .conda and a .tar.bz2 named, and the same met
# in a walked directory, have their libraries judged under ARCHIVE/PATH
# names; a member too large to scan is said and makes the exit status 3; a
# damaged archive gives one error naming it, the member and the byte.
# Only the columns this reading decides are checked (path, kind, archs).
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$TOP/tests/data/stack/variants" || exit 1
W=bitsandbytes-0.0.1-py3-none-manylinux_2_24_x86_64.whl
SITE=lib/python3.11/site-packages/bitsandbytes

# the item lines of out: path, kind and archs, whatever the verdict columns say
items() {
	awk '/^item /{on=1; next} on && NF==0 {exit} on {
		line = $1 " " $2; for (i = 3; i <= NF && $i ~ /^(sm_|compute_|gfx|lto_)/; i++) line = line " " $i
		print line }' "$1"
}

libs() {	# the five libraries with GPU code under the prefix $1
	printf '%s\n' "$1/libbitsandbytes_cuda126.so shared-object sm_80 sm_90" \
		"$1/libbitsandbytes_cuda128.so shared-object sm_80 sm_100 sm_120" \
		"$1/libbitsandbytes_cuda130.so shared-object sm_100 sm_120" \
		"$1/libbitsandbytes_rocm62.so shared-object gfx90a:xnack+ gfx942:sramecc+:xnack-" \
		"$1/libbitsandbytes_rocm64.so shared-object gfx90a:xnack+ gfx908:sramecc+:xnack-"
}

check() {	# name, expected exit status, arguments...
	local name=$1 want=$2 rc
	shift 2
	"$SCALEAUDIT" stack --target sm_100,sm_120,gfx942 "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq "$want" ] || { echo "$name: exit $rc, expected $want"; cat "$tmp/err"; fail=1; }
	items "$tmp/out" > "$tmp/got"
	if ! diff -u "$tmp/want" "$tmp/got"; then echo "$name: items differ"; fail=1; fi
}

libs "$W/bitsandbytes" > "$tmp/want"
check wheel 0 "$W"
[ -s "$tmp/err" ] && { echo "wheel: unexpected messages"; cat "$tmp/err"; fail=1; }
grep -qx '1 binary without GPU code not listed' "$tmp/out" || { echo "wheel: the CPU library not counted"; fail=1; }

libs "bitsandbytes-0.0.1-cuda_0.conda/pkg-bitsandbytes-0.0.1-cuda_0.tar.zst/$SITE" > "$tmp/want"
check conda 0 bitsandbytes-0.0.1-cuda_0.conda
libs "bitsandbytes-0.0.1-cuda_0.tar.bz2/$SITE" > "$tmp/want"
check tar.bz2 0 bitsandbytes-0.0.1-cuda_0.tar.bz2
[ -s "$tmp/err" ] && { echo "tar.bz2: the link in the package was said"; cat "$tmp/err"; fail=1; }

# met in a walk: a downloads folder holding the wheel, beside the loose package
mkdir -p "$tmp/dl/site-packages"
cp "$W" "$tmp/dl/" && cp -r site-packages/bitsandbytes "$tmp/dl/site-packages/"
(cd "$tmp" && libs "dl/$W/bitsandbytes" && libs dl/site-packages/bitsandbytes) > "$tmp/want"
(cd "$tmp" && check walk 0 dl/)
grep -qx '2 binaries without GPU code not listed' "$tmp/out" || { echo "walk: the CPU libraries not counted"; fail=1; }

# a member too large: said, the rest judged, exit 3
echo "big-member.tar.zst/bitsandbytes/libbitsandbytes_cuda128.so shared-object sm_80 sm_100 sm_120" > "$tmp/want"
check big 3 big-member.tar.zst
echo "big-member.tar.zst/bitsandbytes/libhuge.so: warning: a binary of 314572800 bytes inside an archive is not scanned for GPU code: at most 268435456 bytes (256 MiB) are held in memory; extract the archive to judge it" > "$tmp/want_err"
diff -u "$tmp/want_err" "$tmp/err" || { echo "big: message differs"; fail=1; }

# damaged: one error; what came before the damage is judged
echo "cut.whl/bitsandbytes/libbitsandbytes_cuda126.so shared-object sm_80 sm_90" > "$tmp/want"
check cut.whl 3 cut.whl
echo "cut.whl: bitsandbytes/libbitsandbytes_cuda128.so: byte 4096: ZIP decompression failed (-5)" > "$tmp/want_err"
diff -u "$tmp/want_err" "$tmp/err" || { echo "cut.whl: message differs"; fail=1; }
: > "$tmp/want"
check cut.tar.bz2 1 cut.tar.bz2
head -1 "$tmp/err" | grep -qx 'cut.tar.bz2: truncated bzip2 input' || { echo "cut.tar.bz2: message"; cat "$tmp/err"; fail=1; }
[ "$(grep -c '^cut.tar.bz2' "$tmp/err")" -eq 1 ] || { echo "cut.tar.bz2: not one error"; fail=1; }
exit $fail
