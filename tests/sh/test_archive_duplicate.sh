#!/bin/bash
# A member given twice in one tar (python's tarfile writes duplicates, as
# `tar -r` does): its last copy is read, as tar extracts it, with a warning
# naming the archive, the member and the copy read. analyze reads the trial in
# place; batch reads it from its one-pass staging (the copies side by side)
# and from the archive itself (the second copy after another trial's members,
# which sends that trial back to the archive). Today's code took the last copy
# without a word.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
. tests/check.sh
mkdir "$tmp/in"
python3 - "$TOP/samples/trials/logs-only" "$tmp" <<'EOF2' || { echo "could not make the archives"; exit 1; }
import io, sys, tarfile
S, out = sys.argv[1], sys.argv[2]
def ini(tf, name, title):
    b = f"[trial]\ntitle = {title}\nbaseline = 1gpu\n".encode()
    ti = tarfile.TarInfo(name); ti.size = len(b)
    tf.addfile(ti, io.BytesIO(b))
with tarfile.open(out + "/one.tar", "w") as tf:
    tf.add(S, arcname="t")
    ini(tf, "t/trial.ini", "the later copy")
with tarfile.open(out + "/in/two.tar", "w") as tf:
    tf.add(S, arcname="a")
    ini(tf, "a/trial.ini", "a, the later copy")	# side by side: staged
    tf.add(S, arcname="b")
    ini(tf, "a/trial.ini", "a, the last copy")	# after b's: read from the archive
    ini(tf, "b/trial.ini", "b, the later copy")
EOF2

"$SCALEAUDIT" analyze "$tmp/one.tar" > "$tmp/out" 2> "$tmp/err"
check "analyze status" 0 $?
check "analyze title" "Trial: the later copy" "$(head -1 "$tmp/out")"
check "analyze warning" "  $tmp/one.tar: warning: member t/trial.ini is in the archive 2 times: its last copy was read, as tar extracts it, and the earlier ones were left out" \
	"$(grep 'archive-duplicate\|times:' "$tmp/out")"
"$SCALEAUDIT" analyze --json "$tmp/one.tar" 2> /dev/null > "$tmp/json"
check "analyze finding" "archive-duplicate warning $tmp/one.tar" "$(python3 -c '
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f["code"] == "archive-duplicate": print(f["code"], f["severity"], f["source"])' "$tmp/json")"

"$SCALEAUDIT" batch "$tmp/in" -o "$tmp/b" -j2 > "$tmp/bout" 2> "$tmp/berr"
check "batch status" 0 $?
finding() {	# finding ID: title, then each archive-duplicate message
	python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))
print(a["trial"]["title"])
for f in a["findings"]:
    if f["code"] == "archive-duplicate": print(f["source"] + ": " + f["message"])' "$tmp/b/$1/analysis.json"
}
check "batch, trial a" "a, the last copy
$tmp/in/two.tar: member a/trial.ini is in the archive 3 times: its last copy was read, as tar extracts it, and the earlier ones were left out" \
	"$(finding in--two-tar--a)"
check "batch, trial b" "b, the later copy
$tmp/in/two.tar: member b/trial.ini is in the archive 2 times: its last copy was read, as tar extracts it, and the earlier ones were left out" \
	"$(finding in--two-tar--b)"
exit $fail
