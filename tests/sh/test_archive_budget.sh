#!/bin/bash
# The budget of a whole archive: a tar.zst of four 64 MiB members of zeros
# (each under the caps of one member) read by analyze with
# SCALEAUDIT_ARCHIVE_BYTES=100000000 stops with an archive error naming the
# archive, the cap and what was read; without it, the default budget lets
# the 256 MiB through (no such error).
set -u
. tests/skip.sh
need_tool python3
command -v zstd > /dev/null || { echo "skip: zstd is not installed"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
python3 - <<'EOF2' | zstd -q -1 > "$tmp/bomb.tar.zst" || { echo "could not make the archive"; exit 1; }
import io, sys, tarfile
class Zeros(io.RawIOBase):
    def __init__(self, n): self.n = n
    def readable(self): return True
    def readinto(self, b):
        k = min(len(b), self.n); b[:k] = bytes(k); self.n -= k; return k
with tarfile.open(fileobj=sys.stdout.buffer, mode="w|") as tf:
    ini = b"[trial]\ntitle = bomb\n"
    ti = tarfile.TarInfo("bomb/trial.ini"); ti.size = len(ini)
    tf.addfile(ti, io.BytesIO(ini))
    for run in ("1gpu", "2gpu"):
        for name in ("train.log", "other.log"):
            ti = tarfile.TarInfo(f"bomb/{run}/{name}"); ti.size = 64 << 20
            tf.addfile(ti, Zeros(ti.size))
EOF2
SCALEAUDIT_ARCHIVE_BYTES=100000000 "$SCALEAUDIT" analyze "$tmp/bomb.tar.zst" > /dev/null 2> "$tmp/err"
grep -qE "^$tmp/bomb.tar.zst: .*decompresses to more than 100000000 bytes in all, the cap on an archive against archive bombs: read no further, after [0-9]+ members and [0-9]+ bytes" "$tmp/err" ||
	{ echo "no archive budget error:"; cat "$tmp/err"; fail=1; }
"$SCALEAUDIT" analyze "$tmp/bomb.tar.zst" > /dev/null 2> "$tmp/err2"
grep -q "in all" "$tmp/err2" && { echo "the default budget stopped 256 MiB:"; cat "$tmp/err2"; fail=1; }
exit $fail
