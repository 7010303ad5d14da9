#!/bin/bash
# Binaries inside a trial read from an archive are scanned for GPU code from
# their bytes: tests/data/trials/blackwell-extension packed as tar.gz gives
# the same runs[].readiness (code[] but for the path prefix, verdict,
# reason) and the same extension-missing-arch finding as the directory,
# whether the archive holds 2gpu's binary after the members read before it
# or before them (kept in memory for its turn). A binary member over the
# 256 MiB cap (a sparse file) is not scanned: a binary-not-scanned note
# names it, and the run is judged by the rest.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
E=blackwell-extension
"$SCALEAUDIT" analyze --json "tests/data/trials/$E" > "$tmp/dir.json" 2> /dev/null
tar -czf "$tmp/walk.tar.gz" -C tests/data/trials "$E/trial.ini" "$E/1gpu" "$E/2gpu"
tar -czf "$tmp/ahead.tar.gz" -C tests/data/trials "$E/2gpu/flash_attn_2_cuda.so" "$E/2gpu/run.ini" \
	"$E/2gpu/rank0.pt.trace.json" "$E/2gpu/rank1.pt.trace.json" "$E/1gpu" "$E/trial.ini"
for a in walk ahead; do
	"$SCALEAUDIT" analyze --json "$tmp/$a.tar.gz" > "$tmp/$a.json" 2> /dev/null
	rc=$?
	[ $rc -eq 0 ] || { echo "$a: analyze exited $rc"; exit 1; }
done
python3 - "$tmp" "tests/data/trials/$E" <<'PY' || exit 1
import json, sys
tmp, top = sys.argv[1], sys.argv[2]
bad = []
def readiness(j, prefix):
    out = []
    for r in j["runs"]:
        rd = dict(r["readiness"])
        rd["code"] = [dict(c, path=c["path"].replace(prefix, "TOP")) for c in rd["code"]]
        rd["reason"] = (rd["reason"] or "").replace(prefix, "TOP")
        out.append((r["name"], rd))
    return out
def findings(j, prefix):
    return [(f["code"], f["severity"], f["message"]) for f in j["findings"] if f["code"].startswith("extension-")]
d = json.load(open(f"{tmp}/dir.json"))
want = readiness(d, top)
if [len(rd["code"]) for _, rd in want] != [0, 1]:
    bad.append(f"the directory's code lists: {[rd['code'] for _, rd in want]}")
for a in ("walk", "ahead"):
    j = json.load(open(f"{tmp}/{a}.json"))
    prefix = f"{tmp}/{a}.tar.gz/blackwell-extension"
    got = readiness(j, prefix)
    if got != want:
        bad.append(f"{a}: readiness {got!r}, the directory's {want!r}")
    if findings(j, prefix) != findings(d, top) or len(findings(d, top)) != 1:
        bad.append(f"{a}: findings {findings(j, prefix)!r}, the directory's {findings(d, top)!r}")
    if j["comparison"]["verdict"] != "inconclusive":
        bad.append(f"{a}: verdict {j['comparison']['verdict']}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
# a 300 MiB binary (sparse: an ELF head, then a hole) beside the extension
cp -r "tests/data/trials/$E" "$tmp/big"
head -c 64 tests/data/stack/sm90.so > "$tmp/big/2gpu/huge.so" && truncate -s 300M "$tmp/big/2gpu/huge.so"
tar --sparse -czf "$tmp/big.tar.gz" -C "$tmp" big || { echo "cannot pack the sparse file"; exit 1; }
"$SCALEAUDIT" analyze --json "$tmp/big.tar.gz" > "$tmp/big.json" 2> "$tmp/big.err"
rc=$?
[ $rc -eq 0 ] || { echo "big: analyze exited $rc"; cat "$tmp/big.err"; exit 1; }
python3 - "$tmp" <<'PY' || exit 1
import json, sys
tmp = sys.argv[1]
j = json.load(open(f"{tmp}/big.json"))
bad = []
got = [(f["code"], f["severity"], f["source"], f["message"]) for f in j["findings"] if f["code"] == "binary-not-scanned"]
want = [("binary-not-scanned", "info", f"{tmp}/big.tar.gz/big/2gpu/huge.so",
         "a binary of more than 256 MiB inside an archive is not scanned for GPU code, so run '2gpu' is judged "
         "without it: extract the trial to judge it")]
if got != want:
    bad.append(f"big: notes {got!r}, want {want!r}")
c = [x["path"].rsplit("/", 1)[1] for x in j["runs"][1]["readiness"]["code"]]
if c != ["flash_attn_2_cuda.so"]:
    bad.append(f"big: code {c!r}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
echo "ok: binaries inside an archived trial are judged as on disk"
