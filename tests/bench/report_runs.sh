#!/bin/bash
# make bench, part 4: scaleaudit report on an analysis.json of many runs. A
# sweep's analysis.json can hold thousands; the report (page 2's run table
# over many pages, every chart's legend, summary.md, report.html) must stay
# linear in them. Writes analysis.json files of N, 2N and 4N runs (the
# logs-only sample's runs, renamed; BENCH_REPORT_RUNS=N, default 1000) into a
# temporary directory, and prints for each the wall and CPU time of report,
# its peak RSS, and the time per run; then the ratio of the 4N time to the N
# time, which is 4 for a linear report. Measured on 2 loaded cores while
# page 2's table laid out every remaining row again on every page: 1,000 runs
# 10.8 s, 2,000 runs 17.5 s, 4,000 runs 69.9 s of wall time (6.5x); after:
# 2.7, 4.7 and 9.2 s (3.4x).
set -eu
bin=${1:-./scaleaudit}
n=${BENCH_REPORT_RUNS:-1000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" analyze --json samples/trials/logs-only > "$tmp/base.json" 2> /dev/null
python3 - "$tmp" "$n" <<'PY'
import copy, json, sys
tmp, n = sys.argv[1], int(sys.argv[2])
a = json.load(open(f"{tmp}/base.json"))
run = a["runs"][1]
for k in (n, 2 * n, 4 * n):
    b = dict(a)
    b["runs"] = a["runs"] + [dict(run, name=f"r{i}") for i in range(k)]
    json.dump(b, open(f"{tmp}/runs{k}.json", "w"))
PY
first=
for k in "$n" "$((2 * n))" "$((4 * n))"; do
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$bin" report "$tmp/runs$k.json" -o "$tmp/out$k" > /dev/null 2> "$tmp/err" ||
		{ echo "bench: report of $k runs exited $?"; cat "$tmp/err"; exit 1; }
	read -r secs user sys kb < "$tmp/time"
	cpu=$(python3 -c "print(f'{$user + $sys:.2f}')")
	echo "bench: scaleaudit report, analysis.json of $((k + 2)) runs ($(($(stat -c %s "$tmp/runs$k.json") / 1000000)) MB)"
	echo "       ${secs} s wall, ${cpu} s CPU, peak RSS $((kb / 1024)) MiB, $(python3 -c "print(f'{$cpu / $k * 1e3:.2f}')") ms CPU per run"
	first=${first:-$cpu}
	last=$cpu
done
echo "bench: report CPU time, $((4 * n)) runs against $n: $(python3 -c "print(f'{$last / $first:.1f}')")x (4x is linear)"
