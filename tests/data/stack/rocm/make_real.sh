#!/bin/sh
# Builds the ROCm fixtures that come from real tools, next to the synthesized
# ones of make_fixtures.py: AMDGPU code objects compiled by clang (14 or
# newer, with its AMDGPU back end) from the tiny OpenCL kernel below and
# linked by ld.lld, a clang-offload-bundler bundle of two of them, and a host
# shared object that carries that bundle in a .hip_fatbin section, as a HIP
# library does. Run it from this directory; the outputs are committed, so the
# tests need none of these tools. (clang 14 knows no gfx942: the synthesized
# fixtures cover it.)
set -eu
BIN=${LLVM_BIN:-$(dirname "$(readlink -f "$(command -v clang)")")}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '__kernel void twice(__global float *x, int i) { x[i] *= 2.0f; }\n' > "$tmp/k.cl"
obj() {	# target ID, output
	clang --target=amdgcn-amd-amdhsa -mcpu="$1" -nogpulib -O2 -c "$tmp/k.cl" -o "$tmp/k.o"
	"$BIN/ld.lld" -shared "$tmp/k.o" -o "$2"
}
obj gfx1030 real_gfx1030.hsaco
obj gfx90a:xnack+ "$tmp/a.hsaco"
obj gfx908:sramecc+:xnack- "$tmp/b.hsaco"
: > "$tmp/host"
"$BIN/clang-offload-bundler" -type=o \
	-targets=host-x86_64-unknown-linux-gnu,hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+,hipv4-amdgcn-amd-amdhsa--gfx908:sramecc+:xnack- \
	-inputs="$tmp/host,$tmp/a.hsaco,$tmp/b.hsaco" -outputs=real_gfx90a_gfx908.hipfb
printf 'int hip_host_marker(void) { return 14; }\n' > "$tmp/h.c"
cc -shared -fPIC -O2 -s -o "$tmp/h.so" "$tmp/h.c"
objcopy --add-section .hip_fatbin=real_gfx90a_gfx908.hipfb "$tmp/h.so" real_hip_host.so
