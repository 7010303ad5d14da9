#!/bin/bash
# analyze on a trial whose run holds a binary with ZSTD-compressed entries
# (tests/data/stack/all-zstd.fatbin: 7 entries, sm_100 SASS among them, so
# native on the B200): with no driver in the logs, a note that loading is
# unverified; with collect_env's driver 535.104.05 (older than R550's
# 550.54.14), a warning with both drivers and the fix, and the run's
# readiness is not-ready for it; with 570.124.06, neither. The same checks
# `stack` makes (docs/stack.md "Compressed code and the driver").
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mk() {	# name driver(or "")
	cp -r tests/data/trials/blackwell-extension "$tmp/$1"
	rm "$tmp/$1/2gpu/flash_attn_2_cuda.so"
	cp tests/data/stack/all-zstd.fatbin "$tmp/$1/2gpu/"
	[ -n "$2" ] && sed "s/570\.124\.06/$2/" tests/data/collect_env/classic-b200.txt > "$tmp/$1/2gpu/collect_env.txt"
	"$SCALEAUDIT" analyze --json "$tmp/$1" > "$tmp/$1.json" 2> /dev/null
	rc=$?
	[ $rc -eq 0 ] || { echo "$1: analyze exited $rc"; exit 1; }
}
mk none ""
mk old 535.104.05
mk new 570.124.06
"$SCALEAUDIT" analyze "$tmp/old" > "$tmp/old.txt" 2> /dev/null
python3 - "$tmp" <<'PY' || exit 1
import json, sys
tmp = sys.argv[1]
bad = []
def want(what, got, exp):
    if got != exp:
        bad.append(f"{what}: got {got!r}, want {exp!r}")
def load(n):
    return json.load(open(f"{tmp}/{n}.json"))
def zstd(j):
    return [(f["code"], f["severity"], f["message"]) for f in j["findings"] if "zstd" in f["code"]]
ENTRIES = "this binary holds 7 ZSTD-compressed entries, which only driver 550.54.14 or newer (R550) can load"
for n in ("none", "old", "new"):
    j = load(n)
    fb = f"{tmp}/{n}/2gpu/all-zstd.fatbin"
    c = j["runs"][1]["readiness"]["code"]
    want(f"{n} code", [(x["path"], x["verdict"], x["zstd_entries"], x["zstd_min_driver"]) for x in c],
         [(fb, "native", 7, "550.54.14")])
    want(f"{n} 1gpu code", j["runs"][0]["readiness"]["code"], [])
    r = j["runs"][1]["readiness"]
    if n == "none":
        want("none findings", zstd(j), [("extension-zstd-unverified", "info",
             f"run '2gpu': {ENTRIES}; no log of the run gives its driver, so whether it loads is unverified: "
             "add the output of PyTorch's collect_env (python -m torch.utils.collect_env) to the run")])
        want("none verdict", r["verdict"], "unknown")
    elif n == "old":
        want("old findings", zstd(j), [("extension-zstd-driver", "warning",
             f"run '2gpu': {ENTRIES}, and the run's driver is 535.104.05: it cannot load there; install driver "
             "550.54.14 or newer, or rebuild it with nvcc --compress-mode=speed (LZ4, which every driver loads)")])
        want("old verdict", (r["verdict"], r["reason"]), ("not-ready",
             f"a compiled extension needs a newer driver: {fb} holds ZSTD-compressed code that only driver "
             "550.54.14 or newer loads (the run's driver is 535.104.05)"))
    else:
        want("new findings", zstd(j), [])
        want("new driver", r["driver"], "570.124.06")
        if "ZSTD" in (r["reason"] or ""):
            bad.append(f"new reason names ZSTD: {r['reason']}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
grep -qxF "  2gpu: binary $tmp/old/2gpu/all-zstd.fatbin (fatbin: sm_80 sm_90 sm_90a sm_100 sm_100a sm_120 compute_120): native; 7 ZSTD-compressed entries need driver 550.54.14 or newer" "$tmp/old.txt" ||
	{ echo "analyze's text lacks the binary line:"; grep binary "$tmp/old.txt"; exit 1; }
echo "ok: ZSTD-compressed binaries in a run are checked against its driver"
