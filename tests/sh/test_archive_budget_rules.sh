#!/bin/bash
# The two other budgets of a whole archive, with their exact messages:
#  - the ratio: a tar.zst of 17 members of 64 MiB of zeros (each under the
#    caps of one member) decompresses to more than 1000 times its size once
#    past 1 GiB, and analyze stops reading it;
#  - the time: with SCALEAUDIT_ARCHIVE_SECONDS=1, a tar.zst of 1 GiB in 64 KiB
#    members read by analyze, stopped (SIGSTOP) for 2 seconds once it has read
#    past the archive's first 64 KiB and then let go on, stops at its next
#    read: the wait makes the reading slow on any machine. Without the
#    variable the same archive is read to its end (no time message).
set -u
. tests/skip.sh
need_tool python3
command -v zstd > /dev/null || { echo "skip: zstd is not installed"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
tail_re='read no further, after [0-9]+ members and [0-9]+ bytes$'

# members NAME COUNT SIZE PATTERN: a tar of COUNT members of SIZE bytes under NAME/1gpu,
# zeros (PATTERN 0) or zeros with 8 random bytes every 4 KiB (1: compresses about 300 times).
members() {
	python3 - "$@" <<'EOF2'
import io, random, sys, tarfile
name, count, size, pattern = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
random.seed(1)
blk = bytearray(size)
if pattern == "1":
    for off in range(0, size, 4096):
        blk[off:off + 8] = random.randbytes(8)
with tarfile.open(fileobj=sys.stdout.buffer, mode="w|") as tf:
    for i in range(count):
        ti = tarfile.TarInfo(f"{name}/1gpu/part{i:05d}.bin"); ti.size = size
        tf.addfile(ti, io.BytesIO(blk))
EOF2
}

members ratio 17 $((64 << 20)) 0 | zstd -q -1 > "$tmp/ratio.tar.zst" || { echo "could not make ratio.tar.zst"; exit 1; }
"$SCALEAUDIT" analyze "$tmp/ratio.tar.zst" > /dev/null 2> "$tmp/err"
grep -qE "^$tmp/ratio.tar.zst: after ratio/1gpu/part[0-9]+.bin: byte [0-9]+: decompresses to more than 1000 times its size in all, the cap on an archive against archive bombs: $tail_re" "$tmp/err" ||
	{ echo "no archive ratio error:"; cat "$tmp/err"; fail=1; }

members slow 16384 $((64 << 10)) 1 | zstd -q -1 > "$tmp/slow.tar.zst" || { echo "could not make slow.tar.zst"; exit 1; }
# pos_past PID: true once PID has the archive open and has read past its first 64 KiB
pos_past() {
	local fd pos
	for fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$fd" 2> /dev/null)" = "$tmp/slow.tar.zst" ] || continue
		pos=$(sed -n 's/^pos:[[:space:]]*//p' /proc/"$1"/fdinfo/"${fd##*/}" 2> /dev/null)
		[ "${pos:-0}" -gt 65536 ] && return 0
	done
	return 1
}
SCALEAUDIT_ARCHIVE_SECONDS=1 "$SCALEAUDIT" analyze "$tmp/slow.tar.zst" > /dev/null 2> "$tmp/err" &
pid=$!
for ((i = 0; i < 5000; i++)); do
	pos_past $pid && break
	kill -0 $pid 2> /dev/null || break
done
if kill -STOP $pid 2> /dev/null; then
	sleep 2
	kill -CONT $pid
else
	echo "analyze ended before it could be stopped"; fail=1
fi
wait $pid
grep -qE "^$tmp/slow.tar.zst: after slow/1gpu/part[0-9]+.bin: byte [0-9]+: took more than 1 seconds to read, the time an archive may take: $tail_re" "$tmp/err" ||
	{ echo "no archive time error:"; cat "$tmp/err"; fail=1; }
"$SCALEAUDIT" analyze "$tmp/slow.tar.zst" > /dev/null 2> "$tmp/err2"
grep -q "seconds to read" "$tmp/err2" && { echo "the default time budget stopped the archive:"; cat "$tmp/err2"; fail=1; }
exit $fail
