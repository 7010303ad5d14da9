#!/bin/bash
# One capacity rule (docs/analysis.md "Memory"): a GPU is judged against the memory its driver
# reports, the GPU table's reported figure for a GPU only named in a log, the nominal one only
# where the table knows none; every capacity printed with its nominal GB and its reported GB
# and GiB. Known answers, worked out by hand:
# - the Megatron logs of tests/data/trials/megatron-log-only with their 1-GPU "max reserved"
#   set to 138282.0 MB (MiB): 138282 x 1048576 = 144999186432 bytes, 145.0 GB, under the
#   H200's 143771 MiB = 150754820096 bytes (not under its nominal 141e9): fits-h200; at
#   144960.0 MB, 152001576960 bytes, 152.0 GB: over it, under the MI300X's 205822885888
#   bytes: fits-mi300x.
# - collect_env naming the GPUs and nothing giving their memory: an H200 gets 150754820096
#   bytes (150.8 GB, 143771 / 1024 = 140.4 GiB), so the 1-GPU run's 16022 MiB peak
#   (16800284672 bytes) is 11% of it; an A100 80GB PCIe, whose reported memory the table does
#   not know, its nominal 80e9 bytes: 21%.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# trial DIR, the 1-GPU run's max reserved MB, the GPU collect_env names ("" none)
trial() {
	cp -r tests/data/trials/megatron-log-only "$tmp/$1"
	sed -i "s/max reserved: 16022.0/max reserved: $2/" "$tmp/$1/1gpu/train.log"
	grep -q "max reserved: $2" "$tmp/$1/1gpu/train.log" || { echo "cannot set the peak of $1"; exit 1; }
	[ -n "$3" ] || return 0
	printf 'PyTorch version: 2.5.1+cu124\nIs CUDA available: True\nGPU models and configuration: GPU 0: %s\n' \
		"$3" > "$tmp/$1/1gpu/collect_env.txt"
	printf 'PyTorch version: 2.5.1+cu124\nIs CUDA available: True\nGPU models and configuration:\nGPU 0: %s\nGPU 1: %s\n' \
		"$3" "$3" > "$tmp/$1/2gpu/collect_env.txt"
}
trial fits145 138282.0 ""
trial fits152 144960.0 ""
trial h200 16022.0 "NVIDIA H200"
trial a100 16022.0 "NVIDIA A100 80GB PCIe"
for t in fits145 fits152 h200 a100; do
	"$SCALEAUDIT" analyze --json "$tmp/$t" > "$tmp/$t.json" 2>/dev/null || { echo "analyze $t failed"; exit 1; }
	"$SCALEAUDIT" analyze "$tmp/$t" > "$tmp/$t.txt" 2>/dev/null || { echo "analyze $t failed"; exit 1; }
done
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
def load(t):
    return json.load(open(f"{tmp}/{t}.json"))
def recs(a):
    return [(r["id"], r["text"]) for r in a["recommendations"] if r["id"] in ("fits-h200", "fits-mi300x", "needs-split")]
def memory_rows(t):
    lines = open(f"{tmp}/{t}.txt").read().split("\n")
    i = lines.index("Memory per GPU:")
    return lines[i + 1:i + 5]
H200 = "141 GB nominal (150.8 GB / 140.4 GiB reported)"
MI300X = "192 GB nominal (205.8 GB / 191.7 GiB reported)"
checks = [
    (recs(load("fits145")), [("fits-h200", f"the job fits one H200 of {H200}: it needs 145.0 GB, the "
                              "1-GPU run's peak (no memory_reserve_gb in trial.ini)")]),
    (recs(load("fits152")), [("fits-mi300x", f"the job does not fit one H200 of {H200} but fits one "
                              f"MI300X of {MI300X}: it needs 152.0 GB, the 1-GPU run's peak (no "
                              "memory_reserve_gb in trial.ini)")]),
    ([g["memory_total_bytes"] for r in load("h200")["runs"] for g in r["per_gpu"]], [150754820096] * 3),
    ([g["memory_total_bytes"] for r in load("a100")["runs"] for g in r["per_gpu"]], [80000000000] * 3),
    (memory_rows("h200"), [
        "run           GPU device                           peak from         used capacity",
        f"1gpu            0 NVIDIA H200                   16.8 GB log           11% {H200}",
        f"2gpu            0 NVIDIA H200                    9.5 GB log            6% {H200}",
        f"2gpu            1 NVIDIA H200                         - -               - {H200}"]),
    (memory_rows("a100")[1], "1gpu            0 NVIDIA A100 80GB PCIe         16.8 GB log           21% 80 GB nominal"),
]
bad = [f"got {g!r}, want {w!r}" for g, w in checks if g != w]
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
