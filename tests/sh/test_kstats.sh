#!/bin/bash
# Per-kernel and launch statistics of two samples (one ending on a short
# capture) agree with tests/kstats_check.py, which computes them from the
# trace JSON alone; a few values are pinned so that a rule change shows.
set -u
. tests/skip.sh
need_tool python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
traces() { ls "$1"/*.pt.trace.json.gz | paste -sd, -; }
for t in ddp-scales-well short-capture; do
	d=$TOP/samples/trials/$t
	python3 tests/kstats_check.py "1gpu=$(traces "$d/1gpu")" "2gpu=$(traces "$d/2gpu")" \
		> "$tmp/$t.want" || { echo "$t: tests/kstats_check.py failed"; fail=1; continue; }
	"$SCALEAUDIT" analyze --json "$d" > "$tmp/$t.json" 2> "$tmp/err" ||
		{ echo "$t: analyze exited $?"; cat "$tmp/err"; fail=1; continue; }
	python3 tests/sh/kstats_cmp.py "$tmp/$t.json" "$tmp/$t.want" || { echo "in $t"; fail=1; }
done
# pinned: the 2-GPU run of ddp-scales-well over its 7 steady steps
got=$(python3 - "$tmp/ddp-scales-well.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][1]
k, l = r["kernel_stats"], r["launch"]
print(k["per"], k["rank"], k["steps"], len(k["kernels"]), k["kernels"][0]["label"],
      k["kernels"][0]["calls"], l["kernels"], l["short_kernels"], l["bound"],
      "%.3f" % (l["delay_p50_s"] * 1e3), "%.3f" % (l["op_kernel_s"] * 1e3))
PY
)
want="step 0 7 20 AllReduce fp32 (NCCL) 49 588 0 gpu-bound 16.443 48.635"
[ "$got" = "$want" ] || { echo "ddp-scales-well 2gpu: '$got', want '$want'"; fail=1; }
exit $fail
