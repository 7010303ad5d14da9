#!/bin/bash
# stack's answer per target (yes, jit, unknown, no), its reason and the exit
# status on committed fixtures whose contents are known: sm80-ptx80.so (nvcc
# -gencode sm_80 + compute_80, see tests/data/stack/README.md), family.fatbin
# (sm_100f, sm_120f), hand-made and public collect_env reports
# (tests/data/collect_env/PROVENANCE.md); then the public reports of
# ../shared/realdata with and without their driver and ROCm lines.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP/tests/data/stack" || exit 1
. "$TOP/tests/skip.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# answer WANT_RC WANT_TAIL ARGS...: the exit status and the last lines (the summary and reasons)
answer() {
	local rc want_rc=$1 want=$2; shift 2
	"$SCALEAUDIT" stack "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	[ "$rc" -eq "$want_rc" ] || { echo "stack $*: exit $rc, expected $want_rc"; fail=1; }
	tail -n "$(printf '%s\n' "$want" | wc -l)" "$tmp/out" | diff <(printf '%s\n' "$want") - ||
		{ echo "stack $*: the answer differs"; fail=1; }
}

# jit: an Ampere build reaches B200 and RTX 50xx only through its compute_80 PTX; native on sm_80
answer 4 "ready: sm_100 jit, sm_120 jit
  sm_100 jit: sm80-ptx80.so: compute_80 PTX only: JIT, without sm_100's instructions
  sm_120 jit: sm80-ptx80.so: compute_80 PTX only: JIT, without sm_120's instructions" sm80-ptx80.so
answer 0 "ready: sm_100 jit (accepted), sm_120 jit (accepted)
  sm_100 jit: sm80-ptx80.so: compute_80 PTX only: JIT, without sm_100's instructions
  sm_120 jit: sm80-ptx80.so: compute_80 PTX only: JIT, without sm_120's instructions" --accept-jit sm80-ptx80.so
answer 0 "ready: sm_80 yes
  sm_80 yes: native code in 1 file; the driver is not checked: no input gives it" --target sm_80 sm80-ptx80.so
# PTX only as relocatable device code (__nv_relfatbin) of a linked library: the runtime never
# loads it, so it is no JIT fallback
answer 6 "ready: sm_90 no
  sm_90 no: no code for sm_90 in relptx.so" --target sm_90 relptx.so
# jit against the report's driver: 570.124.06 cannot compile the ISA 9.0 PTX nvcc 13.0 wrote
answer 6 "ready: sm_100 no
  sm_100 no: sm80-ptx80.so: its PTX (ISA 9.0) needs driver 580.65.06 or newer to compile, the driver is 570.124.06" \
	--target sm_100 sm80-ptx80.so ../collect_env/classic-b200.txt
# a jit next to a no: the worst decides
answer 6 "ready: sm_100 no
  sm_100 no: no code for sm_100 in multi.so" --target sm_100 --accept-jit sm80-ptx80.so multi.so

# yes: native code and a report whose every version meets sm_100's minimum
answer 0 "ready: sm_100 yes
  sm_100 yes: native code in 1 file; CUDA 12.8, driver 570.124.06, PyTorch 2.8.0.dev20250408, cuDNN 9.8.0: each meets its minimum" \
	--target sm_100 family.fatbin ../collect_env/classic-b200.txt

# unknown: the same report without its driver line; a pip freeze without PyTorch's build
answer 5 "ready: sm_100 unknown
  sm_100 unknown: the driver is not shown (the environment report has no \"Nvidia driver version\" line)" \
	--target sm_100 family.fatbin ../collect_env/no-driver.txt
printf 'torch==2.7.0\nnumpy==2.2.4\n' > "$tmp/freeze.txt"
answer 5 "ready: sm_120 unknown
  sm_120 unknown: PyTorch's GPU build is not shown (no \"CUDA used to build PyTorch\" line, no +cuXYZ or +rocmX.Y torch package)" \
	--target sm_120 family.fatbin "$tmp/freeze.txt"

# no: a CUDA build for gfx942, a ROCm build for sm_100, a CPU build for both
answer 6 "ready: gfx942 no
  gfx942 no: PyTorch is a CUDA build (CUDA 12.8): it has no code for AMD GPUs" --target gfx942 ../collect_env/classic-b200.txt
answer 6 "ready: sm_100 no
  sm_100 no: PyTorch is a ROCm build (ROCm 3.7.20315-077bcfa0): it has no code for NVIDIA GPUs; PyTorch 1.7.0a0 is older than 2.7" \
	--target sm_100 ../collect_env/rocm-pytorch-44106.txt
answer 6 "ready: sm_100 no, gfx942 no
  sm_100 no: PyTorch is a CPU build: it runs nothing on a GPU; PyTorch 2.3.0 is older than 2.7
  gfx942 no: PyTorch is a CPU build: it runs nothing on a GPU" --target sm_100,gfx942 ../collect_env/no-cuda.txt

# an unreadable path comes first: 3, whatever the answers
answer 3 "ready: sm_100 jit
  sm_100 jit: sm80-ptx80.so: compute_80 PTX only: JIT, without sm_100's instructions" --target sm_100 sm80-ptx80.so no-such-file

need_tool python3
# JSON: the archs the fixture was built with, ready as strings, why, the accepted jit stays jit
"$SCALEAUDIT" stack --json --accept-jit --target sm_100,sm_80 sm80-ptx80.so ../collect_env/no-driver.txt > "$tmp/json"
expect=$?
[ "$expect" -eq 5 ] || { echo "json: exit $expect, expected 5"; fail=1; }
python3 - "$tmp/json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
def eq(what, got, want):
    if got != want:
        print(f"{what}: {got!r}, expected {want!r}")
        sys.exit(1)
eq("tool", (d["tool"]["document"], d["tool"]["format"]), ("stack", 2))
i = d["items"][0]
eq("archs", (i["sass"], i["ptx"]), (["sm_80"], ["compute_80"]))
eq("verdict", i["verdict"], {"sm_100": "jit", "sm_80": "native"})
eq("jit", i["jit"]["sm_100"]["ptx"], "compute_80")
eq("variant", (i["group"], i["alternative"]), (None, False))
eq("ready", d["ready"], {"sm_100": "unknown", "sm_80": "unknown"})
eq("why", d["why"]["sm_80"], 'the driver is not shown (the environment report has no "Nvidia driver version" line)')
PY

# A multi-backend package (variants/, built as variants/README.md says): which variant loads
# unknown, a target is yes when a native variant exists; PyTorch cu128 loads cuda128 (sm_100
# native, gfx942 no); a ROCm 3.7 PyTorch matches no variant, so none loads.
W=variants/bitsandbytes-0.0.1-py3-none-manylinux_2_24_x86_64.whl
G=$W/bitsandbytes/libbitsandbytes_*
answer 0 "ready: sm_100 yes, gfx942 yes
  sm_100 yes: $G: libbitsandbytes_cuda128.so has native sm_100 code (which variant loads is unknown: no CUDA or ROCm version of PyTorch known); the driver is not checked: no input gives it
  gfx942 yes: $G: libbitsandbytes_rocm62.so has native gfx942 code (which variant loads is unknown: no CUDA or ROCm version of PyTorch known)" \
	--target sm_100,gfx942 "$W"
grep -qxF "  $G: loads libbitsandbytes_cuda128.so (native sm_100, missing gfx942); 4 other variants not loaded" \
	<("$SCALEAUDIT" stack --target sm_100,gfx942 "$W" ../collect_env/classic-b200.txt 2> /dev/null) ||
	{ echo "cu128: the loaded variant is not cuda128"; fail=1; }
answer 6 "ready: sm_100 yes, gfx942 no
  sm_100 yes: native code in 1 file; CUDA 12.8, driver 570.124.06, PyTorch 2.8.0.dev20250408, cuDNN 9.8.0: each meets its minimum
  gfx942 no: no code for gfx942 in $W/bitsandbytes/libbitsandbytes_cuda128.so; PyTorch is a CUDA build (CUDA 12.8): it has no code for AMD GPUs" \
	--target sm_100,gfx942 "$W" ../collect_env/classic-b200.txt
"$SCALEAUDIT" stack --target gfx942 "$W" ../collect_env/rocm-pytorch-44106.txt > "$tmp/out" 2> /dev/null
grep -qF "  gfx942 no: $G: no variant matches the environment's PyTorch build, so none loads" "$tmp/out" ||
	{ echo "ROCm 3.7: a variant is said to load"; tail -3 "$tmp/out"; fail=1; }
"$SCALEAUDIT" stack --json --target sm_100 "$W" > "$tmp/j" 2> /dev/null
python3 - "$tmp/j" <<'PY' || fail=1
import json, sys
items = [i for i in json.load(open(sys.argv[1]))["items"] if i.get("group")]
assert len(items) == 5 and all(i["loaded_unknown"] and not i["alternative"] for i in items), items
PY

need_shared
R=$SHARED/realdata/collect_env
# torch 2.8.0+cu128, "ROCM used to build PyTorch   : N/A", no driver line: gfx942 no, sm_100 unknown
answer 6 "ready: gfx942 no, sm_100 unknown
  gfx942 no: PyTorch is a CUDA build (CUDA 12.8): it has no code for AMD GPUs
  sm_100 unknown: the driver is not shown (the environment report has no \"Nvidia driver version\" line)" \
	--target gfx942,sm_100 "$R/vllm-27430_sectioned-format_A100_torch2.8.0_cu128.txt"
# with the driver line (535.154.05) and a cu126 build: no, both named
answer 6 "ready: sm_100 no
  sm_100 no: CUDA 12.6 is older than 12.8; driver 535.154.05 is older than 570.26" \
	--target sm_100 "$R/pytorch-150852_8xH100_torch2.8.0.dev_cu126_driver535.txt"
# an H100 machine's report: sm_90 is yes there (cu124 >= 11.8, driver 550.90.07 >= 520.61.05)
answer 0 "ready: sm_90 yes
  sm_90 yes: CUDA 12.4, driver 550.90.07: each meets its minimum" \
	--target sm_90 "$R/vllm-14537_8xH200_torch2.5.1_cu124_driver550.txt"
exit $fail
