#!/bin/bash
# Per-kernel and launch statistics on real Kineto traces agree with
# tests/kstats_check.py, which computes them from the trace JSON alone:
# two single-rank captures with steps (a V100 capture at ns resolution,
# rank 0 of a 2-rank NCCL job), a ROCm capture and two 8-rank jobs without
# a steady step (span-only). A few values are pinned so that a rule change
# shows.
set -u
. tests/skip.sh
need_shared
need_tool python3
k=$SHARED/realdata/kineto_trace
m=$SHARED/realdata/kineto_multirank
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/t/ns" "$tmp/t/nccl" "$tmp/t/amd" "$tmp/t/dlrm" "$tmp/t/mega"
ln -s "$k"/hta__ns_resolution_trace__rank-0.*.json.gz "$tmp/t/ns/"
ln -s "$k"/hta__nccl_parser_config__nccl_data.json.gz "$tmp/t/nccl/"
ln -s "$k"/hta__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz "$tmp/t/amd/"
ln -s "$m"/param_dlrm_8xV100/*.json.gz "$tmp/t/dlrm/"
ln -s "$m"/astrasim_megatron_tp8_8xA100/*.json.gz "$tmp/t/mega/"
runs=()
for r in ns nccl amd dlrm mega; do
	runs+=("$r=$(ls "$tmp/t/$r"/* | paste -sd, -)")
done
python3 tests/kstats_check.py "${runs[@]}" > "$tmp/want.json" ||
	{ echo "tests/kstats_check.py failed"; exit 1; }
"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/out.json" 2> "$tmp/err" ||
	{ echo "analyze exited $?"; cat "$tmp/err"; exit 1; }
fail=0
python3 tests/sh/kstats_cmp.py "$tmp/out.json" "$tmp/want.json" || fail=1
got=$(python3 - "$tmp/out.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["runs"]:
    k, l = r["kernel_stats"], r["launch"]
    print(r["name"], k["per"], len(k["kernels"]), l["kernels"], l["short_kernels"], l["bound"],
          "%.1f" % (l["delay_p50_s"] * 1e6))
PY
)
want="amd span 13 14 8 host-bound 6.7
dlrm span 20 245 164 host-bound 2.0
mega span 20 690 33 host-bound 636.5
nccl step 20 1800 679 host-bound 1.8
ns step 20 3480 1506 gpu-bound 75499.0"
[ "$got" = "$want" ] || { printf 'got:\n%s\nwant:\n%s\n' "$got" "$want"; fail=1; }
exit $fail
