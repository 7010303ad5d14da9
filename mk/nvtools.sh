#!/bin/sh
# Installs NVIDIA's cuobjdump from PyPI into DIR (default build/nvidia), for
# the tests that compare scaleaudit's reading of CUDA fat binaries with it:
#   nvtools.sh ensure [DIR]   install what is missing (quiet when all is there)
# The wheel nvidia-cuda-cuobjdump (about 300 kB) holds one program,
# bin/cuobjdump, that needs nothing but glibc. With NVCC_WHEEL=1 also NVIDIA's
# nvcc 13.5 (the wheel nvidia-cuda-nvcc: a 47 MB download, 88 MB of nvcc,
# ptxas and fatbinary kept), for the test that builds a --concat fat binary
# from PTX; it is not installed otherwise.
# Nothing is installed system-wide: the wheels are downloaded with pip
# (python3 -m pip download, no dependencies) and unpacked with python3's
# zipfile into DIR. When pip cannot reach PyPI (no network, no pip), this
# says so and succeeds: the tests that need the tools skip ("cuobjdump is
# not installed"), nothing else does.
set -eu
dir=${2:-build/nvidia}
version=13.5.37

# fetch WHEEL FILE...: download WHEEL and keep FILE... (paths inside it) in $dir/bin
fetch() {
	wheel=$1; shift
	tmp=$(mktemp -d)
	if ! python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmp" "$wheel==$version" \
		> "$tmp/log" 2>&1; then
		echo "nvtools: could not download $wheel $version from PyPI ($(tail -n 1 "$tmp/log")); the tests that need it will skip"
		rm -rf "$tmp"
		return 0
	fi
	mkdir -p "$dir/bin"
	python3 - "$tmp"/*.whl "$dir/bin" "$@" <<'PY'
import os, sys, zipfile
whl, out, want = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(whl) as z:
    names = z.namelist()
    for w in want:
        member = next(n for n in names if n.endswith("/bin/" + w))
        path = os.path.join(out, w)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with z.open(member) as src, open(path + ".tmp", "wb") as dst:
            dst.write(src.read())
        os.chmod(path + ".tmp", 0o755 if "." not in os.path.basename(w) else 0o644)
        os.replace(path + ".tmp", path)
PY
	echo "nvtools: installed $wheel $version into $dir/bin ($*)"
	rm -rf "$tmp"
}

if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
	[ -x "$dir/bin/cuobjdump" ] && exit 0
	echo "nvtools: python3 with pip is missing, so NVIDIA's cuobjdump is not installed; the tests that need it will skip"
	exit 0
fi
[ -x "$dir/bin/cuobjdump" ] || fetch nvidia-cuda-cuobjdump cuobjdump
if [ "${NVCC_WHEEL:-}" = 1 ] && [ ! -x "$dir/bin/nvcc" ]; then
	fetch nvidia-cuda-nvcc nvcc ptxas fatbinary nvcc.profile
fi
exit 0
