#!/bin/bash
# The decision, what to rent next, from trials built from the samples with a
# target and a price. The throughputs are the generator's (truth.json):
# ddp-scales-well's 1gpu runs 218.02436 samples/s, its 2gpu 376.946019. Every
# expected figure is worked out by hand below from those two numbers, the
# default margin 0.15 and lots of 2 GPUs, and a cost is what is rented:
# lots x GPUs a lot x days x 24 x price.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# trial NAME SAMPLE LINES...: a copy of the sample with LINES added to trial.ini
trial() {
	local name=$1 sample=$2
	shift 2
	cp -r "samples/trials/$sample" "$tmp/$name"
	rm -f "$tmp/$name/truth.json"
	printf '%s\n' "$@" >> "$tmp/$name/trial.ini"
	"$SCALEAUDIT" analyze "$tmp/$name" > "$tmp/$name.txt" 2> "$tmp/$name.err"
	"$SCALEAUDIT" analyze --json "$tmp/$name" > "$tmp/$name.json" 2>> "$tmp/$name.err"
}

# expect FILE TEXT: the file holds the line TEXT
expect() {
	grep -qxF -- "$2" "$1" || { echo "$1 lacks the line: $2"; grep -m3 -E '^(Decision|  )' "$1"; fail=1; }
}

# decision NAME PYTHON-DICT: the decision's keys hold these values (numbers to 1e-9 relative)
decision() {
	python3 - "$tmp/$1.json" "$2" <<'EOF' || fail=1
import json, math, sys
d = json.load(open(sys.argv[1]))["comparison"]["decision"]
want = eval(sys.argv[2])
bad = 0
def get(path):
    x = d
    for k in path.split("."):
        x = x[int(k)] if isinstance(x, list) else x[k]
    return x
for k, v in want.items():
    g = get(k)
    ok = (g == v) if not isinstance(v, float) or g is None else math.isclose(g, v, rel_tol=1e-9)
    if not ok:
        print(f"{sys.argv[1]}: decision.{k} = {g!r}, want {v!r}")
        bad = 1
sys.exit(bad)
EOF
}

S1=218.02436 S2=376.946019

# 1e8 samples at 4.50: 2gpu needs 1e8/S2/86400 = 3.0705 days, 3.531 with the margin: a 7-day
# window of 1 lot of 2, 336 GPU-hours, 1512.00; margin left 7/3.0705 - 1 = 128%. 1gpu needs
# 5.3086 days (6.105): the same window and cost on a lot of 2, one GPU idle: it loses on days.
trial a ddp-scales-well "target_samples = 100000000" "gpu_hour_price = 4.50"
expect "$tmp/a.txt" "Decision: Rent 1 lot of 2x B200 for 7 days: 3.1 days needed at 376.9 samples/s (margin 128%), 1,512 for the window (costs in gpu_hour_price units; set currency = USD in trial.ini to name it)"
expect "$tmp/a.txt" "  - 1x B200 (1gpu) on 1 lot of 2x B200 for 7 days: the same 1,512 for the window, but 5.3 days needed against 3.1, 1 GPU of the lots idle"
decision a "{'rent.gpu_model': 'B200', 'rent.gpus': 2, 'rent.lots': 1, 'rent.window_days': 7,
	'rent.windows': 1, 'rent.run_gpus': 2, 'run': '2gpu', 'days_needed': 1e8 / $S2 / 86400,
	'margin': 7 / (1e8 / $S2 / 86400) - 1, 'margin_required': 0.15, 'window_gpu_hours': 336.0,
	'window_cost': 1512.0, 'checkpoint': None, 'stop_criteria': [],
	'alternatives.0.run': '1gpu', 'alternatives.0.window_cost': 1512.0,
	'alternatives.0.days_needed': 1e8 / $S1 / 86400, 'alternatives.0.rent.run_gpus': 1}"
# the options priced as rented, in the rental-window advice
grep -qF "to 100,000,000 samples, at 4.50 per GPU-hour, in lots of 2 GPUs with a 15% margin: on 1 GPU 5.3 days, a 7-day window of 1 lot (336 GPU-hours rented, cost 1,512); on 2 GPUs 3.1 days, a 7-day window of 1 lot (336 GPU-hours rented, cost 1,512)" "$tmp/a.txt" ||
	{ echo "a: the rental-window advice does not price the windows as rented"; grep rental "$tmp/a.txt"; fail=1; }
# page 1 and summary.md open with it, before the verdict
"$SCALEAUDIT" report -o "$tmp/a-report" "$tmp/a" > /dev/null 2>&1
sed -n 3p "$tmp/a-report/summary.md" | grep -qxF "**Rent 1 lot of 2x B200 for 7 days: 3.1 days needed at 376.9 samples/s (margin 128%), 1,512 for the window (costs in gpu\\_hour\\_price units; set currency = USD in trial.ini to name it)**" ||
	{ echo "summary.md does not open with the decision:"; head -5 "$tmp/a-report/summary.md"; fail=1; }
grep -q 'class="decision">Rent 1 lot of 2x B200 for 7 days' "$tmp/a-report/report.html" ||
	{ echo "report.html lacks the decision line"; fail=1; }
if command -v pdftotext > /dev/null; then	# page 1 of report.pdf, its lines joined
	pdftotext -f 1 -l 1 "$tmp/a-report/report.pdf" - | tr '\n' ' ' | tr -s ' ' |
		grep -qF "Rent 1 lot of 2x B200 for 7 days: 3.1 days needed at 376.9 samples/s (margin 128%), 1,512 for the window" ||
		{ echo "page 1 of report.pdf does not say what to rent"; fail=1; }
fi

# Lots of 1 GPU: 1gpu rents 1 lot for 7 days, 168 GPU-hours, 756.00; 2gpu 2 lots, 1512.00.
trial b ddp-scales-well "target_samples = 100000000" "gpu_hour_price = 4.50" "lot_gpus = 1"
expect "$tmp/b.txt" "Decision: Rent 1 lot of 1x B200 for 7 days: 5.3 days needed at 218.0 samples/s (margin 32%), 756 for the window (costs in gpu_hour_price units; set currency = USD in trial.ini to name it)"
expect "$tmp/b.txt" "  - 2x B200 (2gpu) on 2 lots of 1x B200 for 7 days: 3.1 days needed, 1,512 for the window, 756 more"
decision b "{'rent.gpus': 1, 'rent.lots': 1, 'run': '1gpu', 'window_cost': 756.0, 'window_gpu_hours': 168.0}"

# No margin: 9.7e7 samples take 2gpu 2.978 days, a 3-day window, 144 GPU-hours, 648.00; 1gpu
# needs 5.149 days, a 7-day window, 1512.00.
trial c ddp-scales-well "target_samples = 97000000" "gpu_hour_price = 4.50" "margin = 0"
expect "$tmp/c.txt" "Decision: Rent 1 lot of 2x B200 for 3 days: 3.0 days needed at 376.9 samples/s (margin 1%), 648 for the window (costs in gpu_hour_price units; set currency = USD in trial.ini to name it)"
decision c "{'rent.window_days': 3, 'window_cost': 648.0, 'margin_required': 0.0}"

# 1e9 samples: 2gpu needs 30.705 days, 35.31 with the margin: 2 consecutive 30-day windows,
# 2880 GPU-hours, 12960.00; 1gpu 53.09 days (61.05): 3 windows, 19440.00. A 30-day window
# carries the checkpoint interval: sqrt(2 x 120 s x 86400 s) - 120 = 4433.68 s, and the stop
# criteria: 90% of S2 = 339.3 samples/s, day ceil(30.705 / 2) = 16, day 60.
trial d ddp-scales-well "target_samples = 1000000000" "gpu_hour_price = 4.50" "checkpoint_write_s = 120"
expect "$tmp/d.txt" "Decision: Rent 1 lot of 2x B200 for 2 consecutive 30-day windows (60 days): 30.7 days needed at 376.9 samples/s (margin 95%), 12,960 for the windows (costs in gpu_hour_price units; set currency = USD in trial.ini to name it)"
expect "$tmp/d.txt" "  Checkpoint every 1.2 h (Young/Daly: a write of 120 s as planned in trial.ini, 24 h between failures of the rental)"
expect "$tmp/d.txt" "  Stop when a whole day under 90% of the measured throughput (339.3 samples/s a run): stop and find the cause before the window is spent"
expect "$tmp/d.txt" "  Stop when at day 16, fewer than 500,000,000 samples processed (50% of 1,000,000,000): the window will not hold the target; re-plan"
expect "$tmp/d.txt" "  Stop when at the end of day 60, whatever the loss: a longer campaign is a new decision from the throughput measured so far"
decision d "{'rent.window_days': 30, 'rent.windows': 2, 'window_cost': 12960.0, 'window_gpu_hours': 2880.0,
	'checkpoint.interval_s': (2 * 120 * 86400) ** 0.5 - 120, 'checkpoint.write_s': 120.0,
	'checkpoint.write_from': 'trial.ini', 'checkpoint.mtbf_hours': 24.0,
	'stop_criteria.0.id': 'throughput-floor', 'stop_criteria.3.id': 'window-end',
	'alternatives.0.window_cost': 19440.0, 'alternatives.0.rent.windows': 3}"

# A sweep of 4 runs, 1e7 samples each: 1gpu runs 0.5309 days, 2 at a time on 1 lot, 2 rounds:
# 1.0617 days, a 3-day window, 648.00; 2gpu 0.3070 days, 1 at a time, 4 rounds: 1.228 days,
# the same 648.00 but more days; more lots cost more (2 lots: 1296.00).
trial e ddp-scales-well "target_samples = 10000000" "gpu_hour_price = 4.50" "variants = 4"
expect "$tmp/e.txt" "Decision: Rent 1 lot of 2x B200 for 3 days: 1.1 days needed at 218.0 samples/s, 4 runs of 1 GPU, 2 at a time (margin 183%), 648 for the window (costs in gpu_hour_price units; set currency = USD in trial.ini to name it)"
decision e "{'run': '1gpu', 'variants': 4, 'rent.concurrent_runs': 2, 'rent.run_gpus': 1, 'window_cost': 648.0,
	'days_needed': 2 * 1e7 / $S1 / 86400, 'alternatives.0.run': '2gpu', 'alternatives.0.window_cost': 648.0,
	'alternatives.0.days_needed': 4 * 1e7 / $S2 / 86400, 'alternatives.1.window_cost': 1296.0}"

# Without a target: the lowest cost per sample, GPU-hours rented per million samples:
# 2gpu 2 x 1e6 / S2 / 3600 = 1.4738, 1gpu on a lot of 2 (one GPU idle) 2.5480.
trial f ddp-scales-well
expect "$tmp/f.txt" "Decision: Rent 1 lot of 2x B200: lowest cost per sample, 1.47 GPU-hours per million samples at 376.9 samples/s; no target in trial.ini, no window"
decision f "{'days_needed': None, 'window_cost': None, 'rent.window_days': None,
	'gpu_hours_per_million_samples': 2e6 / $S2 / 3600}"

# Unrelated jobs: nothing is rented, and why.
trial g unrelated-jobs "target_samples = 100000000" "gpu_hour_price = 4.50"
grep -qxF "Decision: Rent nothing yet: the runs differ in workload, which makes their throughputs incomparable; rent next for the one trial that answers: run the same job on both GPU counts (only '1gpu' ran attention (17% of its kernel time), only '2gpu' ran conv (79%)): run '1gpu' again with the job '2gpu' ran (or '2gpu' with the job of '1gpu')" "$tmp/g.txt" ||
	{ echo "g: an unrelated pair decides a rental"; grep '^Decision' "$tmp/g.txt"; fail=1; }
decision g "{'rent': None, 'alternatives': []}"

# Another GPU model: the decision names the one run to rent next, not a whole new trial.
trial m gpu-model-mismatch
grep -qxF "Decision: Rent nothing yet: the runs differ in GPU model, which makes their throughputs incomparable; rent next for the one trial that answers: a 1x B200 baseline, run '1gpu' again on B200 (as '2gpu' ran)" "$tmp/m.txt" ||
	{ echo "m: the blocked decision names no next trial"; grep '^Decision' "$tmp/m.txt"; fail=1; }

# The cheapest option runs one 1-GPU job on a lot of 2: the idle GPU is said.
trial s nccl-over-sockets
grep -qF ", running '1gpu' with 1 of the 2 GPUs idle; no target in trial.ini, no window" "$tmp/s.txt" ||
	{ echo "s: the idle GPU of the lot is not said"; grep '^Decision' "$tmp/s.txt"; fail=1; }

# A baseline that ran out of memory is no option, and says so.
trial h pipeline-oom-feasibility "target_samples = 1000000" "gpu_hour_price = 2"
expect "$tmp/h.txt" "  - 1x H100 SXM (1gpu): it did not complete (failed-oom)"
decision h "{'run': '2gpu', 'alternatives.0.rent': None, 'alternatives.0.run': '1gpu'}"

# An absurd target, said without an overflow: 1e18 / S2 / 86400 = 30704858230.8 days, 35310586965.5
# with the margin: 1177019566 consecutive 30-day windows, 35310586980 days (the written-out
# product of two 32-bit counts past 2^31).
trial huge ddp-scales-well "target_samples = 1e18" "gpu_hour_price = 4.50"
grep -q '^Decision: Rent 1 lot of 2x B200 for 1177019566 consecutive 30-day windows (35310586980 days): ' "$tmp/huge.txt" ||
	{ echo "huge: $(grep '^Decision' "$tmp/huge.txt")"; cat "$tmp/huge.err"; fail=1; }

# The new keys' values are checked where they are read.
for bad in "lot_gpus = 0" "variants = 0" "margin = -1" "mtbf_hours = 0"; do
	trial bad ddp-scales-well "$bad"
	rc=$("$SCALEAUDIT" analyze "$tmp/bad" > /dev/null 2>&1; echo $?)
	[ "$rc" -eq 3 ] || { echo "'$bad': exit $rc, want 3"; fail=1; }
	rm -rf "$tmp/bad"
done
trial bad ddp-scales-well "lot_gpus = 0"
grep -qF "[trial] lot_gpus = '0': expected a whole number from 1 to 4096" "$tmp/bad.err" ||
	{ echo "lot_gpus = 0: no clear message"; cat "$tmp/bad.err"; fail=1; }

exit $fail
