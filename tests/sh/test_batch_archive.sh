#!/bin/bash
# scaleaudit batch over archives read in place: a trial in a tar.gz, one in
# a zip, one in a tar.gz inside a zip, one beside a member with '..' and a
# link out of the archive, a tar.gz cut in half, a zip whose only logs are
# zeros and a zip cut in its first header. A row for each: the good ones with
# the verdict and analysis.json of `report` on the same trial as a directory
# (paths aside), the broken ones with their reason; nothing written outside
# DIR. The archives are made and the database read with python3.
set -u
. tests/skip.sh
. tests/report_cache.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir "$tmp/in" "$tmp/cwd"

. tests/check.sh

python3 - "$TOP/samples/trials" "$tmp/in" <<'EOF' || { echo "could not make the archives"; exit 1; }
import io, os, sys, tarfile, zipfile
S, out = sys.argv[1], sys.argv[2]
os.chdir(out)
def zip_tree(z, src, arc):
    for root, dirs, files in sorted(os.walk(src)):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(root, f)
            z.write(p, os.path.join(arc, os.path.relpath(p, src)))
with tarfile.open("t.tar.gz", "w:gz") as tf:
    tf.add(f"{S}/pipeline-bubble", arcname="pipeline-bubble")
with zipfile.ZipFile("z.zip", "w", zipfile.ZIP_DEFLATED) as z:
    zip_tree(z, f"{S}/fsdp-allgather", "fsdp-allgather")
inner = io.BytesIO()
with tarfile.open(fileobj=inner, mode="w:gz") as tf:
    tf.add(f"{S}/nccl-over-sockets", arcname="nccl-over-sockets")
with zipfile.ZipFile("outer.zip", "w") as z:
    z.writestr("inner.tar.gz", inner.getvalue())
with tarfile.open("evil.tar", "w") as tf:
    tf.add(f"{S}/ddp-scales-well", arcname="evil")
    data = b"step 1\n"
    ti = tarfile.TarInfo("evil/1gpu/../../../escape.log"); ti.size = len(data)
    tf.addfile(ti, io.BytesIO(data))
    ti = tarfile.TarInfo("evil/2gpu/passwd.log"); ti.type = tarfile.SYMTYPE; ti.linkname = "/etc/passwd"
    tf.addfile(ti)
with zipfile.ZipFile("zeros.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    z.writestr("zeros/trial.ini", "[trial]\ntitle = zeros\n")
    z.writestr("zeros/1gpu/train.log", b"\0" * (64 << 20))
    z.writestr("zeros/2gpu/train.log", b"\0" * 10)
open("damaged.zip", "wb").write(b"PK\x03\x04garbage")
data = open("t.tar.gz", "rb").read()
open("cut.tar.gz", "wb").write(data[:len(data) // 2])
EOF

# Run from an empty folder: anything written outside DIR would land there (or in the inputs).
(cd "$tmp/cwd" && "$SCALEAUDIT" batch "$tmp/in" -o "$tmp/out" -j2 > "$tmp/stdout" 2> "$tmp/stderr")
check "status" 3 $?
check "stdout" "7 trials: 7 analysed, 0 skipped (unchanged), 3 failed
$tmp/out/index.html" "$(cat "$tmp/stdout")"
check "nothing written in the working folder" "" "$(ls -A "$tmp/cwd")"
check "the inputs are untouched" "cut.tar.gz damaged.zip evil.tar outer.zip t.tar.gz z.zip zeros.zip" "$(ls "$tmp/in" | tr '\n' ' ' | sed 's/ $//')"
[ -e "$tmp/escape.log" ] || [ -e "$tmp/in/escape.log" ] || [ -e "$tmp/out/escape.log" ] && { echo "a '..' member was written"; fail=1; }

python3 - "$tmp/out/results.sqlite" > "$tmp/rows" <<'EOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for r in db.execute("SELECT id, trial, status, verdict, error FROM trials ORDER BY id"):
    print("|".join("-" if v is None else str(v) for v in r))
EOF
i=$tmp/in
check "rows" "in--cut-tar-gz--pipeline-bubble|$i/cut.tar.gz/pipeline-bubble|error|-|$i/cut.tar.gz/pipeline-bubble: no run has steps or a status to analyse (see 'scaleaudit inspect $i/cut.tar.gz/pipeline-bubble'); $i/cut.tar.gz/pipeline-bubble/1gpu/rank0.pt.trace.json.gz: byte 0: truncated gzip input
in--damaged-zip|$i/damaged.zip|error|-|$i/damaged.zip: truncated ZIP file header
in--evil-tar--evil|$i/evil.tar/evil|ok|confirmed|$i/evil.tar/evil/1gpu/../../../escape.log: its name climbs out with '..': not read
in--outer-zip--inner-tar-gz--nccl-over-sockets|$i/outer.zip/inner.tar.gz/nccl-over-sockets|ok|refuted|-
in--t-tar-gz--pipeline-bubble|$i/t.tar.gz/pipeline-bubble|ok|refuted|-
in--z-zip--fsdp-allgather|$i/z.zip/fsdp-allgather|ok|confirmed|-
in--zeros-zip--zeros|$i/zeros.zip/zeros|error|-|$i/zeros.zip/zeros: no run has steps or a status to analyse (see 'scaleaudit inspect $i/zeros.zip/zeros')" \
	"$(cat "$tmp/rows")"

grep -qF "$i/evil.tar/evil/2gpu/passwd.log: a link to an absolute path, outside the archive: not read" \
	"$tmp/out/in--evil-tar--evil/batch.log" || { echo "the link out of the archive is not in batch.log"; fail=1; }

# The same analysis as report on the trial as a directory, but for the files' paths.
same() {	# same ID TRIAL ARCHIVED-PREFIX
	cmp -s <(sed "s|samples/trials/$2|X|g" "$(report_of "samples/trials/$2")/analysis.json") \
		<(sed "s|$3|X|g" "$tmp/out/$1/analysis.json") ||
		{ echo "$1: analysis.json differs from report's on samples/trials/$2"; fail=1; }
}
same in--t-tar-gz--pipeline-bubble pipeline-bubble "$i/t.tar.gz/pipeline-bubble"
same in--z-zip--fsdp-allgather fsdp-allgather "$i/z.zip/fsdp-allgather"
same in--outer-zip--inner-tar-gz--nccl-over-sockets nccl-over-sockets "$i/outer.zip/inner.tar.gz/nccl-over-sockets"

# Unchanged archives: all skipped.
"$SCALEAUDIT" batch "$tmp/in" -o "$tmp/out" -j2 > "$tmp/stdout" 2> /dev/null
check "second run" "7 trials: 0 analysed, 7 skipped (unchanged), 3 failed" "$(head -1 "$tmp/stdout")"
exit $fail
