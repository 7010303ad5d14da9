#!/bin/bash
# What Windows, old Mac editors and crashed nodes leave is read, not dropped:
# a trial.ini and a log with a UTF-8 byte-order mark, in UTF-16 (LE and BE,
# with CRLF), or with lines ended by "\r" alone give the same analysis as the
# original; a log that ends in NUL bytes is read with one nul-bytes warning;
# a file a run holds but cannot read is named in a not-read warning.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
. tests/check.sh
src=samples/trials/pipeline-oom-feasibility

"$SCALEAUDIT" analyze "$src" > "$tmp/ref.txt" 2>&1
check "reference: verdict" "Verdict: CONFIRMED: on 1 GPU the run ran out of memory; on 2 GPUs it completed 7 steady steps with every GPU under its memory capacity" \
	"$(grep '^Verdict:' "$tmp/ref.txt")"

# variant NAME: a copy of the trial whose trial.ini and 1gpu/train.log are re-encoded by python.
variant() {
	rm -rf "$tmp/$1"
	cp -r "$src" "$tmp/$1"
	python3 - "$tmp/$1" "$1" <<'PY'
import sys
d, how = sys.argv[1], sys.argv[2]
for name in ("trial.ini", "1gpu/train.log", "1gpu/run.ini"):
    text = open(f"{d}/{name}", encoding="utf-8").read()
    if how == "bom":
        data = b"\xef\xbb\xbf" + text.encode()
    elif how == "utf16le":
        data = b"\xff\xfe" + text.replace("\n", "\r\n").encode("utf-16-le")
    elif how == "utf16be":
        data = b"\xfe\xff" + text.encode("utf-16-be")
    elif how == "cr":
        data = text.replace("\n", "\r").encode()
    else:
        data = text.encode()
    open(f"{d}/{name}", "wb").write(data)
PY
}

for v in bom utf16le utf16be cr; do
	variant $v
	"$SCALEAUDIT" analyze "$tmp/$v" > "$tmp/$v.txt" 2>&1
	check "$v: status" 0 $?
	sed "s|$tmp/$v|$src|g" "$tmp/$v.txt" | diff "$tmp/ref.txt" - > "$tmp/$v.diff" ||
		{ echo "$v: analysis differs:"; head -20 "$tmp/$v.diff"; fail=1; }
done

# A log that ends in NUL bytes, as a crashed node leaves it.
variant nul
{ cat "$src/1gpu/train.log"; head -c 300000 /dev/zero; } > "$tmp/nul/1gpu/train.log"
"$SCALEAUDIT" analyze "$tmp/nul" > "$tmp/nul.txt" 2>&1
check "nul: verdict" "$(grep '^Verdict:' "$tmp/ref.txt")" "$(grep '^Verdict:' "$tmp/nul.txt")"
lines=$(wc -l < "$src/1gpu/train.log")
check "nul: warning" "  $tmp/nul/1gpu/train.log:$((lines + 1)): warning: 300000 NUL bytes from here on left out, the text around them read (a file left by a node that crashed while writing?)" \
	"$(grep 'NUL bytes' "$tmp/nul.txt")"
# NULs in the middle: the text after them is read too (the OOM message is at the end).
python3 - "$src/1gpu/train.log" "$tmp/nul/1gpu/train.log" <<'PY'
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
mid = len(lines) // 2
open(sys.argv[2], "wb").write(b"\n".join(lines[:mid]) + b"\n" + b"\0" * 70000 + b"\n".join(lines[mid:]))
PY
"$SCALEAUDIT" analyze "$tmp/nul" > "$tmp/nul2.txt" 2>&1
check "nul in the middle: verdict" "$(grep '^Verdict:' "$tmp/ref.txt")" "$(grep '^Verdict:' "$tmp/nul2.txt")"
check "nul in the middle: 1gpu failed-oom" 1 "$(grep -c '^1gpu .* failed-oom' "$tmp/nul2.txt")"

# A file in a run that is not read is named.
rm -rf "$tmp/skip"; cp -r "$src" "$tmp/skip"
head -c 5000 /dev/urandom > "$tmp/skip/1gpu/blob.bin"
printf 'just some notes\nabout the run\n' > "$tmp/skip/1gpu/notes.txt"
"$SCALEAUDIT" analyze "$tmp/skip" > "$tmp/skip.txt" 2>&1
check "not-read: binary" "  $tmp/skip/1gpu/blob.bin: warning: in run '1gpu' but not read: binary data of no known format" \
	"$(grep 'blob.bin' "$tmp/skip.txt")"
check "not-read: text" "  $tmp/skip/1gpu/notes.txt: warning: in run '1gpu' but not read: text of no known format" \
	"$(grep 'notes.txt' "$tmp/skip.txt")"
exit $fail
