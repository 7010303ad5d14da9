#!/bin/bash
# Rebuilds the CUDA fixtures of the binary scanner (tests/unit/test_codescan.c)
# from k.cu, k2.cu and k3.cu with nvcc. The outputs are committed, so the tests
# never need CUDA; run this only to regenerate them (then update README and
# the expected values in the test). Needs nvcc 12.9+ (sm_100f); set NVCC to
# choose one. Host symbols are stripped to keep each file a few KB. The
# --concat fixtures need nvcc 13.5+ (NVCC_CONCAT; the PyPI wheels
# nvidia-cuda-nvcc and nvidia-nvvm 13.5 are enough, with the CUDA headers of
# any CUDA 13 toolkit given in CUDA_INCLUDE); without one they are kept.
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
STRIP=${STRIP:-strip}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gc() { for a in "$@"; do printf ' -gencode arch=compute_%s,code=%s' "${a%%:*}" "${a#*:}"; done; }
ALL=$(gc 80:sm_80 90:sm_90 90a:sm_90a 100:sm_100 100a:sm_100a 120:sm_120 120:compute_120)
SO="-shared -Xcompiler -fPIC -cudart shared"

# bare cubins: one SM each, read from their own ELF header
$NVCC -cubin -arch=sm_80 -o sm80.cubin k.cu
$NVCC -cubin -arch=sm_100a -o sm100a.cubin k.cu

# bare fatbins: every arch above, in each compression mode
$NVCC -fatbin $ALL -o all-default.fatbin k.cu
$NVCC -fatbin $(gc 90:sm_90 120:compute_120) --no-compress -o none.fatbin k.cu
$NVCC -fatbin $ALL -Xfatbin -compress-all -o all-zstd.fatbin k.cu
$NVCC -fatbin $ALL -Xfatbin -compress-all --compress-mode=speed -o all-lz4.fatbin k.cu
$NVCC -fatbin $(gc 120:compute_120) -o ptx120.fatbin k.cu
$NVCC -fatbin $(gc 90:compute_90) -o ptx90.fatbin k.cu	# what a B200 can only JIT
# family targets (nvcc refuses sm_100 and sm_100f in one fatbin)
$NVCC -fatbin $(gc 100f:sm_100f 120f:sm_120f) -o family.fatbin k.cu

# shared objects: two units (several fatbins), and -rdc (__nv_relfatbin)
$NVCC $SO $(gc 90:sm_90 120:sm_120 120:compute_120) -o multi.so k.cu k2.cu
$NVCC $SO -rdc=true $(gc 100:sm_100 100a:sm_100a) -o rdc.so k.cu k3.cu
$NVCC $SO $(gc 120:compute_120) --no-compress -o ptx-only.so k.cu
# -rdc with PTX: the PTX stays in __nv_relfatbin, the device link keeps only the cubin
$NVCC $SO -rdc=true $(gc 80:sm_80 90:compute_90) -o relptx.so k.cu
# an extension built for Hopper only (sm_90 SASS, no PTX): what a B200 run cannot load
$NVCC $SO $(gc 90:sm_90) -o sm90.so k.cu
# an extension built for Ampere: sm_80 SASS and compute_80 PTX, which a B200 runs only by JIT
$NVCC $SO $(gc 80:sm_80 80:compute_80) -o sm80-ptx80.so k.cu

# a relocatable object, an LTO-IR object and a static archive of objects
$NVCC -c $(gc 100a:sm_100a) -o sm100a.o k.cu
$NVCC -c $(gc 100:lto_100) -rdc=true -o lto100.o k.cu
$NVCC -c $(gc 80:sm_80 120:sm_120) -o "$tmp/k2.o" k2.cu
cp sm100a.o "$tmp/k.o"
rm -f libk.a
ar rcs libk.a "$tmp/k.o" "$tmp/k2.o"

# a fatbin kept in a data section, as libraries that load their own kernels do
# (cuFFT 12 holds ~24,000 fatbins in .ldata): the zstd fatbin as .rodata of an object
cp all-zstd.fatbin "$tmp/kernels.fatbin"
(cd "$tmp" && ld -r -b binary -o blob.o kernels.fatbin)
objcopy --rename-section .data=.rodata,alloc,load,readonly,data,contents \
	--set-section-alignment .rodata=8 "$tmp/blob.o" in-rodata.o

# nvcc 13.5 --concat: the cubins of one fatbin in one compressed entry (kind 0x100)
NVCC_CONCAT=${NVCC_CONCAT:-}
if [ -n "$NVCC_CONCAT" ]; then
	CI="-I${CUDA_INCLUDE:-/usr/local/cuda/include}"
	$NVCC_CONCAT -fatbin --concat $CI $(gc 100:sm_100 120:sm_120 120:compute_120) -o concat.fatbin k.cu
	$NVCC_CONCAT -fatbin --concat $CI $ALL -o concat-mix.fatbin k.cu
	$NVCC_CONCAT -fatbin --concat --compress-mode=speed $CI $(gc 100:sm_100 120:sm_120) -o concat-lz4.fatbin k.cu
	# the PTX tests/sh/test_concat_build.sh builds from (ISA 9.5), so that it needs no cicc
	$NVCC_CONCAT -ptx -arch=compute_80 $CI -o k.ptx k.cu
fi

for f in *.so; do $STRIP --strip-all "$f"; done
for f in sm100a.o lto100.o libk.a; do $STRIP --strip-debug "$f"; done
