#!/bin/bash
# top_kernels: a label group is named by its own name (its label when it
# holds several kernels, the kernel's full name when it holds one), never by
# one member beside the time of all of them, and its members carry their
# own times. Checked on the sample ddp-scales-well (its generator launches
# three nvjet GEMMs, 13 calls each per step) and on the real ResNet-50
# captures of ../shared/realdata, against tests/realdata_kernels.py, which
# sums each kernel's time over the steady steps from the trace JSON alone.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# check TRIAL RUN=TRACE...: every member of every group on rank 0 against the script
check() {
	local trial=$1; shift
	"$SCALEAUDIT" analyze --json "$trial" > "$tmp/a.json" 2> "$tmp/err" ||
		[ $? -eq 1 ] || { echo "analyze $trial failed:"; cat "$tmp/err"; return 1; }
	local args=() r
	for r in "$@"; do
		args+=("$r:$(python3 - "$tmp/a.json" "${r%%=*}" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
run = next(r for r in a["runs"] if r["name"] == sys.argv[2])
print(",".join(str(s["step"]) for s in run["per_gpu"][0]["steps"] if not s["warmup"] and not s["trailing"]))
PY
)")
	done
	python3 tests/realdata_kernels.py "${args[@]}" > "$tmp/want.json" || { echo "realdata_kernels.py failed"; return 1; }
	python3 - "$tmp/a.json" "$tmp/want.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1])); want = json.load(open(sys.argv[2]))
bad = []
for run in a["runs"]:
    if run["name"] not in want:
        continue
    w = want[run["name"]]
    got = {}
    for k in run["per_gpu"][0]["top_kernels"]:
        ms = k["members"]
        own = k["label"] if len(ms) > 1 else ms[0]["name"]
        if k["name"] != own:
            bad.append(f"{run['name']} {k['label']}: name {k['name'][:60]!r}, want {own[:60]!r}")
        if abs(sum(m["time_per_step_s"] for m in ms) - k["time_per_step_s"]) > 1e-9:
            bad.append(f"{run['name']} {k['label']}: members do not add up to the group")
        if [m["time_per_step_s"] for m in ms] != sorted((m["time_per_step_s"] for m in ms), reverse=True):
            bad.append(f"{run['name']} {k['label']}: members not largest first")
        for m in ms:
            g = got.setdefault(m["name"], [0.0, 0])
            g[0] += m["time_per_step_s"]; g[1] += m["calls_per_step"]
    # a kernel run under two ops is in two groups: its members add up to its time
    for name, (t, c) in got.items():
        wt, wc = w.get(name, (None, None))
        if wt is None or abs(t - wt) > 1e-9 or c != round(wc):
            bad.append(f"{run['name']} {name[:60]}: {t!r} s, {c} calls per step; the trace says {wt!r}, {wc!r}")
    if not got:
        bad.append(f"{run['name']}: no top kernels")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}

fail=0
s=samples/trials/ddp-scales-well
check "$s" "1gpu=$s/1gpu/rank0.pt.trace.json.gz" "2gpu=$s/2gpu/rank0.pt.trace.json.gz" || fail=1
# the generator's three nvjet GEMMs, one each of forward, data and weight gradient, 13 calls each
python3 - "$tmp/a.json" <<'PY' || fail=1
import json, sys
a = json.load(open(sys.argv[1]))
k = a["runs"][0]["per_gpu"][0]["top_kernels"][0]
want = {"nvjet_tst_256x128_64x4_2x1_2cta_v_bz_TNT", "nvjet_tst_128x256_64x4_1x2_2cta_h_bz_NNT",
        "nvjet_tst_128x128_64x6_2x1_2cta_v_bz_splitK_TNN"}
got = (k["label"], k["name"], k["calls_per_step"], {m["name"] for m in k["members"]},
       [m["calls_per_step"] for m in k["members"]])
exp = ("GEMM bf16 (cuBLAS nvjet)", "GEMM bf16 (cuBLAS nvjet)", 39, want, [13, 13, 13])
if got != exp:
    print(f"ddp-scales-well's GEMM group: got {got}, want {exp}"); sys.exit(1)
PY

if [ -n "${SHARED:-}" ]; then
	k=$SHARED/realdata/kineto_trace
	mkdir -p "$tmp/t/1gpu" "$tmp/t/2gpu"
	ln -s "$k/hta__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" "$tmp/t/1gpu/"
	ln -s "$k/hta__nccl_parser_config__nccl_data.json.gz" "$tmp/t/2gpu/"
	check "$tmp/t" "1gpu=$k/hta__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" \
		"2gpu=$k/hta__nccl_parser_config__nccl_data.json.gz" || fail=1
	# no group of several kernels is named by one of them
	python3 - "$tmp/a.json" <<'PY' || fail=1
import json, sys
a = json.load(open(sys.argv[1]))
groups = [k for r in a["runs"] for g in r["per_gpu"] for k in g["top_kernels"] if len(k["members"]) > 1]
names = [k["name"] for k in groups]
if len(groups) < 10 or any(k["name"] in {m["name"] for m in k["members"]} for k in groups):
    print(f"a group of several kernels is named by one of them: {names}"); sys.exit(1)
PY
else
	echo "# ../shared is absent: the real captures are not checked"
fi
exit $fail
