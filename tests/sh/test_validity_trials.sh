#!/bin/bash
# Cross-source checks on small trials built from a sample's files in a temp
# dir: a one-sample nvidia-smi table of another GPU model loses the peak
# memory headline to the trace's reserved memory; one trace given as two
# ranks is left out; run.ini's gpus against the traces' world_size; a trace
# of another GPU model makes the comparison blocked by a gpu_model confound.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
src=samples/trials/ddp-scales-well

# t1: the monitor, a duplicated trace, a run.ini that disagrees with world_size
cp -r "$src" "$tmp/t1"
cat > "$tmp/t1/1gpu/nvidia-smi.csv" <<'CSV'
timestamp, index, name, pci.bus_id, utilization.gpu [%], memory.total [MiB], memory.used [MiB], power.draw [W]
2025/11/29 14:00:09.123, 0, Tesla V100-SXM2-16GB, 00000000:18:00.0, 0 %, 16384 MiB, 4 MiB, 90.00 W
CSV
cp "$tmp/t1/2gpu/rank1.pt.trace.json.gz" "$tmp/t1/2gpu/rank1-copy.pt.trace.json.gz"
sed -i 's/^gpus = 2$/gpus = 1/' "$tmp/t1/2gpu/run.ini"
"$SCALEAUDIT" analyze --json "$tmp/t1" > "$tmp/t1.json" 2> "$tmp/t1.err" ||
	{ echo "t1: exit $?"; cat "$tmp/t1.err"; exit 1; }

# t2: the candidate's traces name another GPU model than the baseline's
cp -r "$src" "$tmp/t2"
for f in "$tmp"/t2/2gpu/*.pt.trace.json.gz; do
	zcat "$f" | sed 's/"name": "NVIDIA B200"/"name": "NVIDIA H200"/' | gzip > "$f.new" && mv "$f.new" "$f"
done
sed -i 's/NVIDIA B200/NVIDIA H200/; s/182631 MiB/143771 MiB/' "$tmp/t2/2gpu/nvidia-smi.csv"
"$SCALEAUDIT" analyze --json "$tmp/t2" > "$tmp/t2.json" 2> "$tmp/t2.err" ||
	{ echo "t2: exit $?"; cat "$tmp/t2.err"; exit 1; }

python3 - "$tmp/t1.json" "$tmp/t2.json" <<'PY'
import json, sys
t1, t2 = (json.load(open(p)) for p in sys.argv[1:3])
bad = []
def finding(a, code, start):
    return [f for f in a["findings"] if f["code"] == code and f["message"].startswith(start)]
r1 = next(r for r in t1["runs"] if r["name"] == "1gpu")
g = r1["per_gpu"][0]
if g["peak_memory_source"] != "reserved":
    bad.append(f"1gpu GPU 0 headline from {g['peak_memory_source']}, want reserved")
if g["name"] != "NVIDIA B200":
    bad.append(f"1gpu GPU 0 named {g['name']}, want the trace's NVIDIA B200")
if not (g["peak_memory_bytes"] or 0) > 1e9:
    bad.append(f"1gpu GPU 0 peak {g['peak_memory_bytes']}: the 4 MiB monitor won")
if not finding(t1, "monitor-not-used", "run '1gpu', GPU 0: nvidia-smi's peak of 4 MB is not the headline: it names another GPU (Tesla V100-SXM2-16GB) than the trace (NVIDIA B200)"):
    bad.append("no monitor-not-used finding naming the other GPU")
if not finding(t1, "gpu-model-conflict", "run '1gpu', GPU 0: the trace says NVIDIA B200, nvidia-smi says Tesla V100-SXM2-16GB"):
    bad.append("no gpu-model-conflict finding")
r2 = next(r for r in t1["runs"] if r["name"] == "2gpu")
if len(r2["per_gpu"]) != 2 or r2["gpus"] != 2:
    bad.append(f"2gpu has {len(r2['per_gpu'])} GPUs ({r2['gpus']}): the copied trace was counted")
dup = [f for f in t1["findings"] if f["code"] == "duplicate-trace"]
if len(dup) != 1 or not dup[0]["source"].endswith("rank1.pt.trace.json.gz"):
    bad.append(f"duplicate-trace findings: {dup}")
conf = [f for f in t1["findings"] if f["code"] == "gpu-count-conflict"]
if len(conf) != 1 or conf[0]["severity"] != "error" or not conf[0]["source"].endswith("2gpu/run.ini:3") or \
   conf[0]["message"] != "run '2gpu': run.ini says gpus = 1, but its traces say world_size = 2: the run is counted as 2 GPUs":
    bad.append(f"gpu-count-conflict findings: {conf}")
cf = [c for c in t2["comparison"]["confounds"] if c["what"] == "gpu_model"]
if len(cf) != 1 or cf[0]["severity"] != "blocking" or cf[0]["baseline"] != "B200" or cf[0]["candidate"] != "H200":
    bad.append(f"t2 gpu_model confounds: {cf}")
if t2["comparison"]["verdict"] != "inconclusive":
    bad.append(f"t2 verdict {t2['comparison']['verdict']} under a blocking gpu_model confound")
print("\n".join(bad) or "ok")
sys.exit(1 if bad else 0)
PY
