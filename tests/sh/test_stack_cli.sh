#!/bin/bash
# scaleaudit stack on the committed fixtures: the exact table, the jit note
# and the fixes for the default targets; JSON values for items, the
# environment of a pip freeze and a virtual environment, a ROCm arch list
# against gfx942, pip/conda package lists as JSON and text, ZSTD entries
# against an old driver, exit statuses for damage, nothing usable and usage errors.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP/tests/data" || exit 1
. "$TOP/tests/skip.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

expect_rc() {	# want got what
	[ "$2" -eq "$1" ] || { echo "$3: exit $2, expected $1"; fail=1; }
}

# 1. the table for the default targets sm_100 and sm_120
(cd stack && "$SCALEAUDIT" stack multi.so ptx-only.so family.fatbin sm80.cubin) > "$tmp/out" 2> "$tmp/err"
expect_rc 6 $? "table"
cat > "$tmp/want" <<'WANT'
targets: sm_100 sm_120

item           kind           archs                     sm_100   sm_120   fix
family.fatbin  fatbin         sm_100f sm_120f           native   native   -
multi.so       shared-object  sm_90 sm_120 compute_120  missing  native   rebuild multi with TORCH_CUDA_ARCH_LIST="10.0"
ptx-only.so    shared-object  compute_120               missing  jit      rebuild ptx-only with TORCH_CUDA_ARCH_LIST="10.0;12.0"
sm80.cubin     cubin          sm_80                     missing  missing  rebuild sm80 with TORCH_CUDA_ARCH_LIST="10.0;12.0"

jit: ptx-only.so on sm_120: only PTX compute_120 (ISA 9.0) that the driver compiles at start-up, which needs driver 580.65.06 or newer (CUDA 13.0); sm_120a/sm_120f features are absent

ready: sm_100 no, sm_120 no
  sm_100 no: no code for sm_100 in multi.so, ptx-only.so, sm80.cubin
  sm_120 no: no code for sm_120 in sm80.cubin
WANT
diff "$tmp/want" "$tmp/out" || { echo "table differs"; fail=1; }
[ -s "$tmp/err" ] && { echo "table: unexpected stderr:"; cat "$tmp/err"; fail=1; }

# 2. other targets: B300 runs sm_100 code, sm_100a only on B200, sm_90 SASS on H100
(cd stack && "$SCALEAUDIT" stack --target sm_103,sm_90,sm_100 libk.a rdc.so) > "$tmp/out" 2>&1
expect_rc 6 $? "targets"
grep -qx 'libk.a  archive        sm_80 sm_100a sm_120  missing  missing  native   rebuild libk with TORCH_CUDA_ARCH_LIST="10.3;9.0"' "$tmp/out" ||
	{ echo "libk.a line:"; cat "$tmp/out"; fail=1; }
grep -qx 'rdc.so  shared-object  sm_100 sm_100a        native   missing  native   rebuild rdc with TORCH_CUDA_ARCH_LIST="9.0"' "$tmp/out" ||
	{ echo "rdc.so line:"; cat "$tmp/out"; fail=1; }
grep -qx 'ready: sm_103 no, sm_90 no, sm_100 yes' "$tmp/out" || { echo "targets: ready line"; fail=1; }

# 3. usage errors and nothing usable
"$SCALEAUDIT" stack --target sm_10x stack/multi.so > /dev/null 2> "$tmp/err"
expect_rc 2 $? "bad target"
grep -qx "scaleaudit stack: --target: 'sm_10x' is not a GPU target (sm_100, sm_120, gfx942 ...)" "$tmp/err" ||
	{ echo "bad target message:"; cat "$tmp/err"; fail=1; }
"$SCALEAUDIT" stack > /dev/null 2> "$tmp/err"
expect_rc 2 $? "no path"
"$SCALEAUDIT" stack --target sm_100 stack/README.md stack/k.cu > "$tmp/out" 2> "$tmp/err"
expect_rc 1 $? "nothing usable"
grep -qx "scaleaudit: no GPU code and no environment report, package list or arch list found" "$tmp/err" ||
	{ echo "nothing usable message:"; cat "$tmp/err"; fail=1; }
printf '%s\n' 'ready: sm_100 unknown' \
	'  sm_100 unknown: nothing found: no GPU code, environment report, package list or arch list' |
	diff - <(tail -2 "$tmp/out") || { echo "nothing usable: every target is unknown"; fail=1; }
"$SCALEAUDIT" stack stack/multi.so stack/no-such-file > "$tmp/out" 2> "$tmp/err"
expect_rc 3 $? "a missing path"
grep -q "^stack/no-such-file: " "$tmp/err" || { echo "no diagnostic for the missing path"; fail=1; }
grep -q "^multi.so\|^stack/multi.so " "$tmp/out" || { echo "a missing path hid the rest"; fail=1; }

# 4. a walk: a link loop and a link to a directory are not followed, a linked file is read
mkdir -p "$tmp/tree/a/b"
cp stack/multi.so "$tmp/tree/a/b/"
ln -s ../.. "$tmp/tree/a/b/loop"
ln -s "$TOP/tests/data/stack" "$tmp/tree/linked-dir"
ln -s "$TOP/tests/data/stack/sm80.cubin" "$tmp/tree/sm80-link.cubin"
"$SCALEAUDIT" stack "$tmp/tree" > "$tmp/out" 2> "$tmp/err"
expect_rc 6 $? "walk"
[ "$(grep -c -e ' native ' -e ' missing ' "$tmp/out")" -eq 2 ] &&
	grep -q "^$tmp/tree/a/b/multi.so " "$tmp/out" && grep -q "^$tmp/tree/sm80-link.cubin " "$tmp/out" ||
	{ echo "walk:"; cat "$tmp/out" "$tmp/err"; fail=1; }

need_tool python3

# 5. JSON: items, environment from pip freeze, readiness
"$SCALEAUDIT" stack --json stack/multi.so stack/ptx-only.so pyenv/freeze_cu128.txt > "$tmp/json"
expect_rc 6 $? "json"
python3 - "$tmp/json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
def eq(what, got, want):
    if got != want:
        print(f"{what}: {got!r}, expected {want!r}")
        sys.exit(1)
eq("targets", d["targets"], ["sm_100", "sm_120"])
eq("paths", [i["path"] for i in d["items"]], ["stack/multi.so", "stack/ptx-only.so"])
m, p = d["items"]
eq("multi kind", m["kind"], "shared-object")
eq("multi sass", m["sass"], ["sm_90", "sm_120"])
eq("multi ptx", m["ptx"], ["compute_120"])
eq("multi amdgpu", m["amdgpu"], [])
eq("multi verdict", m["verdict"], {"sm_100": "missing", "sm_120": "native"})
eq("multi fix", m["fix"], 'rebuild multi with TORCH_CUDA_ARCH_LIST="10.0"')
eq("ptx-only verdict", p["verdict"], {"sm_100": "missing", "sm_120": "jit"})
eq("ptx-only jit", p["jit"], {"sm_120": {"ptx": "compute_120", "ptx_isa": "9.0",
                                          "min_cuda": "13.0", "min_driver": "580.65.06"}})
e = d["environment"]
eq("torch", e["torch"], "2.7.0")
eq("torch_cuda", e["torch_cuda"], "12.8")
eq("nccl", e["nccl"], "2.26.2")
eq("cudnn", e["cudnn"], "9.7.1.26")
eq("driver", e["driver"], None)
eq("packages", e["packages"], 11)
eq("checks", [(c["target"], c["component"], c["need"], c["ok"]) for c in e["checks"]],
   [(t, c, n, True) for t in ("sm_100", "sm_120")
    for c, n in (("CUDA", "12.8"), ("PyTorch", "2.7"), ("NCCL", "2.25.1"), ("cuDNN", "9.7"))])
eq("tool", d["tool"], {"name": "scaleaudit", "version": d["tool"]["version"], "document": "stack", "format": 2})
eq("ready", d["ready"], {"sm_100": "no", "sm_120": "jit"})
eq("why", d["why"], {"sm_100": "no code for sm_100 in stack/multi.so, stack/ptx-only.so",
                     "sm_120": "stack/ptx-only.so: compute_120 PTX only: JIT, without the sm_120a/sm_120f features"})
eq("group", [(i["group"], i["alternative"]) for i in d["items"]], [(None, False), (None, False)])
eq("without gpu code", d["binaries_without_gpu_code"], 0)
PY

# 6. a virtual environment: packages from its dist-info, nothing missing
"$SCALEAUDIT" stack --json --target sm_120 pyenv/venv > "$tmp/json"
expect_rc 0 $? "venv"
python3 - "$tmp/json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
e = d["environment"]
for k, v in (("torch", "2.7.0"), ("torch_cuda", "12.8"), ("nccl", "2.26.2")):
    if e[k] != v:
        print(f"venv {k}: {e[k]!r}, expected {v!r}"); sys.exit(1)
if d["items"] != [] or d["ready"] != {"sm_120": "yes"}:
    print("venv items/ready:", d["items"], d["ready"]); sys.exit(1)
if [c["ok"] for c in e["checks"]] != [True, True, True]:
    print("venv checks:", e["checks"]); sys.exit(1)
PY

# 7. a ROCm build's arch list: gfx942 covered, sm_100 not
"$SCALEAUDIT" stack --json --target gfx942,sm_100,gfx950 pyenv/arch_list_rocm.txt > "$tmp/json"
expect_rc 6 $? "rocm arch list"
python3 - "$tmp/json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
got = [(c["target"], c["component"], c["ok"]) for c in d["environment"]["checks"]]
want = [("gfx942", "arch list", True), ("sm_100", "arch list", False), ("gfx950", "arch list", False)]
if got != want or d["ready"] != {"gfx942": "yes", "sm_100": "no", "gfx950": "no"}:
    print("rocm arch list:", got, d["ready"]); sys.exit(1)
PY

# 7b. ROCm binaries: a HIP host library (gfx90a:xnack+ and gfx908 in its .hip_fatbin) and a gfx942 code object
"$SCALEAUDIT" stack --json --target gfx90a,gfx942 stack/rocm/real_hip_host.so stack/rocm/gfx942.hsaco > "$tmp/json"
expect_rc 6 $? "rocm binaries"
python3 - "$tmp/json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
got = {i["path"].split("/")[-1]: (i["kind"], i["amdgpu"], i["verdict"]) for i in d["items"]}
want = {"real_hip_host.so": ("shared-object", ["gfx90a:xnack+", "gfx908:sramecc+:xnack-"],
                             {"gfx90a": "native", "gfx942": "missing"}),
        "gfx942.hsaco": ("hsaco", ["gfx942:sramecc+:xnack-"], {"gfx90a": "missing", "gfx942": "native"})}
if got != want or d["ready"] != {"gfx90a": "no", "gfx942": "no"}:
    print("rocm binaries:", got, d["ready"]); sys.exit(1)
PY

# 7b2. package lists as pip list --format=json, conda list and conda list --json
for f in pip_list_cu128.json:2.7.0:12.8:2.26.2:True:0 conda_list_cu124.txt:2.5.1:12.4:2.21.5.1:False:6 \
	 conda_list_cf126.json:2.7.0:12.6:2.26.5.1:False:6; do
	IFS=: read -r file torch cuda nccl ok rc <<< "$f"
	"$SCALEAUDIT" stack --json --target sm_100 "pyenv/$file" > "$tmp/json"
	expect_rc "$rc" $? "$file"
	python3 - "$tmp/json" "$torch" "$cuda" "$nccl" "$ok" <<'PY' || { echo "in $file"; fail=1; }
import json, sys
d = json.load(open(sys.argv[1]))
e = d["environment"]
got = (e["torch"], e["torch_cuda"], e["nccl"], [c["ok"] for c in e["checks"] if c["component"] == "CUDA"])
want = (sys.argv[2], sys.argv[3], sys.argv[4], [sys.argv[5] == "True"])
if got != want:
    print("package list:", got, "expected", want); sys.exit(1)
PY
done
printf '[{"name": "torch", "version": "2.7.0"},\n {"name": }]\n' > "$tmp/bad.json"
"$SCALEAUDIT" stack "$tmp/bad.json" stack/multi.so > /dev/null 2> "$tmp/err"
expect_rc 3 $? "bad pip json"
grep -qx "$tmp/bad.json: byte 50: not JSON: parse error: unallowed token at this point in JSON text" "$tmp/err" || { echo "bad pip json:"; cat "$tmp/err"; fail=1; }

# 7c. compression: ZSTD entries do not load on a driver older than R550 (550.54.14); LZ4 ones do
sed 's/^Nvidia driver version: .*/Nvidia driver version: 535.104.05/' collect_env/classic-b200.txt > "$tmp/env535.txt"
"$SCALEAUDIT" stack --target sm_90 stack/all-zstd.fatbin stack/all-lz4.fatbin "$tmp/env535.txt" > "$tmp/out" 2>&1
expect_rc 6 $? "zstd"
grep -qx "zstd: stack/all-zstd.fatbin: 7 ZSTD-compressed entries, which only driver 550.54.14 or newer (R550) can load; the environment's driver is 535.104.05" "$tmp/out" ||
	{ echo "zstd note:"; cat "$tmp/out"; fail=1; }
[ "$(grep -c '^zstd: ' "$tmp/out")" -eq 1 ] || { echo "zstd: the lz4 file got a note"; fail=1; }
grep -qx 'ready: sm_90 no' "$tmp/out" || { echo "zstd: sm_90 should not be ready"; fail=1; }
"$SCALEAUDIT" stack --json --target sm_90 stack/all-zstd.fatbin stack/none.fatbin "$tmp/env535.txt" > "$tmp/json"
python3 - "$tmp/json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
got = [(i["path"], i["zstd_entries"], i["zstd_min_driver"], i["zstd_loads"]) for i in d["items"]]
want = [("stack/all-zstd.fatbin", 7, "550.54.14", False), ("stack/none.fatbin", 0, None, None)]
if got != want:
    print("zstd json:", got); sys.exit(1)
PY
sed 's/^Nvidia driver version: .*/Nvidia driver version: 550.54.14/' collect_env/classic-b200.txt > "$tmp/env550.txt"
"$SCALEAUDIT" stack --target sm_90 stack/all-zstd.fatbin "$tmp/env550.txt" > "$tmp/out" 2>&1
grep -q '^zstd: ' "$tmp/out" && { echo "zstd: driver 550.54.14 is enough"; fail=1; }
grep -qx 'ready: sm_90 yes' "$tmp/out" || { echo "zstd: sm_90 ready with 550.54.14:"; cat "$tmp/out"; fail=1; }

# 8. with ../shared: the environment report of an H200 machine (torch 2.5.1+cu124, driver 550)
if [ -n "${SHARED:-}" ]; then
	"$SCALEAUDIT" stack --target sm_100 "$SHARED/realdata/collect_env/vllm-14537_8xH200_torch2.5.1_cu124_driver550.txt" > "$tmp/out"
	expect_rc 6 $? "collect_env"
	cat > "$tmp/want" <<'WANT'
environment:
  sm_100 CUDA 12.4: needs 12.8 or newer: install a PyTorch wheel built with CUDA 12.8 or newer (cu128)
  sm_100 driver 550.90.07: needs 570.26 or newer: install an NVIDIA driver of branch R570 or newer (580.65.06 or newer for CUDA 13 builds)
  sm_100 PyTorch 2.5.1: needs 2.7 or newer: install PyTorch 2.7 or newer with cu128: pip install torch --index-url https://download.pytorch.org/whl/cu128
  sm_100 cuDNN 9.2.1: needs 9.7 or newer: install cuDNN 9.7 or newer (the nvidia-cudnn-cu12 wheel)

ready: sm_100 no
  sm_100 no: CUDA 12.4 is older than 12.8; driver 550.90.07 is older than 570.26; PyTorch 2.5.1 is older than 2.7; cuDNN 9.2.1 is older than 9.7
WANT
	sed -n '/^environment:/,$p' "$tmp/out" | diff "$tmp/want" - || { echo "collect_env checks differ"; fail=1; }
fi
exit $fail
