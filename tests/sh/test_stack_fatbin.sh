#!/bin/bash
# scaleaudit stack on fat binaries of CUDA 13.x: nvcc 13.5 --concat entries
# (kind 0x100) read as their cubins, an entry kind the reader does not know
# as a warning naming the file and byte, and PTX that is only relocatable
# device code (__nv_relfatbin) shown as such in text and JSON. The fixtures
# are tests/data/stack/concat.fatbin and relptx.so (README there); the
# offsets were read with xxd.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP/tests/data/stack" || exit 1
. "$TOP/tests/skip.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# 1. --concat: sm_100 and sm_120 SASS in one ZSTD entry are both read (what
#    cuobjdump 13.5 lists: test_codescan_cuobjdump.sh); nothing on stderr
need_tool python3
"$SCALEAUDIT" stack --json concat.fatbin concat-lz4.fatbin > "$tmp/json" 2> "$tmp/err"
[ $? -eq 0 ] || { echo "concat: exit status"; fail=1; }
[ -s "$tmp/err" ] && { echo "concat: unexpected stderr:"; cat "$tmp/err"; fail=1; }
python3 - "$tmp/json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
got = sorted((i["path"], i["sass"], i["ptx"], i["zstd_entries"]) for i in d["items"])
want = [("concat-lz4.fatbin", ["sm_100", "sm_120"], [], 0),
        ("concat.fatbin", ["sm_100", "sm_120"], ["compute_120"], 3)]
if got != want:
    print("concat json:", got); sys.exit(1)
PY

# 2. an entry of a kind the reader does not know: a warning with the byte, never silence
cp concat.fatbin "$tmp/kind.fatbin"
printf '\x40' | dd of="$tmp/kind.fatbin" bs=1 seek=464 conv=notrunc status=none
"$SCALEAUDIT" stack "$tmp/kind.fatbin" > "$tmp/out" 2> "$tmp/err"
grep -q "$tmp/kind.fatbin: byte 464: warning: fatbin entry of kind 0x140, which scaleaudit does not know: its GPU code is not counted" "$tmp/err" ||
	{ echo "unknown kind: no warning:"; cat "$tmp/err"; fail=1; }
grep -q " compute_120 " "$tmp/out" || { echo "unknown kind: the PTX entry was not read:"; cat "$tmp/out"; fail=1; }

# 3. relocatable-only PTX: named in text and in JSON
"$SCALEAUDIT" stack --target sm_90 relptx.so > "$tmp/out" 2>&1
grep -qx "relocatable: relptx.so: compute_90 only as relocatable device code (__nv_relfatbin), which the CUDA runtime does not load from this file" "$tmp/out" ||
	{ echo "relocatable note:"; cat "$tmp/out"; fail=1; }
"$SCALEAUDIT" stack --json --target sm_90 relptx.so rdc.so > "$tmp/json"
python3 - "$tmp/json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
got = [(i["path"], i["relocatable_only"], i["ptx"]) for i in d["items"]]
# rdc.so carries sm_100 and sm_100a both linked and relocatable: nothing relocatable-only
want = [("relptx.so", ["compute_90"], ["compute_90"]), ("rdc.so", [], [])]
if sorted(got) != sorted(want):
    print("relocatable json:", got); sys.exit(1)
PY
exit $fail
