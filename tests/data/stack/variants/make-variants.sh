#!/bin/bash
# Rebuilds the multi-backend package fixtures: a package laid out like
# bitsandbytes (one library per CUDA and ROCm version, and a CPU one), and
# the same package as a wheel, a conda .tar.bz2, a .conda, a tar.zst with a
# member too large to scan, and damaged copies. The outputs are committed,
# so the tests need neither CUDA nor ROCm; run this only to regenerate them
# (then update README.md and the tests). Needs nvcc 13 (sm_100, sm_120), cc,
# objcopy, strip, python3, bzip2 and zstd. The "versions" in the file names
# are what bitsandbytes' loader reads; the code in each is this project's
# own k.cu, for the architectures a build of that CUDA could hold.
set -eu
cd "$(dirname "$0")"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gc() { for a in "$@"; do printf ' -gencode arch=compute_%s,code=%s' "${a%%:*}" "${a#*:}"; done; }
SO="-shared -Xcompiler -fPIC -cudart shared"
pkg=site-packages/bitsandbytes
rm -rf site-packages && mkdir -p "$pkg"

# CUDA variants: 12.6 cannot build for Blackwell; 12.8 and 13.0 can
$NVCC $SO $(gc 80:sm_80 90:sm_90) -o $pkg/libbitsandbytes_cuda126.so ../k.cu
$NVCC $SO $(gc 80:sm_80 100:sm_100 120:sm_120) -o $pkg/libbitsandbytes_cuda128.so ../k.cu
$NVCC $SO $(gc 100:sm_100 120:sm_120) -o $pkg/libbitsandbytes_cuda130.so ../k.cu

# ROCm variants: a host library with an offload bundle in .hip_fatbin, as
# hipcc links it (the bundles are ../rocm's, written from the documented
# layout): rocm62 for gfx90a and gfx942, rocm64 for gfx90a and gfx908 only
printf 'int bnb_marker(void) { return 1; }\n' > "$tmp/h.c"
cc -shared -fPIC -O2 -s -o "$tmp/h.so" "$tmp/h.c"
objcopy --add-section .hip_fatbin=../rocm/bundle_gfx90a_gfx942.hipfb "$tmp/h.so" \
	$pkg/libbitsandbytes_rocm62.so
objcopy --add-section .hip_fatbin=../rocm/real_gfx90a_gfx908.hipfb "$tmp/h.so" \
	$pkg/libbitsandbytes_rocm64.so
cp "$tmp/h.so" $pkg/libbitsandbytes_cpu.so	# no GPU code
printf '"""a stand-in for bitsandbytes: only its native libraries matter here"""\n' \
	> $pkg/__init__.py
strip --strip-all $pkg/libbitsandbytes_cuda*.so

python3 - "$tmp" <<'EOF'
import io, os, sys, tarfile, zipfile
tmp = sys.argv[1]
pkg = "site-packages/bitsandbytes"
files = sorted(os.listdir(pkg))
T = 1700000000  # fixed times: the same bytes on every run

def zadd(z, name, data):
    i = zipfile.ZipInfo(name, (2023, 11, 14, 22, 13, 20))
    i.compress_type = zipfile.ZIP_DEFLATED
    i.external_attr = 0o644 << 16
    z.writestr(i, data)

def tadd(t, name, data):
    i = tarfile.TarInfo(name)
    i.size, i.mtime, i.mode = len(data), T, 0o644
    t.addfile(i, io.BytesIO(data))

def read(f):
    return open(os.path.join(pkg, f), "rb").read()

# the wheel: the package at its top, and its dist-info
with zipfile.ZipFile("bitsandbytes-0.0.1-py3-none-manylinux_2_24_x86_64.whl", "w") as z:
    for f in files:
        zadd(z, "bitsandbytes/" + f, read(f))
    zadd(z, "bitsandbytes-0.0.1.dist-info/METADATA", b"Metadata-Version: 2.1\nName: bitsandbytes\nVersion: 0.0.1\n")
    zadd(z, "bitsandbytes-0.0.1.dist-info/WHEEL", b"Wheel-Version: 1.0\nRoot-Is-Purelib: false\n")

# conda: the package under lib/python3.11/site-packages, info/ beside it,
# with a link inside the package (conda packages hold many)
def conda_tar(t, with_info):
    for f in files:
        tadd(t, "lib/python3.11/site-packages/bitsandbytes/" + f, read(f))
    l = tarfile.TarInfo("lib/python3.11/site-packages/bitsandbytes/libbitsandbytes.so")
    l.type, l.linkname, l.mtime = tarfile.SYMTYPE, "libbitsandbytes_cuda128.so", T
    t.addfile(l)
    if with_info:
        tadd(t, "info/index.json", b'{"name": "bitsandbytes", "version": "0.0.1"}\n')

with open(tmp + "/pkg.tar", "wb") as raw, tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as t:
    conda_tar(t, False)
with open(tmp + "/info.tar", "wb") as raw, tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as t:
    tadd(t, "info/index.json", b'{"name": "bitsandbytes", "version": "0.0.1"}\n')
with open(tmp + "/all.tar", "wb") as raw, tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as t:
    conda_tar(t, True)

# a member too large to scan (an ELF header, then 300 MiB of zeros) beside a real one
with open(tmp + "/big.tar", "wb") as raw, tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as t:
    tadd(t, "bitsandbytes/libbitsandbytes_cuda128.so", read("libbitsandbytes_cuda128.so"))
    i = tarfile.TarInfo("bitsandbytes/libhuge.so")
    i.size, i.mtime, i.mode = 300 << 20, T, 0o644
    class Zeros(io.RawIOBase):
        def __init__(self): self.left = i.size; self.head = b"\x7fELF\x02\x01\x01"
        def readable(self): return True
        def readinto(self, b):
            n = min(len(b), self.left)
            chunk = (self.head + bytes(n))[:n]; self.head = self.head[n:]
            b[:n] = chunk; self.left -= n; return n
    t.addfile(i, io.BufferedReader(Zeros()))
EOF

bzip2 -9 -c "$tmp/all.tar" > bitsandbytes-0.0.1-cuda_0.tar.bz2
zstd -q -19 -c "$tmp/pkg.tar" > "$tmp/pkg-bitsandbytes-0.0.1-cuda_0.tar.zst"
zstd -q -19 -c "$tmp/info.tar" > "$tmp/info-bitsandbytes-0.0.1-cuda_0.tar.zst"
printf '{"conda_pkg_format_version": 2}' > "$tmp/metadata.json"
(cd "$tmp" && rm -f out.conda && TZ=UTC touch -d @1700000000 metadata.json ./*.tar.zst &&
	zip -q -0 -X out.conda metadata.json pkg-bitsandbytes-0.0.1-cuda_0.tar.zst \
	info-bitsandbytes-0.0.1-cuda_0.tar.zst)
cp "$tmp/out.conda" bitsandbytes-0.0.1-cuda_0.conda
zstd -q -19 -c "$tmp/big.tar" > big-member.tar.zst

# damaged: the wheel cut in the middle of a library; the .tar.bz2 likewise
half() { head -c $(($(stat -c %s "$1") / 2)) "$1"; }
half bitsandbytes-0.0.1-py3-none-manylinux_2_24_x86_64.whl > cut.whl
half bitsandbytes-0.0.1-cuda_0.tar.bz2 > cut.tar.bz2
