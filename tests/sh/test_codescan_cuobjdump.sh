#!/bin/bash
# The CUDA fixtures of tests/data/stack hold the architectures make-fixtures.sh
# asked nvcc for, as NVIDIA's cuobjdump lists them (-all --list-elf
# --list-ptx: every fat binary section, relocatable ones included), and
# scaleaudit reads the same ones (stack --json: sass and ptx; PTX for sm_N is
# named compute_N there). Compared as sets: a shared object repeats an arch
# once per fatbin. cuobjdump names a cubin of a family target (sm_100f) by
# its SM alone (sm_100): only scaleaudit's cubin names lose the f before the
# comparison. make check installs cuobjdump 13.5 from PyPI into build/nvidia
# (mk/nvtools.sh); cuobjdump older than 12.8 cannot read CUDA 13 cubins, and
# only 13.5 and later read nvcc --concat entries.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
. "$TOP/tests/skip.sh"
PATH=$TOP/build/nvidia/bin:$PATH
# every installed toolkit: /usr/local/cuda is often only a link to one of them
for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do [ -d "$d" ] && PATH=$PATH:$d; done
need_tool cuobjdump
need_tool python3
cd "$TOP/tests/data/stack" || exit 1
fail=0
while read -r file want; do
  got=$(cuobjdump -all --list-elf --list-ptx "$file" 2>&1 |
        sed -nE 's/^ELF file.*\.(sm_[0-9]+[af]?)\.cubin$/\1/p; s/^PTX file.*\.sm_([0-9]+[af]?)\.ptx$/compute_\1/p' |
        sort -u | tr '\n' ' ')
  read_=$("$SCALEAUDIT" stack --json "$file" 2>/dev/null | python3 -c '
import json, re, sys
d = json.load(sys.stdin)
names = [re.sub(r"f$", "", a) for i in d["items"] for a in i["sass"]]
names += [a for i in d["items"] for a in i["ptx"]]
print(" ".join(sorted(set(names))))' | tr ' ' '\n' | sort -u | tr '\n' ' ')
  want=$(tr ' ' '\n' <<< "$want" | sort -u | tr '\n' ' ')
  if [ "$got" != "$want" ]; then
    echo "$file: cuobjdump lists '$got', expected '$want'"
    fail=1
  fi
  if [ "$read_" != "$want" ]; then
    echo "$file: scaleaudit reads '$read_', expected '$want'"
    fail=1
  fi
done <<'LIST'
all-default.fatbin sm_80 sm_90 sm_90a sm_100 sm_100a sm_120 compute_120
all-zstd.fatbin sm_80 sm_90 sm_90a sm_100 sm_100a sm_120 compute_120
all-lz4.fatbin sm_80 sm_90 sm_90a sm_100 sm_100a sm_120 compute_120
none.fatbin sm_90 compute_120
ptx120.fatbin compute_120
ptx90.fatbin compute_90
family.fatbin sm_100 sm_120
concat.fatbin sm_100 sm_120 compute_120
concat-mix.fatbin sm_80 sm_90 sm_90a sm_100 sm_100a sm_120 compute_120
concat-lz4.fatbin sm_100 sm_120
multi.so sm_90 sm_120 compute_120
sm90.so sm_90
rdc.so sm_100 sm_100a
relptx.so sm_80 compute_90
ptx-only.so compute_120
libk.a sm_80 sm_100a sm_120
LIST
exit $fail
