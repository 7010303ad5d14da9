#!/bin/bash
# scaleaudit batch reads an archive of many trials once, not once per trial:
# a tar.gz of three sample trials and a zip holding a tar.gz of two. Counted
# with strace: the archives are opened a fixed number of times however many
# trials they hold (the starting code opened them twice per trial more).
# Each trial's analysis.json is report's on the same trial as a directory
# (paths aside), and nothing of the staging stays in DIR.
set -u
. tests/skip.sh
. tests/report_cache.sh
need_tool python3
need_tool strace
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
mkdir "$tmp/in"
. tests/check.sh
python3 - "$TOP/samples/trials" "$tmp/in" <<'EOF2' || { echo "could not make the archives"; exit 1; }
import io, os, sys, tarfile, zipfile
S, out = sys.argv[1], sys.argv[2]
os.chdir(out)
with tarfile.open("many.tar.gz", "w:gz") as tf:
    for t in ("pipeline-bubble", "fsdp-allgather", "nccl-over-sockets"):
        tf.add(f"{S}/{t}", arcname=f"runs/{t}")
inner = io.BytesIO()
with tarfile.open(fileobj=inner, mode="w:gz") as tf:
    for t in ("ddp-scales-well", "logs-only"):
        tf.add(f"{S}/{t}", arcname=t)
with zipfile.ZipFile("outer.zip", "w") as z:
    z.writestr("inner.tar.gz", inner.getvalue())
EOF2

# LeakSanitizer cannot run under ptrace: in a sanitizer build, leaks are left to the other tests
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -e trace=openat -o "$tmp/trace" "$SCALEAUDIT" batch "$tmp/in" -o "$tmp/out" -j2 > "$tmp/stdout" 2> "$tmp/stderr"
check "status" 0 $?
check "stdout" "5 trials: 5 analysed, 0 skipped (unchanged), 0 failed" "$(head -1 "$tmp/stdout")"
# batch's look at its head, its discovery, one pass to copy the trials out
opens() { grep -c "openat([^\"]*\"$tmp/in/$1\"" "$tmp/trace"; }
check "opens of many.tar.gz (3 trials)" 3 "$(opens many.tar.gz)"
check "opens of outer.zip (2 trials)" 3 "$(opens outer.zip)"
check "staging left in DIR" "" "$(ls -A "$tmp/out" | grep -v '^[a-z]' | grep -v '^\.scaleaudit-batch$')"

i=$tmp/in
same() {	# same ID TRIAL ARCHIVED-PREFIX
	cmp -s <(sed "s|samples/trials/$2|X|g" "$(report_of "samples/trials/$2")/analysis.json") \
		<(sed "s|$3|X|g" "$tmp/out/$1/analysis.json") ||
		{ echo "$1: analysis.json differs from report's on samples/trials/$2"; fail=1; }
}
for t in pipeline-bubble fsdp-allgather nccl-over-sockets; do
	same "in--many-tar-gz--runs--$t" "$t" "$i/many.tar.gz/runs/$t"
done
for t in ddp-scales-well logs-only; do
	same "in--outer-zip--inner-tar-gz--$t" "$t" "$i/outer.zip/inner.tar.gz/$t"
done
exit $fail
