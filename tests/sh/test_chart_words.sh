#!/bin/bash
# Every chart of every sample's report (samples/trials/* and
# tests/data/trials/*) shows words, not the ids analysis.json uses: no run
# status (failed-oom), sweep answer (independent-runs), readiness verdict
# (not-ready), transport (net-socket, net-ib), advice id
# (fix-nccl-transport) or finding code (docs/codes.md's table) in the text
# of its PDF. Before, chart 11 said "Answer: independent-runs", chart 10
# "(failed-oom)" and the banner "2gpu not-ready".
set -u
: "${SCALEAUDIT:?}" "${TOP:?}"
cd "$TOP" || exit 2
. tests/skip.sh
. tests/report_cache.sh
need_tool pdftotext
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }

ids="failed-oom independent-runs distributed-run not-ready net-socket net-ib net-ofi
two-independent-runs use-feasibility repeat-trial next-trial another-question rental-window
fix-nccl-transport fix-pipeline-bubble fix-host-bound needs-split log-iterations log-summary nsys-nvtx"
# every finding code with a '-' (a single word such as "straggler" may be plain English)
ids="$ids $(grep -oE '^\| `[a-z0-9]+(-[a-z0-9]+)+`' docs/codes.md | tr -d '|` ')"
[ "$(echo "$ids" | wc -w)" -gt 40 ] || fail "too few ids: docs/codes.md's table not read"
pattern=$(echo $ids | tr ' ' '\n' | sed 's/.*/(^|[^a-z0-9-])&($|[^a-z0-9-])/' | paste -sd'|')

bad=0 charts=0
for d in samples/trials/*/ tests/data/trials/*/; do
	n=$(basename "$d")
	r=$(report_of "${d%/}")		# the report the other scripts share
	[ "$(cat "$r.rc")" = 0 ] || fail "$n: report failed: $(tail -3 "$r.err")"
	for f in "$r"/charts/*.pdf; do
		charts=$((charts + 1))
		pdftotext -q "$f" - | tr '\n' ' ' > "$tmp/text"
		if grep -Eo "$pattern" "$tmp/text" > "$tmp/hits"; then
			echo "$n/$(basename "$f"): raw ids: $(tr -d ' ' < "$tmp/hits" | sort -u | paste -sd, )"
			bad=1
		fi
	done
done
[ "$charts" -gt 100 ] || fail "only $charts charts read"
[ $bad -eq 0 ] || exit 1
echo ok
