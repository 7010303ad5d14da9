#!/bin/bash
# One quantity, the same digits in every text output: the cost of expected-speedup-missed's window
# (1 lot of 2 GPUs for 7 days: 2 x 7 x 24 = 336 GPU-hours at 5.50 = 1,848) with currency = USD in
# analyze's text, summary.md, report.html and page 1 of report.pdf; its target grouped
# (90,000,000); pipeline-oom-feasibility's memory ratio (74.9 GB against 8.7 GB, 8.65x from the
# bytes in analysis.json) the same in the text and in chart 13; its failed allocation (3.5 GiB) the
# same in analyze and the report; ddp-scales-well's step (the verdict's medians, the only step times
# of the why line and page 1) and throughput (376.9 samples/s) everywhere; plan --from's currency;
# the currency key validated.
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
. "$TOP/tests/skip.sh"
need_tool pdftotext
cd "$TOP" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# has NAME FILE TEXT: the file holds TEXT
has() {
	grep -qF -- "$3" "$2" || { echo "$1 lacks: $3"; fail=1; }
}
lacks() {
	! grep -qF -- "$3" "$2" || { echo "$1 holds: $3"; fail=1; }
}

# texts DIR TRIAL: every text output of TRIAL into DIR/*.txt
texts() {
	"$SCALEAUDIT" analyze "$2" > "$1/analyze.txt" 2>&1
	SOURCE_DATE_EPOCH=0 "$SCALEAUDIT" report -o "$1/r" "$2" > /dev/null 2>&1 || { echo "report $2 failed"; fail=1; }
	cp "$1/r/summary.md" "$1/summary.txt"
	sed -e 's/<[^>]*>//g' -e "s/&#39;/'/g" -e 's/&amp;/\&/g' "$1/r/report.html" > "$1/html.txt"
	pdftotext -l 1 "$1/r/report.pdf" - | tr '\n' ' ' | sed 's/  */ /g' > "$1/page1.txt"
}

mkdir "$tmp/usd" "$tmp/bare" "$tmp/oom"
cp -r samples/trials/expected-speedup-missed "$tmp/t-usd"
echo "currency = USD" >> "$tmp/t-usd/trial.ini"
texts "$tmp/usd" "$tmp/t-usd"
for f in analyze summary html page1; do
	has "$f (USD)" "$tmp/usd/$f.txt" "1,848 USD for the window"
	lacks "$f (USD)" "$tmp/usd/$f.txt" "gpu_hour_price units"
done
for f in analyze summary html; do
	has "$f" "$tmp/usd/$f.txt" "to 90,000,000 samples, at 5.50 USD per GPU-hour"
	has "$f" "$tmp/usd/$f.txt" "(336 GPU-hours rented, cost 1,848 USD)"
done
"$SCALEAUDIT" analyze --json "$tmp/t-usd" | python3 -c 'import json,sys; c=json.load(sys.stdin)["trial"]["currency"]; sys.exit(c != "USD")' ||
	{ echo "trial.currency is not USD"; fail=1; }

# plan --from takes the trial's currency: in its costs, in --json's inputs, in the trial.ini it writes;
# --currency names another
"$SCALEAUDIT" analyze --json "$tmp/t-usd" > "$tmp/usd.json"
plan=(plan --from "$tmp/usd.json" --model llama-3-8b --gpu H200 --target-tokens 1e10 --price 3)
"$SCALEAUDIT" "${plan[@]}" -o "$tmp/plan-usd" > "$tmp/plan-usd.txt" 2>&1 || { echo "plan --from failed"; fail=1; }
has "plan --from" "$tmp/plan-usd.txt" ", cost 432 USD"
lacks "plan --from" "$tmp/plan-usd.txt" "in the price's units"
has "plan -o trial.ini" "$tmp/plan-usd/trial.ini" "currency = USD"
"$SCALEAUDIT" "${plan[@]}" --json | python3 -c 'import json,sys; sys.exit(json.load(sys.stdin)["inputs"]["currency"] != "USD")' ||
	{ echo "plan --json: inputs.currency is not USD"; fail=1; }
"$SCALEAUDIT" "${plan[@]}" --currency EUR > "$tmp/plan-eur.txt" 2>&1
has "plan --currency EUR" "$tmp/plan-eur.txt" ", cost 432 EUR"
lacks "plan --currency EUR" "$tmp/plan-eur.txt" "USD"
"$SCALEAUDIT" plan --model llama-3-8b --gpu H200 --json |
	python3 -c 'import json,sys; i=json.load(sys.stdin)["inputs"]; sys.exit(not ("currency" in i and i["currency"] is None))' ||
	{ echo "plan --json without a currency: inputs.currency is not null"; fail=1; }

# without currency the costs are said to be in the price's units, once, where they first appear
texts "$tmp/bare" samples/trials/expected-speedup-missed
sed -i 's/\\_/_/g' "$tmp/bare/summary.txt"	# markdown's escaped underscores
for f in analyze summary page1; do
	has "$f (bare)" "$tmp/bare/$f.txt" "1,848 for the window (costs in gpu_hour_price units; set currency = USD in trial.ini to name it)"
done
n=$(grep -o "gpu_hour_price units" "$tmp/bare/analyze.txt" | wc -l)
[ "$n" = 1 ] || { echo "analyze says the units $n times, not once"; fail=1; }
"$SCALEAUDIT" analyze --json samples/trials/expected-speedup-missed |
	python3 -c 'import json,sys; t=json.load(sys.stdin)["trial"]; sys.exit(not ("currency" in t and t["currency"] is None))' ||
	{ echo "trial.currency is not null"; fail=1; }

# the memory ratio: computed here from analysis.json's peaks, then found in every output
texts "$tmp/oom" samples/trials/pipeline-oom-feasibility
ratio=$(python3 -c 'import json,sys
a = json.load(open(sys.argv[1]))
r = [r for r in a["runs"] if r["name"] == "2gpu"][0]
p = sorted(g["peak_memory_bytes"] for g in r["per_gpu"])
print("%.2fx" % (p[-1] / p[0]))' "$tmp/oom/r/analysis.json")
[ "$ratio" = "8.65x" ] || { echo "the peaks give $ratio, not 8.65x"; fail=1; }
for f in analyze summary html; do
	has "$f" "$tmp/oom/$f.txt" "74.9 GB at its peak, $ratio the 8.7 GB of GPU 1"
	lacks "$f" "$tmp/oom/$f.txt" "8.7x the"
done
# the failed allocation in GiB: analyze's cuda-oom note by the same formatter as summary.md's "3.5 GiB
# more" (the log says 3.50 GiB: 3758096384 bytes)
has analyze "$tmp/oom/analyze.txt" "it tried to allocate 3.5 GiB of a 79.2 GiB GPU with 77.5 GiB already reserved by PyTorch"
lacks analyze "$tmp/oom/analyze.txt" "3.50 GiB"
for f in summary html; do
	has "$f" "$tmp/oom/$f.txt" "3.5 GiB more"
done
pdftotext "$tmp/oom/r/charts/13-waiting.pdf" - | tr '\n' ' ' > "$tmp/oom/c13.txt"
has "chart 13" "$tmp/oom/c13.txt" "$ratio"
lacks "chart 13" "$tmp/oom/c13.txt" "8.7x"

# one step statistic: the verdict's medians are the only step times on page 1 and in the why line;
# the loss, counted on means (42.5 ms, analyze's per-GPU table), says so once instead of quoting them
mkdir "$tmp/ddp"
texts "$tmp/ddp" samples/trials/ddp-scales-well
why="Why: 2 GPUs lose 11.6 ms of GPU time per step against perfect scaling (counted on mean steps, so that the parts add up); the largest part is compute: 6.6 ms"
for f in summary html page1; do
	has "$f" "$tmp/ddp/$f.txt" "$why"
	has "$f" "$tmp/ddp/$f.txt" "a step takes 42.4 ms on 2 GPUs against 73.4 ms on 1 GPU"
	lacks "$f" "$tmp/ddp/$f.txt" "42.5 ms"
	lacks "$f" "$tmp/ddp/$f.txt" "mean steps)"
done
# the throughput the decision quotes, the same digits in every output and in the run table
for f in analyze summary html page1; do
	has "$f" "$tmp/ddp/$f.txt" "at 376.9 samples/s"
done
grep -qE "^2gpu .* 376\.9 +7/10" "$tmp/ddp/analyze.txt" || { echo "analyze's run table lacks 376.9 samples/s"; fail=1; }
has analyze "$tmp/ddp/analyze.txt" "Lost against perfect scaling (n x mean step - 1-GPU mean step, slowest GPU, ms): compute +6.6, exposed comm +3.3, memory +0.0558, idle +1.7 = +11.6"
grep -qE "^2gpu +0 +42\.5 " "$tmp/ddp/analyze.txt" || { echo "analyze's per-GPU table lacks the mean step 42.5"; fail=1; }

# a currency with a space is refused, naming the file and the line
cp -r samples/trials/expected-speedup-missed "$tmp/t-bad"
echo "currency = US D" >> "$tmp/t-bad/trial.ini"
line=$(wc -l < "$tmp/t-bad/trial.ini")
"$SCALEAUDIT" analyze "$tmp/t-bad" > "$tmp/bad.txt" 2>&1
has "bad currency" "$tmp/bad.txt" "$tmp/t-bad/trial.ini:$line: [trial] currency = 'US D': expected a code or a symbol of 1 to 8 characters without spaces (USD, EUR, \$)"
exit $fail
