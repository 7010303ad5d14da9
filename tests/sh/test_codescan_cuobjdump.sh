#!/bin/bash
# The CUDA fixtures of tests/data/stack hold the architectures make-fixtures.sh
# asked nvcc for, as NVIDIA's cuobjdump lists them (--list-elf --list-ptx);
# tests/unit/test_codescan.c asserts that the scanner finds the same ones
# (PTX for sm_N is named compute_N there). Compared as sets: a shared object
# repeats an arch once per fatbin. Needs cuobjdump 12.8+ (older ones cannot
# read CUDA 13 cubins).
set -u
. tests/skip.sh
# every installed toolkit: /usr/local/cuda is often only a link to one of them
for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do [ -d "$d" ] && PATH=$PATH:$d; done
need_tool cuobjdump
cd tests/data/stack || exit 1
fail=0
while read -r file want; do
  got=$(cuobjdump --list-elf --list-ptx "$file" 2>&1 |
        sed -nE 's/^ELF file.*\.(sm_[0-9]+[af]?)\.cubin$/\1/p; s/^PTX file.*\.sm_([0-9]+[af]?)\.ptx$/compute_\1/p' |
        sort -u | tr '\n' ' ')
  want=$(tr ' ' '\n' <<< "$want" | sort -u | tr '\n' ' ')
  if [ "$got" != "$want" ]; then
    echo "$file: cuobjdump lists '$got', expected '$want'"
    fail=1
  fi
done <<'LIST'
all-default.fatbin sm_80 sm_90 sm_90a sm_100 sm_100a sm_120 compute_120
all-zstd.fatbin sm_80 sm_90 sm_90a sm_100 sm_100a sm_120 compute_120
all-lz4.fatbin sm_80 sm_90 sm_90a sm_100 sm_100a sm_120 compute_120
none.fatbin sm_90 compute_120
ptx120.fatbin compute_120
ptx90.fatbin compute_90
family.fatbin sm_100f sm_120f
multi.so sm_90 sm_120 compute_120
sm90.so sm_90
rdc.so sm_100 sm_100a
ptx-only.so compute_120
libk.a sm_80 sm_100a sm_120
LIST
exit $fail
