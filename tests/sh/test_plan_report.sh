#!/bin/bash
# The plan against the trial in report.pdf and report.html, where analyze's text
# and summary.md show it: a sample trial whose run.ini files carry plan's
# predictions gets the section with a line per planned run in both; the sample as
# it is (no predictions) gets none.
set -u
. tests/skip.sh
need_tool pdftotext
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }
cp -R samples/trials/ddp-scales-well "$tmp/t"
# 1gpu: 49.7 GB and 73.4 ms measured; 2gpu: 40.1 GB and 42.4 ms
printf 'predicted_peak_gb = 52\npredicted_step_s = 0.05\n' >> "$tmp/t/1gpu/run.ini"
printf 'predicted_peak_gb = 30\n' >> "$tmp/t/2gpu/run.ini"
line1='1gpu: peak memory per GPU 49.7 GB measured, 52.0 GB planned (-4%, held); step time 73.4 ms measured, 50.0 ms planned (+47%, beyond the tolerance: the plan was wrong)'
line2='2gpu: peak memory per GPU 40.1 GB measured, 30.0 GB planned (+34%, beyond the tolerance: the plan was wrong)'
for t in "$tmp/t" samples/trials/ddp-scales-well; do
	rm -rf "$tmp/out"
	"$SCALEAUDIT" report "$t" -o "$tmp/out" > /dev/null 2> "$tmp/err" || fail "report $t exited $?: $(cat "$tmp/err")"
	pdftotext -layout "$tmp/out/report.pdf" - | tr -s ' \n' ' ' > "$tmp/pdf.txt"
	if [ "$t" = "$tmp/t" ]; then
		grep -qF '<h2>Plan against measured</h2>' "$tmp/out/report.html" || fail "report.html lacks the plan heading"
		for l in "$line1" "$line2"; do
			grep -qF "<li>$l</li>" "$tmp/out/report.html" || fail "report.html lacks: $l"
			grep -qF "$l" "$tmp/pdf.txt" || fail "report.pdf lacks: $l"
		done
		grep -qF 'Plan against measured' "$tmp/pdf.txt" || fail "report.pdf lacks the plan heading"
	else
		! grep -q 'Plan against' "$tmp/out/report.html" "$tmp/pdf.txt" || fail "a plan section without predictions"
	fi
done
exit 0
