#!/bin/bash
# analyze given an archive that holds one trial reads it in place and gives
# exactly the analysis.json of the same trial on disk (paths aside), whatever
# the archive (tar.gz, tar.xz with the trial at its top, zip whose members
# are out of order); an archive of two trials is refused with their names;
# unsafe members are refused by name and never read; nothing is extracted.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
trials=$TOP/samples/trials

(cd "$trials" && "$SCALEAUDIT" analyze --json short-capture) > "$tmp/disk.json" ||
	fail "the trial on disk does not analyse"
grep -q '"verdict"' "$tmp/disk.json" || fail "no verdict in the analysis of the trial on disk"

tar -C "$trials" -czf "$tmp/one.tar.gz" short-capture
python3 - "$trials" "$tmp" <<'PY'
import os, sys, tarfile, zipfile
trials, tmp = sys.argv[1], sys.argv[2]
top = os.path.join(trials, "short-capture")
files = sorted(os.path.join(r, f) for r, _, fs in os.walk(top) for f in fs)
with zipfile.ZipFile(os.path.join(tmp, "rev.zip"), "w", zipfile.ZIP_DEFLATED) as z:
    for p in reversed(files):	# the last file first: read in walk order all the same
        z.write(p, "short-capture/" + os.path.relpath(p, top))
with tarfile.open(os.path.join(tmp, "top.tar.xz"), "w:xz") as t:
    for p in files:
        t.add(p, arcname=os.path.relpath(p, top))
with tarfile.open(os.path.join(tmp, "evil.tar"), "w") as t:
    for p in files:
        t.add(p, arcname="exp/" + os.path.relpath(p, top))
    for name, link in (("exp/1gpu/out.log", "../../../etc/passwd"),):
        i = tarfile.TarInfo(name); i.type = tarfile.SYMTYPE; i.linkname = link; t.addfile(i)
    i = tarfile.TarInfo("exp/2gpu/../../x.log"); i.size = 0; t.addfile(i)
PY
tar -C "$trials" -czf "$tmp/two.tar.gz" short-capture clock-offset
# what is in $tmp but the outputs of this script (*.json, *.err, *.out, *.want)
listing() { find "$tmp" ! -name '*.json' ! -name '*.err' ! -name '*.out' ! -name '*.want' | sort; }
before=$(listing)

# same_as_disk ARCHIVE PREFIX: the analysis of ARCHIVE, its paths PREFIX/... made short-capture/...
same_as_disk() {
	"$SCALEAUDIT" analyze --json "$tmp/$1" > "$tmp/$1.json" 2> "$tmp/$1.err" ||
		{ fail "$1: exit $?"; cat "$tmp/$1.err"; return; }
	sed "s#$tmp/$2#short-capture#g" "$tmp/$1.json" | cmp -s - "$tmp/disk.json" ||
		{ fail "$1: another analysis.json than the trial on disk"; diff <(sed "s#$tmp/$2#short-capture#g" "$tmp/$1.json") "$tmp/disk.json" | head -20; }
	grep -q "\"$tmp/$2/1gpu/train.log\"" "$tmp/$1.json" || fail "$1: its files are not named in the archive"
}
same_as_disk one.tar.gz one.tar.gz/short-capture
same_as_disk rev.zip rev.zip/short-capture
same_as_disk top.tar.xz top.tar.xz

"$SCALEAUDIT" analyze "$tmp/two.tar.gz" > "$tmp/two.out" 2> "$tmp/two.err"
rc=$?
[ $rc -eq 2 ] || fail "an archive of two trials: exit $rc, expected 2"
[ -s "$tmp/two.out" ] && fail "an archive of two trials: something analysed"
want="$tmp/two.tar.gz: holds 2 trials, not the runs of one: clock-offset, short-capture: analyse one of them, or every one with 'scaleaudit batch $tmp/two.tar.gz'"
[ "$(cat "$tmp/two.err")" = "$want" ] || { fail "an archive of two trials: stderr"; cat "$tmp/two.err"; }

"$SCALEAUDIT" analyze "$tmp/evil.tar" > /dev/null 2> "$tmp/evil.err"
rc=$?
[ $rc -eq 3 ] || fail "unsafe members: exit $rc, expected 3 (some input not read)"
cat > "$tmp/evil.want" <<EOF
$tmp/evil.tar/exp/1gpu/out.log: a link that points outside the archive: not read
$tmp/evil.tar/exp/2gpu/../../x.log: its name climbs out with '..': not read
EOF
cmp -s "$tmp/evil.err" "$tmp/evil.want" || { fail "unsafe members: stderr"; diff "$tmp/evil.err" "$tmp/evil.want"; }

# nothing but what this script wrote appeared beside the archives
[ "$(listing)" = "$before" ] || { fail "files appeared beside the archives"; diff <(echo "$before") <(listing); }
exit $((fails > 0))
