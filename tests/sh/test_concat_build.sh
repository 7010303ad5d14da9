#!/bin/bash
# Builds fat binaries with nvcc --concat (nvcc 13.5 and later: `make check
# NVCC_WHEEL=1` installs NVIDIA's nvcc 13.5 from PyPI into build/nvidia) from
# the committed PTX tests/data/stack/k.ptx (ISA 9.5, made by nvcc 13.5 from
# k.cu), so that only nvcc, ptxas and fatbinary are needed, and checks that
# scaleaudit reads each cubin and PTX that cuobjdump lists, and the ISA the
# PTX declares. The committed concat*.fatbin fixtures are read in every run
# by test_codescan and test_codescan_cuobjdump.sh.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
. "$TOP/tests/skip.sh"
PATH=$TOP/build/nvidia/bin:$PATH
for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do [ -d "$d" ] && PATH=$PATH:$d; done
need_option nvcc --concat
need_tool cuobjdump
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
gc() { for a in "$@"; do printf ' -gencode arch=compute_80,code=%s' "$a"; done; }

while read -r name mode archs; do
	[ "$mode" = - ] && mode=
	# shellcheck disable=SC2046,SC2086
	nvcc -fatbin --concat $mode $(gc $archs) -o "$tmp/$name.fatbin" "$TOP/tests/data/stack/k.ptx" ||
		{ echo "$name: nvcc failed"; fail=1; continue; }
	got=$(cuobjdump -all --list-elf --list-ptx "$tmp/$name.fatbin" 2>&1 |
	      sed -nE 's/^ELF file.*\.(sm_[0-9]+[af]?)\.cubin$/\1/p; s/^PTX file.*\.sm_([0-9]+[af]?)\.ptx$/compute_\1/p' |
	      sort -u | tr '\n' ' ')
	names=$("$SCALEAUDIT" stack --json "$tmp/$name.fatbin" 2> "$tmp/err" | python3 -c '
import json, sys
i = json.load(sys.stdin)["items"][0]
print("\n".join(i["sass"] + i["ptx"]))' | sort -u | tr '\n' ' ')
	want=$(tr ' ' '\n' <<< "$archs" | sort -u | tr '\n' ' ')
	[ "$got" = "$want" ] || { echo "$name: cuobjdump lists '$got', expected '$want'"; fail=1; }
	[ "$names" = "$want" ] || { echo "$name: scaleaudit reads '$names', expected '$want'"; fail=1; }
	[ -s "$tmp/err" ] && { echo "$name: scaleaudit said:"; cat "$tmp/err"; fail=1; }
done <<'LIST'
zstd - sm_80 sm_90 sm_100 sm_120 compute_80
lz4 --compress-mode=speed sm_100 sm_103 sm_120 sm_121
LIST

# the PTX of k.ptx declares ISA 9.5 (CUDA 13.5): what sm_110, which has no cubin, would JIT
"$SCALEAUDIT" stack --json --target sm_110 "$tmp/zstd.fatbin" > "$tmp/json"
python3 - "$tmp/json" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))["items"][0]["jit"]["sm_110"]
if (j["ptx"], j["ptx_isa"], j["min_cuda"]) != ("compute_80", "9.5", "13.5"):
    print("jit of the --concat build:", j); sys.exit(1)
PY
exit $fail
