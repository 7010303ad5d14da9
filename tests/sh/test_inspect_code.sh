#!/bin/bash
# scaleaudit inspect on binaries: what GPU code each holds (kind, archs,
# containers, entries, compressed and ZSTD entries) read by the same code as
# `stack`, alone and inside a trial, as text and as JSON; a damaged bundle
# keeps its message and makes inspect exit 3.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP/tests/data" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# 1. text: a .so with three fatbins, two of its entries ZSTD-compressed
(cd stack && "$SCALEAUDIT" inspect multi.so rocm/gfx942.hsaco) > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || { echo "text: exit $rc"; fail=1; }
cat > "$tmp/want" <<'WANT'
multi.so: elf (ELF object, library or executable)
  kind: shared-object
  sass: [sm_90, sm_120]
  ptx: [compute_120]
  ltoir: []
  amdgpu: []
  containers: 3
  entries: 8
  compressed_entries: 2
  zstd_entries: 2
  zstd_min_driver: 550.54.14
rocm/gfx942.hsaco: elf (ELF object, library or executable)
  kind: hsaco
  sass: []
  ptx: []
  ltoir: []
  amdgpu: [gfx942:sramecc+:xnack-]
  containers: 1
  entries: 1
  compressed_entries: 0
  zstd_entries: 0
  zstd_min_driver: -
WANT
diff "$tmp/want" "$tmp/out" || { echo "text differs"; fail=1; }
[ -s "$tmp/err" ] && { echo "text: unexpected stderr:"; cat "$tmp/err"; fail=1; }

# 2. JSON: a bare fatbin, and the extension inside a trial (the same keys as stack --json)
"$SCALEAUDIT" inspect --json stack/all-zstd.fatbin trials/blackwell-extension > "$tmp/out.json" 2> "$tmp/err"
rc=$?
[ $rc -eq 0 ] || { echo "json: exit $rc"; cat "$tmp/err"; fail=1; }
if command -v python3 > /dev/null; then
	python3 - "$tmp/out.json" <<'PY' || fail=1
import json, sys
files = {f["path"]: f for f in json.load(open(sys.argv[1]))["files"]}
want = {
    "stack/all-zstd.fatbin": dict(kind="fatbin", sass=["sm_80", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_120"],
                                  ptx=["compute_120"], ltoir=[], amdgpu=[], containers=1, entries=7,
                                  compressed_entries=7, zstd_entries=7, zstd_min_driver="550.54.14", skipped=None),
    "trials/blackwell-extension/2gpu/flash_attn_2_cuda.so": dict(kind="shared-object", sass=["sm_90"], ptx=[],
                                  ltoir=[], amdgpu=[], containers=2, entries=2, compressed_entries=0,
                                  zstd_entries=0, zstd_min_driver=None, skipped=None),
}
bad = 0
for path, keys in want.items():
    f = files.get(path)
    if f is None:
        print(f"json: {path} not listed"); bad += 1; continue
    for k, v in keys.items():
        if f.get(k, "absent") != v:
            print(f"json: {path}: {k} is {f.get(k, 'absent')!r}, expected {v!r}"); bad += 1
sys.exit(1 if bad else 0)
PY
fi

# 3. a damaged bundle: its message with the byte offset, exit 3 (read in part)
"$SCALEAUDIT" inspect stack/rocm/bad_count.hipfb > "$tmp/out" 2> "$tmp/err"
rc=$?
[ $rc -eq 3 ] || { echo "damaged: exit $rc, expected 3"; fail=1; }
grep -qx '  stack/rocm/bad_count.hipfb: byte 24: offload bundle says 1152921504606846976 entries, more than its 512 bytes can hold' "$tmp/out" ||
	{ echo "damaged: message:"; cat "$tmp/out"; fail=1; }
grep -q 'skipped' "$tmp/out" && { echo "damaged: still says skipped"; fail=1; }

[ $fail -eq 0 ] && echo "ok: inspect says what GPU code each binary holds"
exit $fail
