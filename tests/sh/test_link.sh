#!/bin/bash
# The link between a run's GPUs: as NCCL's topology lines (or nvidia-smi topo)
# say, with link_source naming that reader; else inferred from the GPU model
# of a multi-GPU run (link_source gpu-model) with the GPU table's nominal
# bandwidth; a 1-GPU run's link is unknown. Known answers from the samples:
# B200 NVLink 5 is 900 GB/s per direction, H100 SXM NVLink 4 450 GB/s, and the
# nccl-over-sockets sample's NCCL log says NET/Socket; NCCL's GRAPH lines
# outrank the GPU model. Unknown message bytes
# are '-', never 0 (a real 128-rank trace's SendRecv, when ../shared is there).
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
need_tool python3
fail=0
check() {	# check TRIAL RUN LINK SOURCE GBPS
	"$SCALEAUDIT" analyze --json "samples/trials/$1" 2> /dev/null | python3 -c '
import json, sys
trial, run, link, source, gbps = sys.argv[1:]
r = next(x for x in json.load(sys.stdin)["runs"] if x["name"] == run)
c = r["comm"]
got = (c["link"], c["link_source"], c["link_gbps"])
want = (link, None if source == "null" else source, None if gbps == "null" else float(gbps))
if got != want:
    sys.exit(f"{trial}/{run}: link, link_source, link_gbps = {got}, want {want}")
' "$1" "$2" "$3" "$4" "$5" || fail=1
}
check ddp-scales-well 2gpu nvlink gpu-model 900
check ddp-scales-well 1gpu unknown null null
check pipeline-bubble 2gpu nvlink gpu-model 450
check nccl-over-sockets 2gpu network nccl-log null
"$SCALEAUDIT" analyze samples/trials/ddp-scales-well 2> /dev/null | grep -qxF \
	"Communication in 2gpu: NCCL 2.26.2, transport p2p, link nvlink (inferred from the GPU model), 900.0 GB/s nominal per GPU and direction" ||
	{ echo "analyze does not say the link was inferred"; fail=1; }
# bus bandwidth over all kernel time, and over transfer time only (no rank waiting)
"$SCALEAUDIT" analyze samples/trials/ddp-scales-well 2> /dev/null | grep -qxF \
	"  AllReduce     fp32          7 calls    4800.0 MB/step      8.5 ms/step (0.972 ms waiting)  busbw 566.2 GB/s (639.6 over transfer time), 63% of the link" ||
	{ echo "analyze's collective line lacks the transfer bandwidth or the link share"; fail=1; }
# NCCL's GRAPH lines decide the link over the GPU model: a real topology excerpt
# (two GPUs through the CPUs, "type SYS/PIX") added to the B200 sample's 2gpu run
tmp=$(mktemp -d)
cp -r samples/trials/ddp-scales-well "$tmp/t" && rm -f "$tmp/t/truth.json"
cp tests/data/nccl/nccl-1358_2GPU_GRAPH-topology_SYS-PIX.txt "$tmp/t/2gpu/nccl-graph.log"
"$SCALEAUDIT" analyze --json "$tmp/t" 2> /dev/null | python3 -c '
import json, sys
r = next(x for x in json.load(sys.stdin)["runs"] if x["name"] == "2gpu")["comm"]
got = (r["link"], r["link_source"], r["link_gbps"])
if got != ("pcie", "nccl-log", None):
    sys.exit(f"link from NCCL GRAPH lines: {got}, want (pcie, nccl-log, None)")
' || fail=1
rm -rf "$tmp"
if [ -n "${SHARED:-}" ]; then
	tmp=$(mktemp -d)
	mkdir -p "$tmp/t/2gpu"
	cp "$SHARED"/realdata/kineto_trace/hta__trace_filter__sampled_rank-[01].json.gz "$tmp/t/2gpu/"
	# NCCL runs these collectives as SendRecv kernels: the ops that launched them say which
	"$SCALEAUDIT" analyze "$tmp/t" 2> /dev/null | grep -q "^  AllToAll      int8          2 calls         - MB/step " ||
		{ echo "unknown all-to-all bytes are not shown as '-'"; fail=1; }
	rm -rf "$tmp"
fi
exit $fail
