#!/bin/bash
# Idle by cause on real Kineto traces (a ResNet-50 capture on a V100, and
# rank 0 of a 2-rank NCCL job) agrees with tests/realdata_idle.py, which
# computes the split from the trace JSON alone: host, sync and other each
# within 0.5 percentage points of the idle, and the three add up to idle.
# The split itself is pinned too, so that a rule change shows here.
set -u
. tests/skip.sh
need_shared
need_tool python3
k=$SHARED/realdata/kineto_trace
ns=$k/hta__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz
nccl=$k/hta__nccl_parser_config__nccl_data.json.gz
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/t/ns" "$tmp/t/nccl"
ln -s "$ns" "$tmp/t/ns/"
ln -s "$nccl" "$tmp/t/nccl/"
python3 tests/realdata_idle.py "ns=$ns" "nccl=$nccl" > "$tmp/want.json" ||
	{ echo "tests/realdata_idle.py failed"; exit 1; }
"$SCALEAUDIT" analyze --json "$tmp/t" > "$tmp/out.json" 2> "$tmp/err" ||
	{ echo "analyze exited $?"; cat "$tmp/err"; exit 1; }
python3 - "$tmp/out.json" "$tmp/want.json" <<'PY'
import json, sys
got = {r["name"]: r for r in json.load(open(sys.argv[1]))["runs"]}
want = json.load(open(sys.argv[2]))
bad = []
# host share of idle per steady step, in percent, as the rule gives it today
pinned = {"ns": 20.87, "nccl": 99.60}
for name, ranks in want.items():
    for w in ranks:
        g = next(x for x in got[name]["per_gpu"] if x["rank"] == w["rank"])
        for key in ("step_s", "span_s"):
            if key not in w:
                continue
            s, t = g[key], w[key]
            idle = s["idle"]
            if abs(s["idle_host"] + s["idle_sync"] + s["idle_other"] - idle) > 1e-9:
                bad.append(f"{name} {key}: host + sync + other != idle {idle}")
            for cause in ("host", "sync", "other"):
                d = abs(s["idle_" + cause] - t[cause])
                if idle <= 0 or d > 0.005 * idle:
                    bad.append(f"{name} {key}.idle_{cause}: {s['idle_' + cause]!r}, "
                               f"the script says {t[cause]!r} (idle {idle!r})")
        share = 100 * g["step_s"]["idle_host"] / g["step_s"]["idle"]
        if abs(share - pinned[name]) > 0.01:
            bad.append(f"{name}: host share of idle {share:.2f}%, want {pinned[name]}%")
if bad:
    print("\n".join(bad))
    sys.exit(1)
PY
