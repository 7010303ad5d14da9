#!/bin/bash
# report.html in a real browser: for every sample trial (samples/trials/*,
# tests/data/trials/*) the report is written, then chromium --headless loads
# it at a desktop size (1280x900) and, for the trials hardest to lay out, a
# phone's (390x844). From the DOM: the first heading is the verdict, one
# drawn <svg> per chart file (page 1's chart included), no <script> in the
# report, nothing wider than its box, no id twice, a title with markup shown
# as text; at 1280 px every table and chart fits with no sideways scroll; at
# 390 px every chart at least its natural size (it scrolls in its box); from the
# screenshot: the expected size, not blank; printed: the summary, then one
# page a chart. The overflow is
# measured by tests/sh/html_measure.js, injected into a temporary copy of the
# page (the report itself carries no script). Skips when chromium is absent.
# The reports of the trials are the ones the other scripts share (tests/report_cache.sh).
# plain build only: the browser reads report.html, the same bytes from either build, and
# the sanitizer build writes every trial's report in test_analysis_json_cli.sh.
set -u
. tests/skip.sh
. tests/report_cache.sh
need_tool chromium
need_tool python3
export SOURCE_DATE_EPOCH=1700000000
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0 n=0 views=0
phone=' ddp-precision-changed hparam-sweep-distributed nccl-over-sockets pipeline-oom-feasibility log-only '

view() {	# view REPORT-DIR WIDTH HEIGHT: loads the measuring copy once, checks DOM and screenshot
	local r=$1 w=$2 h=$3 page=$1/measure.html
	{ sed '/<\/body>/,$d' "$r/report.html"; printf '<script>\nvar measure_width = %d;\n' "$w"; cat tests/sh/html_measure.js
	  printf '</script>\n</body>\n</html>\n'; } > "$page"
	timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$tmp/profile" \
		--window-size="$w,$h" --screenshot="$r/shot-$w.png" --dump-dom "file://$page" \
		> "$r/dom-$w.html" 2> "$r/chromium.err" ||
		{ echo "$(basename "$r"): chromium exited $? at ${w}x$h"; tail -3 "$r/chromium.err"; fail=1; return; }
	python3 tests/sh/html_check.py "$r" "$r/dom-$w.html" "$r/shot-$w.png" "$w" "$h" || fail=1
	views=$((views + 1))
}

for t in samples/trials/*/ tests/data/trials/*/; do
	name=$(basename "$t") r=$tmp/$(basename "$t") c=$(report_of "$t")
	rc=$(cat "$c.rc")
	[ $rc -eq 0 ] || [ $rc -eq 3 ] || { echo "$name: report exited $rc"; cat "$c.err"; fail=1; continue; }
	cp -r "$c" "$r"		# the shared report, in a copy: the views write beside it
	n=$((n + 1))
	view "$r" 1280 900
	case "$phone" in *" $name "*) view "$r" 390 844 ;; esac
done
# A title with markup in it is text on the page, never markup (html_check counts the scripts).
h=$tmp/hostile-trial
cp -r samples/trials/ddp-scales-well "$h"
sed -i "s|^title = .*|title = <script>alert(1)</script> \\& \"x\" 'y'|" "$h/trial.ini"
if "$SCALEAUDIT" report "$h" -o "$tmp/hostile" > /dev/null 2> "$tmp/err"; then
	view "$tmp/hostile" 1280 900
	grep -qF "<title>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot; &#39;y&#39;</title>" \
		"$tmp/hostile/report.html" || { echo "the title is not escaped as expected"; fail=1; }
else
	echo "report of a trial with markup in its title exited $?"; cat "$tmp/err"; fail=1
fi

# Printed, the summary comes first and each chart starts a page of its own, under its title.
r=$tmp/ddp-scales-well
if command -v pdfinfo > /dev/null && command -v pdftotext > /dev/null && [ -s "$r/report.html" ]; then
	timeout 60 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/profile" --no-pdf-header-footer \
		--print-to-pdf="$tmp/print.pdf" "file://$r/report.html" > /dev/null 2>&1 || { echo "printing exited $?"; fail=1; }
	charts=$(ls "$r/charts" | grep -v '^00-' | grep -c '\.svg$')	# page 1's chart stays on the summary's page
	pages=$(pdfinfo "$tmp/print.pdf" 2> /dev/null | awk '/^Pages:/ { print $2 }')
	[ "${pages:-0}" -gt "$charts" ] || { echo "printed on ${pages:-no} pages for $charts charts and a summary"; fail=1; }
	page=$((${pages:-0} - charts + 1))	# the charts' pages are the last ones, the charts left out under the last
	while IFS= read -r title; do
		top=$(pdftotext -f $page -l $page "$tmp/print.pdf" - 2> /dev/null | head -n 1)
		[ "$top" = "$title" ] || { echo "printed page $page opens with '$top', not '$title'"; fail=1; }
		page=$((page + 1))
	done < <(sed -n 's/^### //p' "$r/summary.md" | grep -vxF 'Samples per second')
	[ $page -eq $((${pages:-0} + 1)) ] || { echo "summary.md lists a chart count other than the $charts files"; fail=1; }
fi
[ $n -eq 29 ] || { echo "$n sample trials, expected 29"; fail=1; }
[ $views -eq 35 ] || { echo "$views pages loaded, expected 35 (29 desktop, 5 phone, 1 hostile title)"; fail=1; }
exit $fail
